/**
 * Sets of inclusive timestamp intervals for the planner's interval extraction and partition
 * pruning. A set is a `Float64Array` of pairs `[lo0, hi0, lo1, hi1, ...]` in microseconds,
 * sorted and non-overlapping (adjacent intervals merged). `-Infinity` / `Infinity` stand for
 * unbounded ends.
 *
 * Browser-safe: imports nothing from `node:*`.
 */

/** A sorted, merged list of inclusive [lo, hi] pairs. */
export type IntervalSet = Float64Array

/** Every instant: [-Infinity, Infinity]. */
export const ALL_TIME: IntervalSet = Float64Array.of(-Infinity, Infinity)

/** Sorts pairs by lo and merges overlapping or adjacent ones; drops empty pairs (lo > hi). */
export function normalizeIntervals(pairs: ArrayLike<number>): IntervalSet {
  const n = pairs.length >> 1
  const idx: number[] = []
  for (let i = 0; i < n; i++) if (pairs[2 * i]! <= pairs[2 * i + 1]!) idx.push(i)
  idx.sort((a, b) => pairs[2 * a]! - pairs[2 * b]!)
  const out: number[] = []
  for (const i of idx) {
    const lo = pairs[2 * i]!
    const hi = pairs[2 * i + 1]!
    const last = out.length - 1
    if (last > 0 && lo <= out[last]! + 1) {
      if (hi > out[last]!) out[last] = hi
    } else out.push(lo, hi)
  }
  return Float64Array.from(out)
}

/** The union of two interval sets. */
export function unionIntervals(a: IntervalSet, b: IntervalSet): IntervalSet {
  const all = new Float64Array(a.length + b.length)
  all.set(a)
  all.set(b, a.length)
  return normalizeIntervals(all)
}

/** The intersection of two interval sets (a linear merge). */
export function intersectIntervals(a: IntervalSet, b: IntervalSet): IntervalSet {
  const out: number[] = []
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i]!, b[j]!)
    const hi = Math.min(a[i + 1]!, b[j + 1]!)
    if (lo <= hi) out.push(lo, hi)
    if (a[i + 1]! < b[j + 1]!) i += 2
    else j += 2
  }
  return Float64Array.from(out)
}

/** The complement of an interval set (over all time, with ±Infinity as the open ends). */
export function invertIntervals(a: IntervalSet): IntervalSet {
  const out: number[] = []
  let from = -Infinity
  for (let i = 0; i < a.length; i += 2) {
    const lo = a[i]!
    if (lo > from) out.push(from, lo === -Infinity ? lo : lo - 1)
    from = a[i + 1]! === Infinity ? Infinity : a[i + 1]! + 1
  }
  if (from !== Infinity) out.push(from, Infinity)
  return normalizeIntervals(out)
}

/** True when `ts` lies in one of the intervals (binary search). */
export function intervalsContain(a: IntervalSet, ts: number): boolean {
  let lo = 0
  let hi = (a.length >> 1) - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (ts < a[2 * mid]!) hi = mid - 1
    else if (ts > a[2 * mid + 1]!) lo = mid + 1
    else return true
  }
  return false
}
