/**
 * Batch kernels of the reducing array functions (`array_sum`, `array_avg`, `array_max`,
 * `array_min`, `array_count`): one loop over a whole batch's flat elements between its row
 * offsets, writing a typed array of one result per row. Each kernel is its own monomorphic loop
 * (no per-row callback, no per-row [from, to] tuple), which is what makes the per-row form of
 * `SELECT array_sum(a) FROM t` as cheap as the aggregate. Non-finite elements (NaN is the null
 * element, infinities included, as QuestDB does) are skipped; a null array (first extent < 0)
 * gives the null result.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { ArrVector } from '../../types/array-vector.js'

/**
 * A batch kernel: rows [0, n) of `v` (n = 1 for a constant) into `out`, leaving `out[i]`
 * untouched for a null array (the caller pre-fills the null value).
 */
export type ArrayBatchKernel<T extends Float64Array | Int32Array> = (v: ArrVector, n: number, out: T) => void

/** Sum of the finite elements per row (0 for an empty array). */
export function sumRows(v: ArrVector, n: number, out: Float64Array): void {
  const d = v.data
  const off = v.offsets
  const sh = v.shapes
  const dims = v.dims
  for (let i = 0; i < n; i++) {
    if (sh[i * dims]! < 0) continue
    let s = 0
    const to = off[i + 1]!
    for (let k = off[i]!; k < to; k++) { const x = d[k]!; if (x - x === 0) s += x }
    out[i] = s
  }
}

/** Average of the finite elements per row (null when there is none). */
export function avgRows(v: ArrVector, n: number, out: Float64Array): void {
  const d = v.data
  const off = v.offsets
  const sh = v.shapes
  const dims = v.dims
  for (let i = 0; i < n; i++) {
    if (sh[i * dims]! < 0) continue
    let s = 0
    let c = 0
    const to = off[i + 1]!
    for (let k = off[i]!; k < to; k++) { const x = d[k]!; if (x - x === 0) { s += x; c++ } }
    out[i] = c === 0 ? NaN : s / c
  }
}

/** Largest finite element per row (null when there is none). */
export function maxRows(v: ArrVector, n: number, out: Float64Array): void {
  const d = v.data
  const off = v.offsets
  const sh = v.shapes
  const dims = v.dims
  for (let i = 0; i < n; i++) {
    if (sh[i * dims]! < 0) continue
    let r = -Infinity
    let any = false
    const to = off[i + 1]!
    for (let k = off[i]!; k < to; k++) { const x = d[k]!; if (x - x === 0) { any = true; if (x > r) r = x } }
    out[i] = any ? r : NaN
  }
}

/** Smallest finite element per row (null when there is none). */
export function minRows(v: ArrVector, n: number, out: Float64Array): void {
  const d = v.data
  const off = v.offsets
  const sh = v.shapes
  const dims = v.dims
  for (let i = 0; i < n; i++) {
    if (sh[i * dims]! < 0) continue
    let r = Infinity
    let any = false
    const to = off[i + 1]!
    for (let k = off[i]!; k < to; k++) { const x = d[k]!; if (x - x === 0) { any = true; if (x < r) r = x } }
    out[i] = any ? r : NaN
  }
}

/** Number of finite elements per row. */
export function countRows(v: ArrVector, n: number, out: Int32Array): void {
  const d = v.data
  const off = v.offsets
  const sh = v.shapes
  const dims = v.dims
  for (let i = 0; i < n; i++) {
    if (sh[i * dims]! < 0) continue
    let c = 0
    const to = off[i + 1]!
    for (let k = off[i]!; k < to; k++) { const x = d[k]!; if (x - x === 0) c++ }
    out[i] = c
  }
}

/**
 * One result per row of `v` through `kernel`: a constant array is reduced once and its result
 * repeated. `out` arrives filled with the null value.
 */
export function reduceBatch<T extends Float64Array | Int32Array>(v: ArrVector, length: number, out: T, kernel: ArrayBatchKernel<T>): T {
  if (!v.isConst) { kernel(v, length, out); return out }
  if (length > 0) { kernel(v, 1, out); out.fill(out[0]!) }
  return out
}
