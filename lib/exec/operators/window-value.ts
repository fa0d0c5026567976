/**
 * Ranking and value window functions. Ranking functions (row_number, rank, dense_rank,
 * percent_rank, cume_dist, ntile) read only partition and peer boundaries. Value functions
 * (lag, lead, first_value, last_value, nth_value) pick a source row per row: `picks[i]` is the
 * input row whose value row i gets, {@link NULL_PICK} for null, or {@link DEFAULT_PICK} for
 * lag/lead's default; {@link gatherPicks} then copies values of any type in one pass.
 */
import { type Vector, VectorWriter, allocate, getScalar, isNullAt, materialize } from '../../types/vector.js'
import type { WindowFn } from '../../plan/nodes/window.js'
import type { WindowOrder } from './window-sort.js'
import type { FrameBounds } from './window-frame.js'
import { STEP_MASK, type Steps, runNow } from '../steps.js'

/** A pick meaning "null". */
export const NULL_PICK = -1
/** A pick meaning "lag/lead's default value of this row". */
export const DEFAULT_PICK = -2

/** row_number, rank, dense_rank, percent_rank, cume_dist or ntile(n), by input row. */
export function ranking(o: WindowOrder, fn: RankingFn, buckets: number): Float64Array {
  return runNow(rankingSteps(o, fn, buckets))
}

/** The ranking functions. */
export type RankingFn = Extract<WindowFn, 'row_number' | 'rank' | 'dense_rank' | 'percent_rank' | 'cume_dist' | 'ntile'>

/** {@link ranking} in steps of {@link STEP_MASK} + 1 positions (see exec/steps.ts). */
export function* rankingSteps(o: WindowOrder, fn: RankingFn, buckets: number): Steps<Float64Array> {
  const { rows, partStart, partEnd, peerStart, peerEnd } = o
  const n = rows.length
  const out = new Float64Array(n)
  let dense = 0
  for (let p = 0; p < n; p++) {
    if ((p & STEP_MASK) === STEP_MASK) yield
    const s = partStart[p]!
    const size = partEnd[p]! - s
    if (p === s) dense = 0
    if (p === peerStart[p]) dense++
    let v: number
    switch (fn) {
      case 'row_number': v = p - s + 1; break
      case 'rank': v = peerStart[p]! - s + 1; break
      case 'dense_rank': v = dense; break
      case 'percent_rank': v = size <= 1 ? 0 : (peerStart[p]! - s) / (size - 1); break
      case 'cume_dist': v = (peerEnd[p]! - s) / size; break
      case 'ntile': {
        const i = p - s
        const base = Math.floor(size / buckets)
        const rem = size % buckets
        const big = rem * (base + 1)
        v = i < big ? Math.floor(i / (base + 1)) + 1 : rem + Math.floor((i - big) / base) + 1
        break
      }
    }
    out[rows[p]!] = v
  }
  return out
}

/** lag (`back`) or lead: the row `k` rows away in the partition, counting only non-null rows with `ignoreNulls`. */
export function offsetPicks(o: WindowOrder, k: number, back: boolean, nulls: Uint8Array | undefined): Int32Array {
  return runNow(offsetPicksSteps(o, k, back, nulls))
}

/** {@link offsetPicks} in steps of {@link STEP_MASK} + 1 positions. */
export function* offsetPicksSteps(o: WindowOrder, k: number, back: boolean, nulls: Uint8Array | undefined): Steps<Int32Array> {
  const { rows, partStart, partEnd } = o
  const n = rows.length
  const picks = new Int32Array(n)
  if (nulls === undefined || k === 0) {
    for (let p = 0; p < n; p++) {
      if ((p & STEP_MASK) === STEP_MASK) yield
      const q = back ? p - k : p + k
      picks[rows[p]!] = q >= partStart[p]! && q < partEnd[p]! ? rows[q]! : DEFAULT_PICK
    }
    return picks
  }
  const seen = new Int32Array(n)
  let c = 0
  for (let i = 0; i < n; i++) {
    if ((i & STEP_MASK) === STEP_MASK) yield
    const p = back ? i : n - 1 - i
    if (p === (back ? partStart[p]! : partEnd[p]! - 1)) c = 0
    picks[rows[p]!] = c >= k ? seen[c - k]! : DEFAULT_PICK
    if (nulls[rows[p]!] === 0) seen[c++] = rows[p]!
  }
  return picks
}

/** first_value, last_value or nth_value(n) of each frame; `nulls` given means IGNORE NULLS. */
export function framePicks(o: WindowOrder, f: FrameBounds, fn: 'first_value' | 'last_value' | 'nth_value', nth: number, nulls: Uint8Array | undefined): Int32Array {
  return runNow(framePicksSteps(o, f, fn, nth, nulls))
}

/** {@link framePicks} in steps of {@link STEP_MASK} + 1 positions. */
export function* framePicksSteps(o: WindowOrder, f: FrameBounds, fn: 'first_value' | 'last_value' | 'nth_value', nth: number, nulls: Uint8Array | undefined): Steps<Int32Array> {
  const { rows, partStart, partEnd } = o
  const n = rows.length
  const picks = new Int32Array(n).fill(NULL_PICK)
  let near: Int32Array | undefined
  if (nulls !== undefined) {
    near = new Int32Array(n)
    if (fn === 'first_value') {
      for (let p = n - 1; p >= 0; p--) {
        if ((p & STEP_MASK) === 0) yield
        near[p] = nulls[rows[p]!] === 0 ? p : p + 1 < partEnd[p]! ? near[p + 1]! : partEnd[p]!
      }
    } else {
      for (let p = 0; p < n; p++) {
        if ((p & STEP_MASK) === STEP_MASK) yield
        near[p] = nulls[rows[p]!] === 0 ? p : p > partStart[p]! ? near[p - 1]! : -1
      }
    }
  }
  for (let p = 0; p < n; p++) {
    if ((p & STEP_MASK) === STEP_MASK) yield
    const fs = f.start[p]!
    const fe = f.end[p]!
    if (fe <= fs) continue
    let q: number
    if (fn === 'nth_value') q = fs + nth - 1
    else if (fn === 'first_value') q = near === undefined ? fs : near[fs]!
    else { q = near === undefined ? fe - 1 : near[fe - 1]!; if (q < fs) continue }
    if (q < fe) picks[rows[p]!] = rows[q]!
  }
  return picks
}

/** A vector of `v`'s type whose row i is v[picks[i]], null, or def[i] (see {@link NULL_PICK}). */
export function gatherPicks(v0: Vector, picks: Int32Array, def: Vector | undefined): Vector {
  const v = materialize(v0)
  const n = picks.length
  const d = def === undefined ? undefined : materialize(def)
  const fast = v.kind === 'sym' ? d === undefined : v.kind !== 'str' && v.kind !== 'bin' && v.kind !== 'null' &&
    !(v.data instanceof BigInt64Array) && (d === undefined || (d.kind === v.kind && !(d.data instanceof BigInt64Array)))
  if (fast) {
    const out = allocate(v.type, n, v.kind === 'sym' ? v.dict : undefined)
    const od = out.data as Float64Array
    const src = v.data as Float64Array
    const dd = d?.data as Float64Array | undefined
    for (let i = 0; i < n; i++) {
      const j = picks[i]!
      if (j >= 0) od[i] = src[j]!
      else if (j === DEFAULT_PICK && dd !== undefined) od[i] = dd[i]!
    }
    return out
  }
  // a default symbol may not be in the column's dictionary: build a dictionary of our own
  const w = new VectorWriter(v.type, n)
  for (let i = 0; i < n; i++) {
    const j = picks[i]!
    if (j >= 0) w.set(i, getScalar(v, j))
    else if (j === DEFAULT_PICK && d !== undefined && !isNullAt(d, i)) w.set(i, getScalar(d, i))
  }
  return w.finish()
}
