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
import type { AggregateNode, SampleByNode } from '../../plan/plan-node.js'
import { type Partial, runPartial } from './partial.js'
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
 * Pieces per thread an unkeyed GROUP BY's part is cut into. Its partials are one group each, so a
 * piece costs only its setup (~tens of µs) and a merge of one row, while a thread the OS deschedules
 * in the middle of a piece holds the statement up by at most one piece: with one piece a thread a
 * ~12 ms `sum(v)` over 10M rows waited for the whole other half whenever its worker was run late.
 */
export const UNKEYED_PIECES_PER_THREAD = 8

/**
 * Pieces per thread for a share: {@link PIECES_PER_THREAD} for a keyed SAMPLE BY,
 * {@link UNKEYED_PIECES_PER_THREAD} for a GROUP BY without keys, one for the others (a keyed
 * GROUP BY's partials can each hold every group, and merging one costs as much as keying its
 * groups again).
 */
export function piecesPerThread(share: AggregateNode | SampleByNode): number {
  if (share.kind === 'sample_by') return share.keys.length > 1 ? PIECES_PER_THREAD : 1
  return share.keys.length === 0 ? UNKEYED_PIECES_PER_THREAD : 1
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
 * groups; `ctx` is the statement's context on its own thread (undefined on a worker).
 */
export async function takePieces(task: WireTask, ctx?: ExecContext): Promise<{ ordinals: number[]; partials: Partial[] }> {
  const pieces = task.pieces!
  const count = pieces.bounds.length / 2
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

