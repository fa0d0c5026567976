/**
 * DOUBLE arrays on the wire as PostgreSQL's `float8[]` (OID 1022), as QuestDB sends them:
 *
 * - text: `{1.0,2.0}`, `{{1.0,2.0},{3.0,4.0}}`, `{}`; null elements `NULL`;
 * - binary (PostgreSQL's array_send): int32 dimension count, int32 has-nulls flag, int32 element
 *   OID (701), per dimension int32 length and int32 lower bound (1), then per element an int32
 *   length (8, or -1 for null) and the float8. An empty array has 0 dimensions.
 *
 * And the way back, for parameters: text in either form, binary as above (psycopg, asyncpg,
 * pgJDBC `createArrayOf("float8", ...)` send it).
 */
import { DoubleArray } from '../../lib/index.js'
import { arrayToNested, formatPgArray, getScalar, parseArrayText } from '../../lib/internal.js'
import type { Vector } from '../../lib/index.js'
import type { BufferWriter } from './buffer-writer.js'
import { ParamError } from './params.js'

const FLOAT8_OID = 701

/** Writes row `i` of an array vector as a text cell. */
export function writeArrayText(w: BufferWriter, v: Vector, i: number): void {
  const a = getScalar(v, i) as DoubleArray | null
  if (a === null) w.int32(-1)
  else w.lengthPrefixedString(formatPgArray(a))
}

/** The binary form of one array (PostgreSQL's array_send). */
export function arrayBinary(a: DoubleArray): Buffer {
  const n = a.values.length
  const dims = n === 0 ? 0 : a.shape.length
  const buf = Buffer.allocUnsafe(12 + dims * 8 + n * 12)
  let hasNull = 0
  for (let k = 0; k < n; k++) if (!Number.isFinite(a.values[k]!)) { hasNull = 1; break }
  buf.writeInt32BE(dims, 0)
  buf.writeInt32BE(hasNull, 4)
  buf.writeInt32BE(FLOAT8_OID, 8)
  let p = 12
  for (let d = 0; d < dims; d++) { buf.writeInt32BE(a.shape[d]!, p); buf.writeInt32BE(1, p + 4); p += 8 }
  for (let k = 0; k < n; k++) {
    const x = a.values[k]!
    if (Number.isFinite(x)) { buf.writeInt32BE(8, p); buf.writeDoubleBE(x, p + 4); p += 12 } else { buf.writeInt32BE(-1, p); p += 4 }
  }
  return buf.subarray(0, p)
}

/** Writes row `i` of an array vector as a binary cell. */
export function writeArrayBinary(w: BufferWriter, v: Vector, i: number): void {
  const a = getScalar(v, i) as DoubleArray | null
  if (a === null) { w.int32(-1); return }
  const b = arrayBinary(a)
  w.int32(b.length).bytes(b)
}

/**
 * Decodes a binary `float8[]` (or `float4[]`, `int4[]`, `int8[]`, numbers of any width the
 * element OID names) parameter; throws a RangeError on malformed bytes.
 */
export function decodeArrayBinary(b: Uint8Array): DoubleArray {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.length)
  const dims = buf.readInt32BE(0)
  const elem = buf.readInt32BE(8)
  if (dims < 0 || dims > 32) throw new RangeError(`bad array dimension count ${dims}`)
  if (dims === 0) return DoubleArray.empty(1)
  const shape: number[] = []
  let p = 12
  let n = 1
  for (let d = 0; d < dims; d++) { const len = buf.readInt32BE(p); shape.push(len); n *= len; p += 8 }
  const values = new Float64Array(n)
  for (let k = 0; k < n; k++) {
    const len = buf.readInt32BE(p)
    p += 4
    if (len < 0) { values[k] = NaN; continue }
    values[k] = elem === 700 ? buf.readFloatBE(p) : elem === 23 ? buf.readInt32BE(p) : elem === 20 ? Number(buf.readBigInt64BE(p)) : elem === 21 ? buf.readInt16BE(p) : buf.readDoubleBE(p)
    p += len
  }
  return new DoubleArray(shape, values)
}

/** Decodes a text array parameter (`{1,2}` or `[1,2]`). */
export function decodeArrayText(text: string): DoubleArray {
  return parseArrayText(text, undefined)
}

/**
 * The value of a `float8[]` parameter: a 1-D array as a JS array of numbers (so `x IN ($1)` still
 * expands it), more dimensions as a {@link DoubleArray}. Malformed input throws a ParamError-like
 * Error with SQLSTATE 22P02 semantics (the caller's ParamError wraps it).
 */
export function float8ArrayParam(data: Buffer | string, format: 0 | 1, index: number): unknown {
  let a: DoubleArray
  try {
    a = typeof data === 'string' || format === 0 ? decodeArrayText(String(data)) : decodeArrayBinary(data)
  } catch (e) {
    throw new ParamError(`invalid float8[] for parameter $${index + 1}: ${(e as Error).message}`)
  }
  return a.dims === 1 ? arrayToNested(a) : a
}
