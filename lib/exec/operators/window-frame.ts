/**
 * Frame bounds per sorted position: the frame of the row at sorted position p is the sorted
 * positions [start[p], end[p]) (empty when end <= start). Both bounds never decrease within a
 * partition, which lets the aggregates slide a window over them with two pointers.
 *
 * ROWS frames count positions; RANGE frames compare the order key (the designated timestamp,
 * in microseconds) with two pointers, and `CURRENT ROW` reaches the row's peers. A TIMESTAMP_NS
 * key comes as whole microseconds plus 0-999 nanosecond remainders, compared to the nanosecond
 * (the difference of two rows in nanoseconds is exact up to about 104 days apart).
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
 * BY, where every row of a partition is a peer of every other. `sub`, for a TIMESTAMP_NS key,
 * holds the nanoseconds past each `key` microsecond.
 */
export function frameBounds(o: WindowOrder, frame: BoundFrame, ordered: boolean, key: Float64Array | undefined, desc: boolean, sub?: Uint16Array): FrameBounds {
  return runNow(frameBoundsSteps(o, frame, ordered, key, desc, sub))
}

/** {@link frameBounds} in steps of about {@link STEP_WORK} positions (see exec/steps.ts). */
export function* frameBoundsSteps(o: WindowOrder, frame: BoundFrame, ordered: boolean, key: Float64Array | undefined, desc: boolean, sub?: Uint16Array): Steps<FrameBounds> {
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
  // offsets are microseconds, a nanosecond offset a fraction of one: a TIMESTAMP_NS key compares
  // in whole nanoseconds, a TIMESTAMP key in whole microseconds (the fraction truncated, as
  // QuestDB converts a nanosecond offset for a microsecond timestamp)
  const loK = lo === -Infinity ? lo : sub === undefined ? Math.trunc(lo) : Math.round(lo * 1000)
  const hiK = hi === Infinity ? hi : sub === undefined ? Math.trunc(hi) : Math.round(hi * 1000)
  const diff = sub === undefined
    ? (r: number, kp: number) => key[r]! - kp
    : (r: number, kp: number, sp: number) => (key[r]! - kp) * 1000 + (sub[r]! - sp)
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
    const sp = sub === undefined ? 0 : sub[rows[p]!]!
    if (lo === -Infinity) a = s
    else while (a < e && sign * diff(rows[a]!, kp, sp) < loK) a++
    if (hi === Infinity) b = e
    else while (b < e && sign * diff(rows[b]!, kp, sp) <= hiK) b++
    start[p] = a
    end[p] = b
    work += a + b
  }
  return { start, end }
}
