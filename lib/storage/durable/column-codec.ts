/**
 * Column values <-> bytes, as stored in partition column files and WAL records.
 *
 * - Fixed-width types: the values little-endian, back to back (BOOLEAN/BYTE 1 byte, SHORT/CHAR 2,
 *   INT/IPv4/FLOAT/SYMBOL keys 4, LONG/DATE/TIMESTAMP (int64, exact)/DOUBLE 8).
 * - Var-size types (STRING, VARCHAR, UUID, LONG256, INTERVAL as UTF-8 text; BINARY raw): a data
 *   part with, per row, an int32 byte length (-1 = null) then the bytes; and an offsets part with
 *   one int64 per row: where the row's length field starts in the data part.
 * - DOUBLE arrays: see `array-codec.ts` (a shape header, then the flat doubles).
 * - GEOHASH: QuestDB's widths — 1 byte up to 7 bits, 2 up to 15, 4 up to 31, 8 up to 60 — with
 *   QuestDB's null, every bit set (-1); in memory the i32 / i64 layouts with INT's / LONG's null.
 */
import { internalError } from '../../errors.js'
import { type ColumnType, physicalOf, INT_NULL, LONG_NULL } from '../../types/column-type.js'
import { geohashBits, geohashStorageBytes, isGeohash } from '../../types/geohash.js'
import { type Vector, type SymbolTable, materialize, vectorOf } from '../../types/vector.js'
import { decodeArr, encodeArr } from './array-codec.js'
import { sharedBuffer } from '../shared-memory.js'

const TWO32 = 4294967296

/** Bytes per value of a fixed-width type, or 0 for var-size / NULL types. */
export function fixedWidth(type: ColumnType): number {
  if (isGeohash(type)) return geohashStorageBytes(geohashBits(type))
  switch (physicalOf(type)) {
    case 'bool': case 'i8': return 1
    case 'i16': case 'u16': return 2
    case 'i32': case 'f32': case 'sym': return 4
    case 'i64': case 'f64': return 8
    case 'str': case 'bin': case 'arr': case 'null': return 0
  }
}

/** True for types stored as data + offsets. */
export function isVarSize(type: ColumnType): boolean {
  const k = physicalOf(type)
  return k === 'str' || k === 'bin' || k === 'arr'
}

/**
 * The bytes of a fixed-width vector (a view when the layout already matches). 64-bit integers
 * held as safe integers are converted into int64 words: into `scratch(words)` when given (an array
 * of at least that many words the caller reuses; the bytes are then valid until its next use),
 * else into a new array.
 */
export function encodeFixed(v: Vector, scratch?: (words: number) => Int32Array): Uint8Array {
  const m = materialize(v)
  if (isGeohash(m.type)) return encodeGeohash(m)
  const d = m.data as Float64Array | BigInt64Array | Int32Array
  if (m.kind === 'i64' && d instanceof Float64Array) {
    const out = scratch === undefined ? new Int32Array(m.length * 2) : scratch(m.length * 2)
    for (let i = 0; i < m.length; i++) {
      const x = d[i]!
      if (x === LONG_NULL) { out[2 * i] = 0; out[2 * i + 1] = -2147483648; continue }
      const hi = Math.floor(x / TWO32)
      out[2 * i] = (x - hi * TWO32) | 0
      out[2 * i + 1] = hi
    }
    return new Uint8Array(out.buffer, out.byteOffset, m.length * 8)
  }
  return new Uint8Array(d.buffer, d.byteOffset, m.length * fixedWidth(m.type))
}

/** Decodes `n` fixed-width values of `type` from `bytes` (copied into an aligned, shared array). */
export function decodeFixed(type: ColumnType, bytes: Uint8Array, n: number, dict?: SymbolTable): Vector {
  const w = fixedWidth(type)
  if (isGeohash(type)) return decodeGeohash(type, bytes, n, w)
  // decoded columns live in shared memory where available, so worker threads read them without copying
  const buf = sharedBuffer(n * w)
  new Uint8Array(buf).set(bytes.subarray(0, n * w))
  switch (physicalOf(type)) {
    case 'bool': return vectorOf(type, new Uint8Array(buf), n)
    case 'i8': return vectorOf(type, new Int8Array(buf), n)
    case 'i16': return vectorOf(type, new Int16Array(buf), n)
    case 'u16': return vectorOf(type, new Uint16Array(buf), n)
    case 'i32': return vectorOf(type, new Int32Array(buf), n)
    case 'f32': return vectorOf(type, new Float32Array(buf), n)
    case 'f64': return vectorOf(type, new Float64Array(buf), n)
    case 'sym': return vectorOf(type, new Int32Array(buf), n, dict)
    case 'i64': return vectorOf(type, int64ToEngine(new Int32Array(buf), n), n)
    case 'str': case 'bin': case 'arr': case 'null': throw internalError(`not a fixed-width type: ${type}`)
  }
}

/** A geohash vector in QuestDB's width, null as -1. */
function encodeGeohash(m: Vector): Uint8Array {
  const n = m.length
  const w = fixedWidth(m.type)
  if (w === 8) {
    const d = m.data as Float64Array | BigInt64Array
    if (d instanceof BigInt64Array) {
      const out = new BigInt64Array(n)
      for (let i = 0; i < n; i++) { const x = d[i]!; out[i] = x === -9223372036854775808n ? -1n : x }
      return new Uint8Array(out.buffer)
    }
    const out = new Int32Array(2 * n)
    for (let i = 0; i < n; i++) {
      const x = d[i]!
      if (x === LONG_NULL) { out[2 * i] = -1; out[2 * i + 1] = -1; continue }
      const hi = Math.floor(x / TWO32)
      out[2 * i] = (x - hi * TWO32) | 0
      out[2 * i + 1] = hi
    }
    return new Uint8Array(out.buffer)
  }
  const d = m.data as Int32Array
  const out = w === 1 ? new Int8Array(n) : w === 2 ? new Int16Array(n) : new Int32Array(n)
  for (let i = 0; i < n; i++) { const x = d[i]!; out[i] = x === INT_NULL ? -1 : x }
  return new Uint8Array(out.buffer)
}

/** `n` geohash values of width `w` (null -1) as the engine's layout. */
function decodeGeohash(type: ColumnType, bytes: Uint8Array, n: number, w: number): Vector {
  const copy = new Uint8Array(n * w)
  copy.set(bytes.subarray(0, n * w))
  if (w === 8) {
    const words = new Int32Array(copy.buffer)
    const out = new Float64Array(sharedBuffer(n * 8))
    for (let i = 0; i < n; i++) {
      const lo = words[2 * i]!, hi = words[2 * i + 1]!
      if (lo === -1 && hi === -1) { out[i] = LONG_NULL; continue }
      if (hi >= 2097152) {
        // past 2^53 (geohashes of 54-60 bits): the exact form
        const src = new BigInt64Array(copy.buffer)
        const big = new BigInt64Array(n)
        for (let j = 0; j < n; j++) { const y = src[j]!; big[j] = y === -1n ? -9223372036854775808n : y }
        return vectorOf(type, big, n)
      }
      out[i] = hi * TWO32 + (lo >>> 0)
    }
    return vectorOf(type, out, n)
  }
  const src = w === 1 ? new Int8Array(copy.buffer) : w === 2 ? new Int16Array(copy.buffer) : new Int32Array(copy.buffer)
  const out = new Int32Array(sharedBuffer(n * 4))
  for (let i = 0; i < n; i++) { const x = src[i]!; out[i] = x === -1 ? INT_NULL : x }
  return vectorOf(type, out, n)
}

/** int64 words (lo, hi pairs) as the engine's i64 data: Float64Array unless a value is not safe. */
function int64ToEngine(words: Int32Array, n: number): Float64Array | BigInt64Array {
  const out = new Float64Array(sharedBuffer(n * 8))
  for (let i = 0; i < n; i++) {
    const lo = words[2 * i]!
    const hi = words[2 * i + 1]!
    if (hi > -2097152 && hi < 2097151) out[i] = hi * TWO32 + (lo >>> 0)
    else if (hi === -2147483648 && lo === 0) out[i] = LONG_NULL
    else return new BigInt64Array(words.buffer, words.byteOffset, n)
  }
  return out
}

/** Encodes a var-size vector: [data, offsets]. */
export function encodeVar(v: Vector): [Uint8Array, Uint8Array] {
  const m = materialize(v)
  if (m.kind === 'arr') return encodeArr(m)
  const vals = m.data as (string | Uint8Array | null)[]
  const n = m.length
  let total = 4 * n
  for (let i = 0; i < n; i++) { const x = vals[i]; if (x != null) total += typeof x === 'string' ? Buffer.byteLength(x) : x.length }
  const data = Buffer.allocUnsafe(total)
  const offs = new Int32Array(2 * n)
  let p = 0
  for (let i = 0; i < n; i++) {
    offs[2 * i] = p | 0
    offs[2 * i + 1] = Math.floor(p / TWO32)
    const x = vals[i]
    if (x == null) { data.writeInt32LE(-1, p); p += 4; continue }
    const len = typeof x === 'string' ? data.write(x, p + 4) : (data.set(x, p + 4), x.length)
    data.writeInt32LE(len, p)
    p += 4 + len
  }
  return [data, new Uint8Array(offs.buffer)]
}

/** Decodes `n` var-size values of `type` from a data part (the offsets part is for random access). */
export function decodeVar(type: ColumnType, data: Uint8Array, n: number): Vector {
  if (physicalOf(type) === 'arr') return decodeArr(type, data, n)
  const buf = Buffer.from(data.buffer, data.byteOffset, data.length)
  const text = physicalOf(type) === 'str'
  const out: (string | Uint8Array | null)[] = new Array(n)
  let p = 0
  for (let i = 0; i < n; i++) {
    if (p + 4 > buf.length) throw new RangeError('var-size data is truncated')
    const len = buf.readInt32LE(p)
    p += 4
    if (len < 0) { out[i] = null; continue }
    if (p + len > buf.length) throw new RangeError('var-size data is truncated')
    out[i] = text ? buf.toString('utf8', p, p + len) : new Uint8Array(buf.subarray(p, p + len))
    p += len
  }
  if (p !== buf.length) throw new RangeError('var-size data has trailing bytes')
  return vectorOf(type, out as Vector['data'], n)
}
