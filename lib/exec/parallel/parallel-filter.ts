/**
 * The parallel filter the physical planner chose ({@link ParallelFilterNode}): the scan's rows
 * (inside its timestamp intervals) go by windows of {@link FILTER_WINDOW} rows per thread; in each
 * window every thread evaluates the predicate over its contiguous piece and answers the rows it
 * keeps with their fixed-width columns gathered (text columns are read here); this thread streams
 * them in row order, so a consumer that stops early (LIMIT) stops the scan at the next window. Without a worker pool at
 * run time it runs the logical filter on this thread.
 */
import { type Batch, type SymbolTable, type Vector, BATCH_SIZE, gather, vectorOf } from '../../types/vector.js'
import { physicalOf } from '../../types/column-type.js'
import type { ParallelFilterNode, ScanNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import type { Runner } from '../operators/runner.js'
import { scanSnapshot } from '../operators/basic.js'
import type { PartReader } from '../../storage/table-parts.js'
import { workerPool } from './pool.js'
import { runSelect } from './partial.js'
import { cut, partRanges } from './ranges.js'
import { PARALLEL_STATS, cancelFlag, sharedColumns, taskContext } from './shares.js'
import { WireEncoder, type WireSelected } from './wire.js'

/** Rows each thread filters per window, `rows` (a round trip to the workers per window; a LIMIT waits for one window at most). */
export const FILTER_WINDOW = { rows: 1 << 19 }

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
  const keep = logical.projection ?? scan.columns.map((_, i) => i)
  // the shares gather the kept rows of the fixed-width output columns; text, binary and arrays are read here
  const fixed = [...new Set(keep)].filter((c) => { const p = physicalOf(scan.output[c]!.type); return p !== 'str' && p !== 'bin' && p !== 'arr' && p !== 'null' })
  const base = { keys: [], aggregates: [], functions: enc.functions, filter, select: true, gather: fixed, ...taskContext(ctx), cancel: flag.cancel }
  const threads = pool.size + 1
  try {
    for (const part of snap.parts) {
      const ranges = partRanges(scan, part, snap.meta.timestampIndex)
      if (ranges.length === 0) continue
      const task = { ...base, columns: sharedColumns(scan, part) }
      const reader = part.open(scan.columns)
      for (let r = 0; r < ranges.length; r += 2) {
        const to = ranges[r + 1]!
        for (let w = ranges[r]!; w < to; w += FILTER_WINDOW.rows * threads) {
          const [first, ...rest] = cut(w, Math.min(w + FILTER_WINDOW.rows * threads, to), threads)
          const jobs = rest.map(([start, end]) => pool.run<WireSelected>({ ...task, start, end }))
          for (const j of jobs) j.catch(() => undefined)
          const kept = [await runSelect({ ...task, start: first![0], end: first![1] }, ctx), ...(await Promise.all(jobs))]
          for (const selected of kept) yield* keptRows(reader, scan, keep, fixed, selected, ctx)
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

/** The columns `keep` of the rows a share kept, in batches: its gathered columns as they are, the others read here. */
async function* keptRows(reader: PartReader, scan: ScanNode, keep: readonly number[], fixed: readonly number[], selected: WireSelected, ctx: ExecContext): AsyncGenerator<Batch> {
  const { rows } = selected
  for (let from = 0; from < rows.length; from += BATCH_SIZE) {
    const to = Math.min(rows.length, from + BATCH_SIZE)
    const n = to - from
    const lo = rows[from]!
    const hi = rows[to - 1]! + 1
    let sel: Int32Array | undefined
    const vectors: Vector[] = keep.map((c) => {
      const j = fixed.indexOf(c)
      const type = scan.output[c]!.type
      if (j >= 0) return vectorOf(type, (selected.columns[j] as Float64Array).subarray(from, to), n, type === 'SYMBOL' ? (reader.view(c, 0, 0) as { dict?: SymbolTable }).dict : undefined)
      const v = reader.view(c, lo, hi)
      if (hi - lo === n) return v
      if (sel === undefined) { sel = rows.slice(from, to); for (let i = 0; i < n; i++) sel[i] = sel[i]! - lo }
      return gather(v, sel, n)
    })
    yield { length: n, vectors }
    await ctx.maybeYield()
  }
}
