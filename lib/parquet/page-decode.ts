/**
 * A flat column's data page (v1 or v2) decoded without a JavaScript value per row: the
 * definition levels into a byte per row (or nothing when the page has no null, the usual case,
 * seen from a single RLE run), PLAIN values left as the page's bytes for the caller to copy into
 * its typed array, dictionary keys into an Int32Array. Used by flat-chunk.ts; anything it does not
 * know (other encodings, BIT_PACKED levels, repetition levels) answers undefined and the chunk
 * takes hyparquet's general path.
 */
import type { PageHeader } from 'hyparquet'
import { SqlError, SqlState } from '../errors.js'

/** One decoded page of a flat column. */
export interface FlatPage {
  /** rows (values and nulls) in the page */
  readonly rows: number
  /** 1 for a row with a value, 0 for a null; undefined when no row is null */
  readonly defined: Uint8Array | undefined
  /** non-null values in the page */
  readonly count: number
  /** PLAIN: the values' bytes (little-endian, `count` of them) */
  readonly plain: Uint8Array | undefined
  /** dictionary-encoded: the `count` keys */
  readonly keys: Int32Array | undefined
}

type Decompress = (bytes: Uint8Array, size: number) => Uint8Array

function bad(why: string): SqlError {
  return new SqlError(SqlState.DATA_CORRUPTED, why, -1)
}

/** Reads a ULEB128 at `pos`: [value, next position]. */
function uleb(b: Uint8Array, pos: number, end: number): [number, number] {
  let v = 0
  let shift = 0
  for (;;) {
    if (pos >= end) throw bad('truncated RLE run header')
    const x = b[pos++]!
    v += (x & 0x7f) * 2 ** shift
    if ((x & 0x80) === 0) return [v, pos]
    shift += 7
    if (shift > 35) throw bad('RLE run header too long')
  }
}

/**
 * Decodes `count` values of the RLE / bit-packed hybrid encoding of bit width `width` from
 * `b[pos, end)` into `out`; returns the position after them.
 */
export function decodeHybrid(b: Uint8Array, pos: number, end: number, width: number, count: number, out: Int32Array | Uint8Array): number {
  if (width < 0 || width > 32) throw bad(`bit width ${width}`)
  const bytesPerValue = (width + 7) >> 3
  const mask = width === 32 ? -1 : (1 << width) - 1
  let i = 0
  while (i < count) {
    let header: number
    ;[header, pos] = uleb(b, pos, end)
    if ((header & 1) === 0) {
      const run = Math.floor(header / 2)
      if (pos + bytesPerValue > end) throw bad('truncated RLE run')
      let v = 0
      for (let k = 0; k < bytesPerValue; k++) v |= b[pos + k]! << (8 * k)
      pos += bytesPerValue
      const n = Math.min(run, count - i)
      out.fill(v, i, i + n)
      i += n
    } else {
      const groups = Math.floor(header / 2)
      const bytes = groups * width
      if (pos + bytes > end) throw bad('truncated bit-packed run')
      const n = Math.min(groups * 8, count - i)
      let acc = 0
      let bits = 0
      let p = pos
      if (width <= 24) {
        // integer arithmetic: at most 23 pending bits plus a byte fit 31 bits
        for (let k = 0; k < n; k++) {
          while (bits < width) { acc |= b[p++]! << bits; bits += 8 }
          out[i++] = acc & mask
          acc >>>= width
          bits -= width
        }
      } else {
        for (let k = 0; k < n; k++) {
          while (bits < width) { acc += b[p++]! * 2 ** bits; bits += 8 }
          out[i++] = width === 32 ? acc % 4294967296 | 0 : acc % (mask + 1)
          acc = Math.floor(acc / 2 ** width)
          bits -= width
        }
      }
      pos += bytes
    }
  }
  return pos
}

/** Definition levels (bit width 1) of `rows` rows at b[pos, end): the flags, or undefined when all are 1. */
function definitions(b: Uint8Array, pos: number, end: number, rows: number): Uint8Array | undefined {
  // one RLE run of 1s covering the page: no null
  const [header, next] = uleb(b, pos, end)
  if ((header & 1) === 0 && Math.floor(header / 2) >= rows && b[next] === 1) return undefined
  const out = new Uint8Array(rows)
  decodeHybrid(b, pos, end, 1, rows, out)
  return out
}

function countDefined(d: Uint8Array | undefined, rows: number): number {
  if (d === undefined) return rows
  let n = 0
  for (let i = 0; i < rows; i++) n += d[i]!
  return n
}

/**
 * The page `bytes` (after its header) of a flat column whose maximum definition level is
 * `maxDef` (0 or 1), or undefined when it is of a kind this decoder leaves to hyparquet.
 */
export function decodeFlatPage(header: PageHeader, bytes: Uint8Array, maxDef: number, decompress: Decompress): FlatPage | undefined {
  let rows: number
  let encoding: string
  let defined: Uint8Array | undefined
  let values: Uint8Array
  if (header.type === 'DATA_PAGE_V2') {
    const h = header.data_page_header_v2!
    if (h.repetition_levels_byte_length !== 0) return undefined
    rows = h.num_values
    encoding = h.encoding
    const defLen = h.definition_levels_byte_length
    if (defLen < 0 || defLen > bytes.length) throw bad('definition levels past the page')
    defined = maxDef > 0 && defLen > 0 ? definitions(bytes, 0, defLen, rows) : undefined
    const body = bytes.subarray(defLen)
    values = h.is_compressed === false ? body : decompress(body, header.uncompressed_page_size - defLen)
  } else if (header.type === 'DATA_PAGE') {
    const h = header.data_page_header!
    rows = h.num_values
    encoding = h.encoding
    const page = decompress(bytes, header.uncompressed_page_size)
    let pos = 0
    if (maxDef > 0) {
      if (h.definition_level_encoding !== 'RLE') return undefined
      if (page.length < 4) throw bad('truncated definition levels')
      const len = page[0]! | (page[1]! << 8) | (page[2]! << 16) | (page[3]! << 24)
      if (len < 0 || 4 + len > page.length) throw bad('definition levels past the page')
      defined = definitions(page, 4, 4 + len, rows)
      pos = 4 + len
    }
    values = page.subarray(pos)
  } else return undefined
  if (!(rows >= 0)) throw bad(`page of ${rows} values`)
  const count = countDefined(defined, rows)
  if (encoding === 'PLAIN') return { rows, defined, count, plain: values, keys: undefined }
  if (encoding === 'RLE_DICTIONARY' || encoding === 'PLAIN_DICTIONARY') {
    if (values.length < 1) throw bad('dictionary page data without its bit width')
    const keys = new Int32Array(count)
    if (count > 0) decodeHybrid(values, 1, values.length, values[0]!, count, keys)
    return { rows, defined, count, plain: undefined, keys }
  }
  return undefined
}
