/**
 * Rows [from, to) of a partition's DOUBLE array column files (layout: array-codec.ts), read by
 * position: their header records, the offset of the first row's elements (and of the row after
 * the last), and those elements. A partition an out-of-order merge cut (`FilePart.cut`) is read
 * so: its first part reads the first rows of files that hold more, the merge reads the rest.
 */
import type { ColumnType } from '../../types/column-type.js'
import type { ArrVector } from '../../types/array-vector.js'
import { ARR_FILE_MAGIC, arrRecordBytes, decodeArrFile, decodeArrRows, elementsAt, headerRecordBytes, isArrFile2 } from './array-codec.js'
import { io } from './io.js'

const TWO32 = 4294967296

/**
 * Rows [from, to) of the array column whose files are `<base>.d` and `<base>.o` (which may hold
 * more rows than `to`). Throws RangeError when the files are shorter or disagree with each other,
 * and the file system's error when one cannot be read.
 */
export function readArrayRows(base: string, type: ColumnType, from: number, to: number): ArrVector {
  const head = Buffer.alloc(ARR_FILE_MAGIC.length)
  const hfd = io.openSync(`${base}.d`, 'r')
  try { io.readSync(hfd, head, 0) } finally { io.closeSync(hfd) }
  if (isArrFile2(head)) return readArrayRows2(base, type, from, to)
  const oSize = io.statSize(`${base}.o`)
  const dSize = io.statSize(`${base}.d`)
  const fileRows = oSize / 8
  if (!Number.isInteger(fileRows) || fileRows < to) throw new RangeError(`offsets file has ${oSize} bytes, expected at least ${to * 8}`)
  const n = to - from
  const first = elementsAt(fileRows, type)
  const o = Buffer.alloc(16)
  const fd = io.openSync(`${base}.o`, 'r')
  let start: number
  let end: number
  try {
    const offsetAt = (r: number): number => {
      if (io.readSync(fd, o.subarray(0, 8), r * 8) !== 8) throw new RangeError('offsets file is shorter than its rows')
      return o.readUInt32LE(0) + o.readInt32LE(4) * TWO32
    }
    start = n === 0 ? first : offsetAt(from)
    end = n === 0 ? first : to < fileRows ? offsetAt(to) : dSize
  } finally {
    io.closeSync(fd)
  }
  if (start < first || end < start || end > dSize || (end - start) % 8 !== 0) throw new RangeError('array offsets out of order')
  const header = Buffer.alloc(headerRecordBytes(n, type))
  const elements = Buffer.alloc(end - start)
  const dfd = io.openSync(`${base}.d`, 'r')
  try {
    if (io.readSync(dfd, header, headerRecordBytes(from, type)) !== header.length || io.readSync(dfd, elements, start) !== elements.length) {
      throw new RangeError('array data is shorter than its rows')
    }
  } finally {
    io.closeSync(dfd)
  }
  return decodeArrRows(type, header, elements, n)
}

/** {@link readArrayRows} of files in layout 2 (array-codec.ts): from row `from`'s record to the end of row `to - 1`'s elements. */
function readArrayRows2(base: string, type: ColumnType, from: number, to: number): ArrVector {
  const n = to - from
  if (n === 0) return decodeArrFile(type, new Uint8Array(0), 0).vector
  const o = Buffer.alloc(8)
  const rec = Buffer.alloc(arrRecordBytes(type))
  let start: number
  let last: number
  const fd = io.openSync(`${base}.o`, 'r')
  try {
    const offsetAt = (r: number): number => {
      if (io.readSync(fd, o, r * 8) !== 8) throw new RangeError('offsets file is shorter than its rows')
      return o.readUInt32LE(0) + o.readInt32LE(4) * TWO32
    }
    start = offsetAt(from)
    last = offsetAt(to - 1)
  } finally {
    io.closeSync(fd)
  }
  if (start < ARR_FILE_MAGIC.length || last < start) throw new RangeError('array offsets out of order')
  const dfd = io.openSync(`${base}.d`, 'r')
  try {
    if (io.readSync(dfd, rec, last) !== rec.length) throw new RangeError('array data is shorter than its rows')
    const end = last + rec.length + Math.max(0, rec.readInt32LE(0)) * 8
    const bytes = Buffer.alloc(end - start)
    if (io.readSync(dfd, bytes, start) !== bytes.length) throw new RangeError('array data is shorter than its rows')
    const { vector, end: at } = decodeArrFile(type, bytes, n)
    if (at !== bytes.length) throw new RangeError('array offsets disagree with the rows\' records')
    return vector
  } finally {
    io.closeSync(dfd)
  }
}
