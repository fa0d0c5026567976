/**
 * GEOHASH(<n>b | <n>c): QuestDB's geospatial type, 1–60 bits of an interleaved longitude/latitude
 * geohash (5 bits per base32 character).
 *
 * A geohash type is the tag QuestDB prints: `GEOHASH(<n/5>c)` when the bit count is a multiple
 * of 5, else `GEOHASH(<n>b)` — so `geohash(30b)` and `geohash(6c)` are the same type.
 *
 * Representation in vectors: the value's bits as an unsigned integer. Up to 31 bits it is the i32
 * layout (null: INT's -2^31, never a valid 31-bit value), 32–60 bits the i64 layout (null: LONG's
 * -2^63). So the engine's INT/LONG null machinery carries geohashes unchanged; only the edges
 * (storage, Parquet, text) map null to QuestDB's "all bits set" (-1). Its {@link Scalar} form is
 * the number (a bigint past 2^53). Storage keeps QuestDB's widths: a byte up to 7 bits, a short up
 * to 15, an int up to 31, a long up to 60 (one bit is reserved for the null).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../errors.js'

/** A GEOHASH type tag. */
export type GeohashType = `GEOHASH(${number}b)` | `GEOHASH(${number}c)`

/** The most bits a geohash holds. */
export const GEOHASH_MAX_BITS = 60
/** The most base32 characters a geohash holds (a `#` literal's limit). */
export const GEOHASH_MAX_CHARS = 12

const BASE32 = '0123456789bcdefghjkmnpqrstuvwxyz'
/** base32 character code → 5-bit value, -1 when not a geohash character (case-insensitive). */
const BASE32_INDEX = new Int8Array(128).fill(-1)
for (let i = 0; i < BASE32.length; i++) {
  BASE32_INDEX[BASE32.charCodeAt(i)] = i
  BASE32_INDEX[BASE32.toUpperCase().charCodeAt(i)] = i
}

const BITS = new Map<string, number>()

/** True when `t` is a GEOHASH type tag. */
export function isGeohash(t: string): t is GeohashType {
  return t.length > 9 && t.charCodeAt(0) === 71 && t.startsWith('GEOHASH(')
}

/** The tag of a geohash of `bits` bits (1–60, already checked). */
export function geohashType(bits: number): GeohashType {
  return bits % 5 === 0 ? `GEOHASH(${bits / 5}c)` : `GEOHASH(${bits}b)`
}

/** The bit count of a GEOHASH tag. */
export function geohashBits(t: GeohashType): number {
  let b = BITS.get(t)
  if (b === undefined) {
    const m = /^GEOHASH\((\d+)([bc])\)$/.exec(t)
    b = m === null ? 0 : Number(m[1]) * (m[2] === 'c' ? 5 : 1)
    BITS.set(t, b)
  }
  return b
}

/** Bytes per value in storage: QuestDB's GEOBYTE/GEOSHORT/GEOINT/GEOLONG (a bit is kept for null). */
export function geohashStorageBytes(bits: number): 1 | 2 | 4 | 8 {
  return bits < 8 ? 1 : bits < 16 ? 2 : bits < 32 ? 4 : 8
}

/** True when the type's values live in the i64 layout (more than 31 bits). */
export function isWideGeohash(t: GeohashType): boolean {
  return geohashBits(t) > 31
}

/**
 * Parses `geohash(<n>b)` / `geohash(<n>c)` (any case) into a tag; undefined when `name` is not
 * a geohash type name.
 * @throws SqlError 22023 at `pos` for a precision outside 1–60 bits / 1–12 chars
 */
export function parseGeohashTypeName(name: string, pos = -1): GeohashType | undefined {
  const m = /^geohash\(\s*(\d*)\s*([a-z]?)\s*\)$/i.exec(name)
  if (m === null) return undefined
  if (m[1] === '' || m[2] === '') throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, "invalid GEOHASH size, must be number followed by 'C' or 'B' character", pos)
  const unit = m[2]!.toLowerCase()
  if (unit !== 'b' && unit !== 'c') throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, "invalid GEOHASH size units, must be 'c', 'C' for chars, or 'b', 'B' for bits", pos)
  const bits = Number(m[1]) * (unit === 'c' ? 5 : 1)
  if (bits < 1 || bits > GEOHASH_MAX_BITS) {
    throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid GEOHASH type precision range, must be [1, 60] bits, provided=${bits}`, pos)
  }
  return geohashType(bits)
}

/** A geohash value as a Scalar: a number, or a bigint past 2^53. */
export type GeohashValue = number | bigint

function fromBig(x: bigint): GeohashValue {
  return x <= 9007199254740991n ? Number(x) : x
}

/**
 * The value of the first `chars` base32 characters of `text`, shifted right by `drop` bits;
 * undefined when one is not a geohash character. Up to 10 characters (50 bits) it is computed in
 * doubles (exact below 2^53); only 11-12 characters take BigInt.
 */
function base32Value(text: string, chars: number, drop: number): GeohashValue | undefined {
  if (chars <= 10) {
    let out = 0
    for (let i = 0; i < chars; i++) {
      const c = text.charCodeAt(i)
      const v = c < 128 ? BASE32_INDEX[c]! : -1
      if (v < 0) return undefined
      out = out * 32 + v
    }
    return drop === 0 ? out : Math.floor(out / 2 ** drop)
  }
  let out = 0n
  for (let i = 0; i < chars; i++) {
    const c = text.charCodeAt(i)
    const v = c < 128 ? BASE32_INDEX[c]! : -1
    if (v < 0) return undefined
    out = (out << 5n) | BigInt(v)
  }
  return fromBig(out >> BigInt(drop))
}

/** Why a text is not a geohash of the wanted precision. */
export type GeohashTextError = 'too-short' | 'invalid'

/**
 * The geohash of `bits` bits a base32 text stands for, keeping its leading bits (QuestDB's
 * `fromStringTruncating`): `'u33d8'` at 20 bits is `u33d`. An empty text is null.
 * Returns an error tag when the text is shorter than `bits` needs or has a non-base32 character.
 */
export function geohashFromText(text: string, bits: number): GeohashValue | null | GeohashTextError {
  if (text.length === 0) return null
  if (text.length * 5 < bits) return 'too-short'
  const chars = Math.ceil(bits / 5)
  const v = base32Value(text, chars, chars * 5 - bits)
  return v === undefined ? 'invalid' : v
}

/** The SqlError for a constant text that does not convert to a geohash (QuestDB's words). */
export function geohashTextError(err: GeohashTextError, text: string, bits: number, pos: number): SqlError {
  if (err === 'too-short') return new SqlError(SqlState.INVALID_TEXT_REPRESENTATION, `string is too short to cast to chosen GEOHASH precision [len=${text.length}, precision=${bits}]`, pos)
  return new SqlError(SqlState.INVALID_TEXT_REPRESENTATION, 'invalid GEOHASH', pos)
}

/**
 * The text QuestDB prints for a geohash: base32 characters when `bits` is a multiple of 5,
 * else the bit string (`'01011'`).
 */
export function formatGeohash(v: GeohashValue, bits: number): string {
  let s = ''
  if (typeof v === 'bigint') {
    // base32 of more than 53 bits: the high and the low 30 bits as safe integers (no BigInt per character)
    if (bits % 5 === 0 && bits > 30) return formatGeohash(Number(v >> 30n), bits - 30) + formatGeohash(Number(v & 0x3fffffffn), 30)
    if (bits % 5 === 0) for (let i = bits / 5 - 1; i >= 0; i--) s += BASE32[Number((v >> BigInt(i * 5)) & 31n)]
    else for (let i = bits - 1; i >= 0; i--) s += (v >> BigInt(i)) & 1n ? '1' : '0'
    return s
  }
  // a safe integer: powers of two divide it exactly
  if (bits % 5 === 0) {
    for (let i = bits / 5 - 1; i >= 0; i--) s += BASE32[i < 6 ? (v >>> (i * 5)) & 31 : Math.floor(v / 2 ** (i * 5)) % 32]
    return s
  }
  for (let i = bits - 1; i >= 0; i--) s += (i < 31 ? (v >>> i) & 1 : Math.floor(v / 2 ** i) % 2) ? '1' : '0'
  return s
}

/** A `#...` / `##...` literal: its type and value. */
export interface GeohashLiteral {
  readonly type: GeohashType
  readonly value: GeohashValue
}

/**
 * Parses a geohash literal token: `#u33d` (1–12 base32 characters, 5 bits each), `#u33d/18`
 * (the leading 1–60 bits of those characters) or `##0101` (1–60 bits).
 * @throws SqlError 42601 at `pos` for a malformed literal, QuestDB's messages
 */
export function parseGeohashLiteral(text: string, pos: number): GeohashLiteral {
  if (text.startsWith('##')) {
    const digits = text.slice(2)
    if (digits.length === 0 || digits.length > GEOHASH_MAX_BITS || !/^[01]+$/.test(digits)) {
      throw new SqlError(SqlState.SYNTAX_ERROR, 'invalid constant: ' + text, pos)
    }
    return { type: geohashType(digits.length), value: fromBig(BigInt('0b' + digits)) }
  }
  const slash = text.indexOf('/')
  const hash = slash < 0 ? text.slice(1) : text.slice(1, slash)
  if (hash.length === 0 || hash.length > GEOHASH_MAX_CHARS) throw new SqlError(SqlState.SYNTAX_ERROR, 'invalid constant: ' + text, pos)
  const all = base32Value(hash, hash.length, 0)
  if (all === undefined) throw new SqlError(SqlState.SYNTAX_ERROR, 'invalid constant: ' + text, pos)
  const full = hash.length * 5
  if (slash < 0) return { type: geohashType(full), value: all }
  const bitsText = text.slice(slash + 1)
  const bits = /^\d+$/.test(bitsText) ? Number(bitsText) : NaN
  if (!(bits >= 1 && bits <= GEOHASH_MAX_BITS)) throw new SqlError(SqlState.SYNTAX_ERROR, 'invalid bits size for GEOHASH constant: ' + text, pos)
  if (bits > full) throw new SqlError(SqlState.SYNTAX_ERROR, 'invalid bits size for GEOHASH constant: ' + text, pos)
  return { type: geohashType(bits), value: narrowGeohash(all, full, bits) }
}

/**
 * Narrows a geohash value from `fromBits` to `toBits` (<= fromBits) by dropping its low bits.
 */
export function narrowGeohash(v: GeohashValue, fromBits: number, toBits: number): GeohashValue {
  const shift = fromBits - toBits
  if (shift === 0) return v
  if (typeof v === 'number') return v <= 2147483647 ? v >>> shift : Math.floor(v / 2 ** shift)
  return fromBig(v >> BigInt(shift))
}

/**
 * The geohash of `bits` bits of a point, as QuestDB's `fromCoordinatesDeg`: latitude and longitude
 * quantized to 32 bits each (`floor((lat + 90) / 180 * 2^32)`, `floor((lon + 180) / 360 * 2^32)`,
 * kept modulo 2^32 as Java's interleave does), interleaved from the longitude's top bit, and the
 * leading `bits` bits kept. Undefined when the latitude is outside [-90, 90] or the longitude
 * outside [-180, 180]. A NaN (NULL) coordinate passes QuestDB's range checks (its comparisons are
 * false) and quantizes to 0, Java's `(long) NaN`: `>>> 0` of NaN is 0 here too.
 */
export function geohashOfPoint(lon: number, lat: number, bits: number): GeohashValue | undefined {
  if (lat < -90 || lat > 90 || lon < -180 || lon > 180) return undefined
  const latq = Math.floor(((lat + 90) / 180) * 4294967296) >>> 0
  const lonq = Math.floor(((lon + 180) / 360) * 4294967296) >>> 0
  let hi = 0, lo = 0 // the value as two 30-bit halves: exact in doubles
  for (let i = 0; i < bits; i++) {
    const bit = i % 2 === 0 ? (lonq >>> (31 - (i >> 1))) & 1 : (latq >>> (31 - (i >> 1))) & 1
    hi = hi * 2 + Math.floor(lo / 536870912)
    lo = (lo % 536870912) * 2 + bit
  }
  const v = hi * 1073741824 + lo
  return Number.isSafeInteger(v) ? v : (BigInt(hi) << 30n) | BigInt(lo)
}
