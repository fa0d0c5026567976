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
  const head = headerBytes(n, arrayDims(type))
  if (data.length < head) throw new RangeError('array data is truncated')
  return decodeArrRows(type, data.subarray(0, headerRecordBytes(n, type)), data.subarray(head), n)
}

/** Bytes of the header records of `n` rows of array `type` (without the padding after them). */
export function headerRecordBytes(n: number, type: ColumnType): number {
  return n * 4 * (1 + arrayDims(type))
}

/** Byte position of the elements in a data part of `rows` rows of array `type` (its header's size, padded). */
export function elementsAt(rows: number, type: ColumnType): number {
  return headerBytes(rows, arrayDims(type))
}

/**
 * Decodes `n` rows of array `type` from their header records (`header`: {@link headerRecordBytes}
 * long) and their elements, back to back (`elements`: exactly theirs), as cut out of a data part
 * holding more rows (a part of a partition, see `FilePart.cut`); throws RangeError on a mismatch.
 */
export function decodeArrRows(type: ColumnType, header: Uint8Array, elements: Uint8Array, n: number): ArrVector {
  const d = arrayDims(type)
  const hb = new Uint8Array(n * 4 * (1 + d))
  if (header.length < hb.length) throw new RangeError('array data is truncated')
  hb.set(header.subarray(0, hb.length))
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
  if (elements.length !== at * 8) throw new RangeError(`array elements have ${elements.length} bytes, expected ${at * 8}`)
  const buf = sharedBuffer(at * 8)
  new Uint8Array(buf).set(elements)
  return { kind: 'arr', type, length: n, dims: d, data: new Float64Array(buf), offsets, shapes }
}

/**
 * Partition column files of DOUBLE array columns, layout 2 (written since 2026-11-25; layout 1,
 * above, is still read): the `.d` file starts with {@link ARR_FILE_MAGIC} (8 bytes), then each
 * row as a record — int32 element count (-1 = null array), the row's `dims` int32 extents, padded
 * to 8 bytes — followed at once by its float64 elements; the `.o` file holds one int64 per row,
 * the byte position of the row's record in `.d`. Every row's bytes come after the rows before it,
 * so rows are appended to both files where they end, as to a VARCHAR column's (layout 1 starts
 * with every row's header: a new row moved every element, so a partition with an array column was
 * rewritten whole at each checkpoint). A layout 1 file never starts with the magic: its first int32
 * is a count, -1 or more.
 */
export const ARR_FILE_MAGIC = Uint8Array.from([0x32, 0x52, 0x52, 0xc1, 2, 0, 0, 0])

/** True when a `.d` file starting with `head` (its first 8 bytes or more) is in array layout 2. */
export function isArrFile2(head: Uint8Array): boolean {
  if (head.length < 8) return false
  for (let i = 0; i < 8; i++) if (head[i] !== ARR_FILE_MAGIC[i]) return false
  return true
}

/** Bytes of one row's record (count and extents, padded to 8) in array layout 2. */
export function arrRecordBytes(type: ColumnType): number {
  return (4 * (1 + arrayDims(type)) + 7) & ~7
}

/**
 * Encodes an array vector as layout 2 rows (no magic: the caller writes it first in a new file),
 * the first row's record at byte `at` of its file: [data, offsets], the offsets absolute.
 */
export function encodeArrFile(v0: ArrVector, at: number): [Uint8Array, Uint8Array] {
  const v = arrMaterialize(v0)
  const n = v.length
  const d = v.dims
  const rec = arrRecordBytes(v.type)
  const first = v.offsets[0]!
  const out = Buffer.alloc(n * rec + (v.offsets[n]! - first) * 8)
  const offs = new Int32Array(2 * n)
  const src = new Uint8Array(v.data.buffer, v.data.byteOffset, v.data.byteLength)
  let p = 0
  for (let i = 0; i < n; i++) {
    const x = at + p
    const hi = Math.floor(x / 4294967296)
    offs[2 * i] = (x - hi * 4294967296) | 0
    offs[2 * i + 1] = hi
    const nul = v.shapes[i * d]! < 0
    const count = nul ? 0 : v.offsets[i + 1]! - v.offsets[i]!
    out.writeInt32LE(nul ? -1 : count, p)
    for (let k = 0; k < d; k++) out.writeInt32LE(nul ? 0 : v.shapes[i * d + k]!, p + 4 + 4 * k)
    p += rec
    if (count > 0) { out.set(src.subarray(v.offsets[i]! * 8, v.offsets[i + 1]! * 8), p); p += count * 8 }
  }
  return [out, new Uint8Array(offs.buffer)]
}

/**
 * Decodes `n` rows of array `type` in layout 2 from `bytes`, which start at a row's record (bytes
 * after the `n`th row are ignored: rows a crash left past the recorded ones, or another part's);
 * also returns where the rows end in `bytes`. Throws RangeError on a malformed record or short data.
 */
export function decodeArrFile(type: ColumnType, bytes: Uint8Array, n: number): { vector: ArrVector; end: number } {
  const d = arrayDims(type)
  const rec = arrRecordBytes(type)
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
  const offsets = new Int32Array(n + 1)
  const shapes = new Int32Array(n * d)
  const starts = new Float64Array(n)
  let p = 0
  let at = 0
  for (let i = 0; i < n; i++) {
    if (p + rec > b.length) throw new RangeError('array data is shorter than its rows')
    const count = b.readInt32LE(p)
    if (count < -1) throw new RangeError('array element count is negative')
    starts[i] = p + rec
    if (count < 0) { shapes[i * d] = -1; offsets[i + 1] = at; p += rec; continue }
    let size = 1
    for (let k = 0; k < d; k++) { const e = b.readInt32LE(p + 4 + 4 * k); if (e < 0) throw new RangeError('array shape is negative'); shapes[i * d + k] = e; size *= e }
    if (size !== count) throw new RangeError('array shape does not match its element count')
    p += rec + count * 8
    if (p > b.length) throw new RangeError('array data is shorter than its rows')
    at += count
    offsets[i + 1] = at
  }
  const buf = sharedBuffer(at * 8)
  const out = new Uint8Array(buf)
  for (let i = 0; i < n; i++) {
    const len = (offsets[i + 1]! - offsets[i]!) * 8
    if (len > 0) out.set(bytes.subarray(starts[i]!, starts[i]! + len), offsets[i]! * 8)
  }
  return { vector: { kind: 'arr', type, length: n, dims: d, data: new Float64Array(buf), offsets, shapes }, end: p }
}
