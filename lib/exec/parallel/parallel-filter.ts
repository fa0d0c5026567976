/**
 * The parallel filter the physical planner chose ({@link ParallelFilterNode}): the scan's rows
 * (inside its timestamp intervals) go by windows of {@link WINDOW_ROWS} rows per thread; in each
 * window every thread evaluates the predicate over its contiguous piece and answers the row
 * numbers it keeps; this thread gathers those rows' columns and streams them in row order, so a
 * consumer that stops early (LIMIT) stops the scan at the next window. Without a worker pool at
 * run time it runs the logical filter on this thread.
 */
import { type Batch, type Vector, BATCH_SIZE, gather } from '../../types/vector.js'
import type { ParallelFilterNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import type { Runner } from '../operators/runner.js'
import { scanSnapshot } from '../operators/basic.js'
import type { PartReader } from '../../storage/table-parts.js'
import { workerPool } from './pool.js'
import { runSelect } from './partial.js'
import { cut, partRanges } from './ranges.js'
import { PARALLEL_STATS, cancelFlag, sharedColumns, taskContext } from './shares.js'
import { WireEncoder } from './wire.js'

/** Rows each thread filters per window. */
export const WINDOW_ROWS = 1 << 17

/** Runs a parallel filter node. */
export async function* runParallelFilter(node: ParallelFilterNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const pool = workerPool()
  if (pool === undefined) { yield* run(node.logical, ctx); return }
  PARALLEL_STATS.filters++
  const { scan, logical } = node
  const snap = scanSnapshot(scan)
  const enc = new WireEncoder()
  const filter = enc.expr(logical.predicate)
  const flag = cancelFlag(ctx)
  const base = { keys: [], aggregates: [], functions: enc.functions, filter, select: true, ...taskContext(ctx), cancel: flag.cancel }
  const keep = logical.projection ?? scan.columns.map((_, i) => i)
  const threads = pool.size + 1
  try {
    for (const part of snap.parts) {
      const ranges = partRanges(scan, part, snap.meta.timestampIndex)
      if (ranges.length === 0) continue
      const task = { ...base, columns: sharedColumns(scan, part) }
      const reader = part.open(scan.columns)
      for (let r = 0; r < ranges.length; r += 2) {
        const to = ranges[r + 1]!
        for (let w = ranges[r]!; w < to; w += WINDOW_ROWS * threads) {
          const [first, ...rest] = cut(w, Math.min(w + WINDOW_ROWS * threads, to), threads)
          const jobs = rest.map(([start, end]) => pool.run<Int32Array>({ ...task, start, end }))
          for (const j of jobs) j.catch(() => undefined)
          const kept = [await runSelect({ ...task, start: first![0], end: first![1] }, ctx), ...(await Promise.all(jobs))]
          for (const rows of kept) yield* gatherRows(reader, keep, rows, ctx)
        }
      }
    }
  } catch (e) {
    flag.set()
    throw e
  } finally {
    // also when the consumer stopped early: shares still running end at their next batch
    flag.set()
    flag.stop()
  }
}

/** The columns `keep` of part rows `rows` (ascending), in batches. */
async function* gatherRows(reader: PartReader, keep: readonly number[], rows: Int32Array, ctx: ExecContext): AsyncGenerator<Batch> {
  for (let from = 0; from < rows.length; from += BATCH_SIZE) {
    const sel = rows.slice(from, Math.min(rows.length, from + BATCH_SIZE))
    const n = sel.length
    const lo = sel[0]!
    const hi = sel[n - 1]! + 1
    for (let i = 0; i < n; i++) sel[i] = sel[i]! - lo
    const dense = hi - lo === n
    const vectors: Vector[] = keep.map((c) => { const v = reader.view(c, lo, hi); return dense ? v : gather(v, sel, n) })
    yield { length: n, vectors }
    await ctx.maybeYield()
  }
}
