/**
 * Row pieces handed out on demand: a part's row ranges are cut into a few pieces per thread,
 * and the statement's thread and the workers each take the next piece from one shared counter
 * until none is left. A thread the OS runs late (a loaded machine, a worker still busy with
 * another statement) takes fewer pieces instead of holding up the statement with a fixed share;
 * when the statement's thread took every piece it does not wait for the workers at all.
 *
 * Each piece is aggregated into partial groups of its own (the pieces are contiguous slices in
 * row order, so a keyed SAMPLE BY merges them by their edge buckets only, merge.ts).
 */
import type { ExecContext } from '../context.js'
import type { AggregateNode, BoundAggregate, SampleByNode } from '../../plan/plan-node.js'
import { isDecimal } from '../../types/decimal.js'
import { type Partial, runPartial, runStreamed } from './partial.js'
import type { WireTask } from './wire.js'

/**
 * Pieces per thread a keyed SAMPLE BY's part is cut into: more balance a thread the OS runs late
 * better, but each costs a partial to merge by its edge buckets, and two threads that overlap
 * longer slow each other on this 2-core machine (TSBS double-groupby-all at 1,000 hosts, one
 * process alternating: 1, 2 and 4 a thread took 93.8, 95.5 and 99.3 ms best wall at load ~6).
 * (see {@link piecesPerThread} for the other shares)
 */
export const PIECES_PER_THREAD = 2

/**
 * Pieces per thread of a streamed share ({@link streamedShare}) and of an unkeyed GROUP BY. A
 * streamed thread folds every piece it takes into one partial, and an unkeyed one's partials are
 * one group each, so a piece costs only its setup (~tens of µs), while a thread the OS deschedules
 * in the middle of a piece holds the statement up by at most one piece: with one piece a thread,
 * a ~12 ms `sum(v)` over 10M rows waited for the whole other half whenever its worker ran late.
 */
export const STREAM_PIECES_PER_THREAD = 8

/**
 * Aggregates whose merged result does not depend on which rows each partial saw nor on the order
 * of the merges (exact arithmetic): `count`, `min`, `max`, `sum` / `avg` with a DECIMAL result,
 * and `sum` of INT / LONG (an exact 64-bit sum, long-sum.ts, wrapping as Java's long does).
 * (A double sum rounds by its order of additions; `first` / `last` need row order.)
 */
function orderFree(a: BoundAggregate): boolean {
  const name = a.def.name
  return name === 'count' || name === 'min' || name === 'max' || ((name === 'sum' || name === 'avg') && isDecimal(a.site.returns)) ||
    (name === 'sum' && a.site.returns === 'LONG')
}

/**
 * Whether a share runs streamed: a GROUP BY (not a SAMPLE BY) whose aggregates are all order-free,
 * so each thread can fold any pieces it takes, in any order, into one partial. The merge then
 * costs one partial a thread however many pieces there are, and the pieces can be small.
 */
export function streamedShare(share: AggregateNode | SampleByNode): boolean {
  return share.kind !== 'sample_by' && share.aggregates.every(orderFree)
}

/**
 * Pieces per thread for a share: {@link STREAM_PIECES_PER_THREAD} for a streamed share and an
 * unkeyed GROUP BY, {@link PIECES_PER_THREAD} for a keyed SAMPLE BY, one for the others (a keyed
 * GROUP BY with an order-sensitive aggregate keeps a partial per piece, each able to hold every
 * group, and merging one costs as much as keying its groups again).
 */
export function piecesPerThread(share: AggregateNode | SampleByNode): number {
  if (share.kind === 'sample_by') return share.keys.length > 1 ? PIECES_PER_THREAD : 1
  return share.keys.length === 0 || streamedShare(share) ? STREAM_PIECES_PER_THREAD : 1
}

/** No piece is cut smaller than this many rows (unless its range is). */
export const MIN_PIECE_ROWS = 16_384

/** Counters for tests and diagnostics: pieces taken by the statement's thread and by workers. */
export const PIECE_STATS = { mine: 0, workers: 0 }

/**
 * The [start, end) pairs of the pieces `ranges` (part-local [from, to) pairs) are cut into for
 * `threads` threads: about `perThread` per thread, none under {@link MIN_PIECE_ROWS} rows
 * unless its range is shorter.
 */
export function pieceBounds(ranges: readonly number[], threads: number, perThread: number): Int32Array {
  let rows = 0
  for (let r = 0; r < ranges.length; r += 2) rows += ranges[r + 1]! - ranges[r]!
  const size = Math.max(MIN_PIECE_ROWS, Math.ceil(rows / (threads * perThread)))
  const out: number[] = []
  for (let r = 0; r < ranges.length; r += 2) {
    const from = ranges[r]!, to = ranges[r + 1]!
    const n = Math.max(1, Math.round((to - from) / size))
    const per = Math.ceil((to - from) / n)
    for (let s = from; s < to; s += per) out.push(s, Math.min(s + per, to))
  }
  return Int32Array.from(out)
}

/** A fresh shared counter for the pieces of one part. */
export function pieceCounter(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4))
}

/**
 * Takes pieces of `task.pieces` until none is left, aggregating each into its own partial
 * groups (a streamed task: all into one); `ctx` is the statement's context on its own thread
 * (undefined on a worker).
 */
export async function takePieces(task: WireTask, ctx?: ExecContext): Promise<{ ordinals: number[]; partials: Partial[] }> {
  const pieces = task.pieces!
  const count = pieces.bounds.length / 2
  if (pieces.stream === true) {
    const take = (): number => { const i = Atomics.add(pieces.next, 0, 1); return i < count ? i : -1 }
    const { ordinals, partial } = await runStreamed(task, take, ctx)
    return { ordinals, partials: partial === undefined ? [] : [partial] }
  }
  const ordinals: number[] = []
  const partials: Partial[] = []
  for (;;) {
    const i = Atomics.add(pieces.next, 0, 1)
    if (i >= count) break
    ordinals.push(i)
    partials.push(await runPartial({ ...task, start: pieces.bounds[2 * i]!, end: pieces.bounds[2 * i + 1]! }, ctx))
  }
  return { ordinals, partials }
}

