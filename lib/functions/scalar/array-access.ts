/**
 * Kernels of the array constructor (`ARRAY[...]`) and of subscripts (`arr[i, lo:hi]`), over
 * {@link ArrVector}s: they read each row's elements between its offsets and write the results
 * into one flat buffer per batch (no JS object per row).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { ColumnType } from '../../types/column-type.js'
import type { Vector } from '../../types/vector.js'
import { type ArrVector, ArrBuilder } from '../../types/array-vector.js'
import { toF64 } from '../kernel-helpers.js'

/**
 * `ARRAY[x1, x2, ...]` of DOUBLE scalars: one 1-D array of `args.length` elements per row.
 */
export function buildFromScalars(type: ColumnType, args: readonly Vector[], length: number): ArrVector {
  const n = args.length
  const b = new ArrBuilder(type, length, length * n)
  const cols = args.map(toF64)
  const row = new Float64Array(n)
  const shape = [n]
  for (let i = 0; i < length; i++) {
    for (let k = 0; k < n; k++) { const c = cols[k]!; row[k] = c.data[i * c.s]! }
    b.pushRaw(shape, row, 0, n)
  }
  return b.finish()
}

/**
 * `ARRAY[a1, a2, ...]` of arrays of one dimension count: stacks them along a new first
 * dimension. Sub-arrays of different shapes fail with 22000 at the differing item's position;
 * a null sub-array makes the row null.
 */
export function buildFromArrays(type: ColumnType, args: readonly ArrVector[], length: number, positions: readonly number[]): ArrVector {
  const n = args.length
  const b = new ArrBuilder(type, length)
  const sub = args[0]!.dims
  const shape = new Array<number>(sub + 1)
  let buf = new Float64Array(64)
  for (let i = 0; i < length; i++) {
    let nul = false
    let total = 0
    const first = args[0]!
    const j0 = first.isConst ? 0 : i
    for (let k = 0; k < n && !nul; k++) {
      const a = args[k]!
      const j = a.isConst ? 0 : i
      if (a.shapes[j * sub]! < 0) { nul = true; break }
      for (let d = 0; d < sub; d++) {
        if (a.shapes[j * sub + d] !== first.shapes[j0 * sub + d]) {
          throw new SqlError(SqlState.DATATYPE_MISMATCH, 'sub-arrays don\'t match in shape', positions[k] ?? -1)
        }
      }
      total += a.offsets[j + 1]! - a.offsets[j]!
    }
    if (nul) { b.pushNull(); continue }
    if (buf.length < total) buf = new Float64Array(total * 2)
    let at = 0
    for (let k = 0; k < n; k++) {
      const a = args[k]!
      const j = a.isConst ? 0 : i
      buf.set(a.data.subarray(a.offsets[j]!, a.offsets[j + 1]!), at)
      at += a.offsets[j + 1]! - a.offsets[j]!
    }
    shape[0] = n
    for (let d = 0; d < sub; d++) shape[d + 1] = first.shapes[j0 * sub + d]!
    b.pushRaw(shape, buf, 0, total)
  }
  return b.finish()
}

/** One selector of a subscript: an index (`i`) or a range (`lo:hi`, `hi` absent when open). */
export type Selector = { readonly kind: 'index'; readonly pos: number } | { readonly kind: 'range'; readonly pos: number; readonly open: boolean }

/**
 * `base[s1, s2, ...]`: `sels` describe the selectors, `selArgs` hold their values (an index's
 * value; a range's lo then, unless open, hi). The result is DOUBLE when every dimension is
 * indexed (out of range → null), else an array of the kept dimensions (an index out of range
 * gives an empty array, a range past the end is clamped). An index or bound below 1 is 22003.
 */
export function subscript(outType: ColumnType, base: ArrVector, sels: readonly Selector[], selArgs: readonly Vector[], length: number): Vector {
  const dims = base.dims
  const cols = selArgs.map(toF64)
  const keptDims = dims - sels.filter((s) => s.kind === 'index').length
  const scalarOut = keptDims === 0
  const out = scalarOut ? new Float64Array(length) : undefined
  const b = scalarOut ? undefined : new ArrBuilder(outType, length)
  const start = new Int32Array(dims)
  const count = new Int32Array(dims)
  const keep = new Uint8Array(dims)
  const stride = new Int32Array(dims)
  const ctr = new Int32Array(dims)
  const outShape = new Array<number>(keptDims)
  let buf = new Float64Array(64)
  for (let i = 0; i < length; i++) {
    const j = base.isConst ? 0 : i
    if (base.shapes[j * dims]! < 0) { if (out) out[i] = NaN; else b!.pushNull(); continue }
    let s = 1
    for (let d = dims - 1; d >= 0; d--) { stride[d] = s; s *= base.shapes[j * dims + d]! }
    let empty = false
    let a = 0
    for (let d = 0; d < dims; d++) {
      const len = base.shapes[j * dims + d]!
      const sel = sels[d]
      if (sel === undefined) { start[d] = 0; count[d] = len; keep[d] = 1; continue }
      const lo = valueAt(cols, a++, i, sel.pos)
      if (sel.kind === 'index') {
        start[d] = lo - 1; count[d] = 1; keep[d] = 0
        if (lo > len) empty = true
      } else {
        const hi = sel.open ? len + 1 : Math.min(valueAt(cols, a++, i, sel.pos), len + 1)
        start[d] = lo - 1; count[d] = Math.max(0, hi - lo); keep[d] = 1
        if (count[d] === 0) empty = true
      }
    }
    if (empty) {
      if (out) out[i] = NaN
      else b!.pushRaw(outShape.fill(0), buf, 0, 0)
      continue
    }
    const src = base.data
    const off = base.offsets[j]!
    if (out) {
      let p = off
      for (let d = 0; d < dims; d++) p += start[d]! * stride[d]!
      out[i] = src[p]!
      continue
    }
    let total = 1
    let k = 0
    for (let d = 0; d < dims; d++) { total *= count[d]!; if (keep[d]) outShape[k++] = count[d]! }
    if (buf.length < total) buf = new Float64Array(total * 2)
    ctr.fill(0)
    for (let e = 0; e < total; e++) {
      let p = off
      for (let d = 0; d < dims; d++) p += (start[d]! + ctr[d]!) * stride[d]!
      buf[e] = src[p]!
      for (let d = dims - 1; d >= 0; d--) { if (++ctr[d]! < count[d]!) break; ctr[d] = 0 }
    }
    b!.pushRaw(outShape, buf, 0, total)
  }
  if (out) return { kind: 'f64', type: 'DOUBLE', length, data: out }
  return b!.finish()
}

function valueAt(cols: readonly { data: Float64Array; s: number }[], k: number, i: number, pos: number): number {
  const c = cols[k]!
  const x = c.data[i * c.s]!
  if (!Number.isFinite(x)) throw new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, 'array index is null', pos)
  if (x < 1) throw new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, `array index must be positive [index=${x}]`, pos)
  return Math.trunc(x)
}
