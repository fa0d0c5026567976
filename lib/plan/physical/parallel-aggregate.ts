/**
 * Rule `parallel-aggregate`: a GROUP BY, or a SAMPLE BY without FILL and FROM/TO (aligned to
 * the calendar or to the first observation, which execution reads before the shares start), directly over a table scan (optionally under a filter) that reads at least `minRows`
 * rows (the whole table, or by estimate the rows in its timestamp intervals, {@link rowsToRead}),
 * unless a symbol index reads few enough of them ({@link parallelScan}),
 * becomes a {@link ParallelAggregateNode} (a table of fewer rows splits when it feeds several
 * aggregates: {@link worthSplitting}): every aggregate kernel merges partial states
 * (`AggregateKernel.merge`), so any aggregate qualifies; the keys, arguments and filter must be
 * expressions a worker can evaluate ({@link canShip}) over fixed-width columns (workers read the
 * table's column memory in place; text, binary and array columns are not shared).
 */
import { physicalOf } from '../../types/column-type.js'
import type { BoundExpr, ParallelAggregateNode, PlanNode, ScanNode } from '../plan-node.js'
import { columnsOf, remapExpr } from '../optimize/walk.js'
import { canShip } from './shippable.js'
import { rowsToRead } from './scan-rows.js'
import { parallelScan } from './index-choice.js'
import type { PhysicalOptions } from './options.js'

/** The parallel form of `node`, or undefined when it does not qualify. */
export function parallelAggregate(node: PlanNode, options: PhysicalOptions): ParallelAggregateNode | undefined {
  if (node.kind !== 'aggregate' && node.kind !== 'sample_by') return undefined
  if (node.kind === 'sample_by' && (node.fill !== undefined || node.from !== undefined || node.to !== undefined || node.bucketKey < 0 || node.unit === 'n')) return undefined
  let input = node.input
  let filter: BoundExpr | undefined
  let map: Int32Array | undefined
  if (input.kind === 'filter') {
    filter = input.predicate
    if (input.projection !== undefined) map = Int32Array.from(input.projection)
    input = input.input
  }
  if (input.kind !== 'scan' || !worthSplitting(rowsToRead(input), node.aggregates, options.minRows)) return undefined
  const scan: ScanNode | undefined = parallelScan(input, options.workers)
  if (scan === undefined) return undefined
  const remap = (e: BoundExpr): BoundExpr => (map === undefined ? e : remapExpr(e, map))
  const keys = node.keys.map(remap)
  const aggregates = node.aggregates.map((a) => ({ ...a, args: a.args.map(remap) }))
  const exprs = [...keys, ...aggregates.flatMap((a) => a.args), ...(filter === undefined ? [] : [filter])]
  if (!exprs.every(canShip)) return undefined
  const used = new Set<number>()
  for (const e of exprs) columnsOf(e, used)
  const shareInput: PlanNode = filter === undefined ? scan : { kind: 'filter', input: scan, predicate: filter, output: scan.output, timestampIndex: scan.timestampIndex }
  let share: ParallelAggregateNode['share']
  if (node.kind === 'sample_by') {
    const timestampColumn = map === undefined ? node.timestampColumn : map[node.timestampColumn]!
    used.add(timestampColumn)
    share = { ...node, input: shareInput, keys, aggregates, timestampColumn }
  } else share = { ...node, input: shareInput, keys, aggregates }
  for (const i of used) {
    const p = physicalOf(scan.output[i]!.type)
    if (p === 'str' || p === 'bin' || p === 'arr' || p === 'null') return undefined
  }
  return { kind: 'parallel_aggregate', logical: node, share, scan, filter, workers: options.workers, output: node.output, timestampIndex: node.timestampIndex }
}

/**
 * Whether `rows` feeding `aggregates` are work enough to hand to workers: the work grows with the
 * values folded (rows x aggregate arguments), so `minRows` values split (a 1M-row `count()`, a
 * 250k-row SAMPLE BY of four `avg`s), but never fewer than a quarter of `minRows` rows, where
 * handing the shares out and merging them costs more than the second core saves. TSBS
 * double-groupby-all at 100 hosts (432k rows, ten `avg`s) went from 22.2 to 14.6 ms mean on two
 * cores (docs/benchmarks.md).
 */
export function worthSplitting(rows: number, aggregates: readonly { readonly args: readonly unknown[] }[], minRows: number): boolean {
  if (rows < minRows / 4) return false
  let values = 0
  for (const a of aggregates) values += a.args.length
  return rows * Math.max(1, values) >= minRows
}
