/**
 * Row-group pruning: a row group whose designated-timestamp statistics do not meet any wanted
 * interval is skipped without reading a byte of it. A group without statistics is always read.
 */
import type { RowGroupInfo } from './reader.js'

/** True when `g`'s [tsMin, tsMax] meets one of the inclusive `[lo, hi]` pairs of `intervals`. */
export function overlaps(g: RowGroupInfo, intervals: Float64Array): boolean {
  if (g.tsMin === undefined || g.tsMax === undefined) return true
  for (let k = 0; k + 1 < intervals.length; k += 2) {
    if (intervals[k]! <= g.tsMax && intervals[k + 1]! >= g.tsMin) return true
  }
  return false
}
