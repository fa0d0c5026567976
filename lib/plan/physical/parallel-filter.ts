/**
 * Rule `parallel-filter` (when {@link PhysicalOptions.filters} allows): a filter directly over a table scan that reads at least `minRows`
 * rows (the whole table, or by estimate the rows in its timestamp intervals) becomes a
 * {@link ParallelFilterNode} when a worker can evaluate its predicate ({@link canShip}) over
 * fixed-width columns. A scan through a symbol index stays on one thread while the index reads
 * few enough rows ({@link parallelScan}).
 */
import { physicalOf } from '../../types/column-type.js'
import type { ParallelFilterNode, PlanNode } from '../plan-node.js'
import { columnsOf } from '../optimize/walk.js'
import { canShip } from './shippable.js'
import { rowsToRead } from './scan-rows.js'
import { parallelScan } from './index-choice.js'
import type { PhysicalOptions } from './options.js'

/** The parallel form of `node`, or undefined when it does not qualify. */
export function parallelFilter(node: PlanNode, options: PhysicalOptions): ParallelFilterNode | undefined {
  if (options.filters !== true || node.kind !== 'filter' || node.input.kind !== 'scan') return undefined
  if (!canShip(node.predicate) || rowsToRead(node.input) < options.minRows) return undefined
  const scan = parallelScan(node.input, options.workers)
  if (scan === undefined) return undefined
  const used = new Set<number>()
  columnsOf(node.predicate, used)
  for (const i of used) {
    const p = physicalOf(scan.output[i]!.type)
    if (p === 'str' || p === 'bin' || p === 'arr' || p === 'null') return undefined
  }
  return { kind: 'parallel_filter', logical: node, scan, workers: options.workers, output: node.output, timestampIndex: node.timestampIndex }
}
