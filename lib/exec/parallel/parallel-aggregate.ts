/**
 * Parallel GROUP BY over a table scan: the shares (see shares.ts) aggregate their row ranges into
 * partial groups, and a second GROUP BY merges them (count -> sum of counts, avg -> sum / count,
 * min -> min of mins); a projection gives the aggregates their final values and types.
 */
import type { Batch } from '../../types/vector.js'
import type { AggregateNode, BoundAggregate, BoundExpr, OutputColumn, PlanNode } from '../../plan/plan-node.js'
import { castTo } from '../../plan/bind-expr.js'
import type { ExecContext } from '../context.js'
import { runPlan } from '../operators/runner.js'
import { concatBatches } from '../operators/sort.js'
import { DECOMPOSE, aggregateOf, batchNode, divide } from './decompose.js'
import { type Shares, partialOutput, prepareShares, runShares } from './shares.js'

export { PARALLEL_MIN_ROWS, PARALLEL_STATS } from './decompose.js'

/** The parallel plan for `node`, or undefined when it does not qualify. */
export function parallelAggregate(node: AggregateNode, ctx: ExecContext): AsyncGenerator<Batch> | undefined {
  const shares = prepareShares(node.input, node.keys, node.aggregates)
  return shares === undefined ? undefined : run(node, shares, ctx)
}

async function* run(node: AggregateNode, shares: Shares, ctx: ExecContext): AsyncGenerator<Batch> {
  const all = await runShares(shares, ctx)
  const k = node.keys.length
  const layout = partialOutput(shares.keys, shares.partials)
  const input = batchNode(concatBatches(all, layout), layout)
  const col = (i: number): BoundExpr => ({ kind: 'column', type: layout[i]!.type, index: i })
  const mergeAggs: BoundAggregate[] = []
  let j = 0
  for (const a of node.aggregates) for (const m of DECOMPOSE[a.def.name]!.merge) { mergeAggs.push(aggregateOf(m, [col(k + j)])); j++ }
  const mergeOutput: OutputColumn[] = [...layout.slice(0, k), ...mergeAggs.map((m, i) => ({ name: `m${i}`, type: m.site.returns }))]
  const mergeNode: AggregateNode = { kind: 'aggregate', input, keys: node.keys.map((_, i) => col(i)), aggregates: mergeAggs, output: mergeOutput, timestampIndex: -1 }
  // final values in the original aggregates' shapes
  const exprs: BoundExpr[] = node.keys.map((e, i) => ({ kind: 'column', type: e.type, index: i }))
  j = k
  for (const a of node.aggregates) {
    const mcol = (x: number): BoundExpr => ({ kind: 'column', type: mergeOutput[x]!.type, index: x })
    if (a.def.name === 'avg') { exprs.push(divide(mcol(j), mcol(j + 1))); j += 2 }
    else { exprs.push(castTo(mcol(j), a.site.returns, -1, true)); j++ }
  }
  const project: PlanNode = { kind: 'project', input: mergeNode, exprs, output: node.output, timestampIndex: -1 }
  yield* runPlan(project, ctx)
}
