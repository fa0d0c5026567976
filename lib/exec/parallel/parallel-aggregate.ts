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
import { timestamps } from '../operators/sample-by-clip.js'
import { countsFromStats } from '../operators/count-from-stats.js'

export { PARALLEL_STATS } from './shares.js'

/** Runs a parallel aggregation node. */
export async function* runParallelAggregate(node: ParallelAggregateNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const pool = workerPool()
  if (pool === undefined) { yield* run(node.logical, ctx); return }
  const share = node.share
  if (share.kind === 'aggregate' && node.filter === undefined) {
    const counted = await countsFromStats(share, node.scan, ctx)
    if (counted !== undefined) { yield counted; return }
  }
  let anchor: number | undefined
  if (share.kind === 'sample_by' && share.align.kind === 'first observation') {
    anchor = await firstTimestamp(run(share.input, ctx), share.timestampColumn)
    if (anchor === undefined) return // no row: no bucket
  }
  const partials = await runShares(node, pool, ctx, anchor)
  const out = mergePartials(node, partials)
  if (out !== undefined) yield out
}

/**
 * The timestamp of the first row of `rows` (the shares' input: the scan, filtered), read on this
 * thread before the shares start: a SAMPLE BY aligned to the first observation buckets every
 * share from it. Stops at the first row kept (a filter that keeps its first row late reads that
 * far twice).
 */
async function firstTimestamp(rows: AsyncGenerator<Batch>, column: number): Promise<number | undefined> {
  try {
    for await (const b of rows) if (b.length > 0) return timestamps(b.vectors[column]!)[0]!
    return undefined
  } finally {
    await rows.return(undefined)
  }
}
