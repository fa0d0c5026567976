/**
 * DOUBLE array columns <-> bytes (partition column files and WAL records), columnar per
 * partition:
 *
 * - data part: a header of one record per row — int32 element count (-1 = null array) then the
 *   row's `dims` int32 extents — padded to 8 bytes, then every row's elements as little-endian
 *   float64, back to back (one contiguous block, read with one copy into a Float64Array);
 * - offsets part: one int64 per row, the byte position of the row's first element in the data part.
 *
 * The data part alone decodes (the WAL keeps only it); the offsets part is for random access.
 */
import type { ColumnType } from '../../types/column-type.js'
import { arrayDims } from '../../types/array-type.js'
import { type ArrVector, arrMaterialize } from '../../types/array-vector.js'
import { sharedBuffer } from '../shared-memory.js'

function headerBytes(rows: number, dims: number): number {
  const b = rows * 4 * (1 + dims)
  return (b + 7) & ~7
}

/** Encodes an array vector: [data, offsets]. */
export function encodeArr(v0: ArrVector): [Uint8Array, Uint8Array] {
  const v = arrMaterialize(v0)
  const n = v.length
  const d = v.dims
  const first = v.offsets[0]!
  const elements = v.offsets[n]! - first
  const head = headerBytes(n, d)
  const out = new Uint8Array(head + elements * 8)
  const h = new Int32Array(out.buffer, 0, n * (1 + d))
  const offs = new Int32Array(2 * n)
  for (let i = 0; i < n; i++) {
    const nul = v.shapes[i * d]! < 0
    h[i * (1 + d)] = nul ? -1 : v.offsets[i + 1]! - v.offsets[i]!
    for (let k = 0; k < d; k++) h[i * (1 + d) + 1 + k] = nul ? 0 : v.shapes[i * d + k]!
    offs[2 * i] = head + (v.offsets[i]! - first) * 8
  }
  new Float64Array(out.buffer, head, elements).set(v.data.subarray(first, first + elements))
  return [out, new Uint8Array(offs.buffer)]
}

/** Decodes `n` rows of array `type` from a data part; throws RangeError on a malformed part. */
export function decodeArr(type: ColumnType, data: Uint8Array, n: number): ArrVector {
  const d = arrayDims(type)
  const head = headerBytes(n, d)
  if (data.length < head) throw new RangeError('array data is truncated')
  const hb = new Uint8Array(n * 4 * (1 + d))
  hb.set(data.subarray(0, hb.length))
  const h = new Int32Array(hb.buffer)
  const offsets = new Int32Array(n + 1)
  const shapes = new Int32Array(n * d)
  let at = 0
  for (let i = 0; i < n; i++) {
    const count = h[i * (1 + d)]!
    if (count < 0) { shapes[i * d] = -1; offsets[i + 1] = at; continue }
    let size = 1
    for (let k = 0; k < d; k++) { const e = h[i * (1 + d) + 1 + k]!; if (e < 0) throw new RangeError('array shape is negative'); shapes[i * d + k] = e; size *= e }
    if (size !== count) throw new RangeError('array shape does not match its element count')
    at += count
    offsets[i + 1] = at
  }
  if (data.length !== head + at * 8) throw new RangeError(`array data has ${data.length} bytes, expected ${head + at * 8}`)
  const buf = sharedBuffer(at * 8)
  new Uint8Array(buf).set(data.subarray(head, head + at * 8))
  return { kind: 'arr', type, length: n, dims: d, data: new Float64Array(buf), offsets, shapes }
}
