/**
 * The parallel GROUP BY / SAMPLE BY operator the physical planner chose
 * ({@link ParallelAggregateNode}): shares aggregate row ranges into partial groups on the worker
 * threads and this one (shares.ts), the final step merges them with the kernels' `merge`
 * (merge.ts). Without a worker pool at run time (parallelism switched off after planning) it
 * runs the logical aggregation on this thread.
 */
import type { Batch } from '../../types/vector.js'
import type { ParallelAggregateNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import type { Runner } from '../operators/runner.js'
import { workerPool } from './pool.js'
import { runShares } from './shares.js'
import { mergePartials } from './merge.js'

export { PARALLEL_STATS } from './shares.js'

/** Runs a parallel aggregation node. */
export async function* runParallelAggregate(node: ParallelAggregateNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const pool = workerPool()
  if (pool === undefined) { yield* run(node.logical, ctx); return }
  const partials = await runShares(node, pool, ctx)
  const out = mergePartials(node, partials)
  if (out !== undefined) yield out
}
