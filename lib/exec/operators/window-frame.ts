/**
 * Frame bounds per sorted position: the frame of the row at sorted position p is the sorted
 * positions [start[p], end[p]) (empty when end <= start). Both bounds never decrease within a
 * partition, which lets the aggregates slide a window over them with two pointers.
 *
 * ROWS frames count positions; RANGE frames compare the order key (the designated timestamp,
 * in microseconds) with two pointers, and `CURRENT ROW` reaches the row's peers.
 */
import type { BoundFrame } from '../../plan/nodes/window.js'
import type { WindowOrder } from './window-sort.js'
import { STEP_MASK, STEP_WORK, type Steps, runNow } from '../steps.js'

/** Start (inclusive) and end (exclusive) sorted positions of each row's frame. */
export interface FrameBounds {
  readonly start: Int32Array
  readonly end: Int32Array
}

/**
 * Computes the frame of every sorted position. `key` holds the order key by input row (only
 * read for RANGE frames with offsets) and `desc` its direction; `ordered` is false without ORDER
 * BY, where every row of a partition is a peer of every other.
 */
export function frameBounds(o: WindowOrder, frame: BoundFrame, ordered: boolean, key: Float64Array | undefined, desc: boolean): FrameBounds {
  return runNow(frameBoundsSteps(o, frame, ordered, key, desc))
}

/** {@link frameBounds} in steps of about {@link STEP_WORK} positions (see exec/steps.ts). */
export function* frameBoundsSteps(o: WindowOrder, frame: BoundFrame, ordered: boolean, key: Float64Array | undefined, desc: boolean): Steps<FrameBounds> {
  const n = o.rows.length
  const start = new Int32Array(n)
  const end = new Int32Array(n)
  const { lo, hi } = frame
  const { partStart, partEnd, peerStart, peerEnd } = o
  if (frame.units === 'rows') {
    for (let p = 0; p < n; p++) {
      if ((p & STEP_MASK) === STEP_MASK) yield
      const s = partStart[p]!
      const e = partEnd[p]!
      start[p] = lo === -Infinity ? s : Math.min(e, Math.max(s, p + lo))
      end[p] = hi === Infinity ? e : Math.min(e, Math.max(s, p + hi + 1))
    }
    return { start, end }
  }
  const offsets = (lo !== -Infinity && lo !== 0) || (hi !== Infinity && hi !== 0)
  if (!ordered || !offsets || key === undefined) {
    for (let p = 0; p < n; p++) {
      if ((p & STEP_MASK) === STEP_MASK) yield
      const all = !ordered
      start[p] = lo === -Infinity || all ? partStart[p]! : peerStart[p]!
      end[p] = hi === Infinity || all ? partEnd[p]! : hi < 0 ? peerStart[p]! : peerEnd[p]!
    }
    return { start, end }
  }
  const sign = desc ? -1 : 1
  const rows = o.rows
  let a = 0
  let b = 0
  // the pointers move at most n each: work counts positions and pointer moves
  let work = 0
  for (let p = 0; p < n; p++) {
    if (work >= STEP_WORK) { work = 0; yield }
    work += 1 - a - b
    const s = partStart[p]!
    const e = partEnd[p]!
    if (p === s) { a = s; b = s }
    const kp = key[rows[p]!]!
    if (lo === -Infinity) a = s
    else while (a < e && sign * (key[rows[a]!]! - kp) < lo) a++
    if (hi === Infinity) b = e
    else while (b < e && sign * (key[rows[b]!]! - kp) <= hi) b++
    start[p] = a
    end[p] = b
    work += a + b
  }
  return { start, end }
}
