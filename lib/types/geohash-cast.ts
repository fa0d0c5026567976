/**
 * Casts to and from GEOHASH, with QuestDB's rules (CastGeoHashToGeoHashFunctionFactory,
 * CastStrToGeoHashFunctionFactory):
 * - geohash → geohash of fewer bits keeps the leading bits (`#u33d` as `geohash(2c)` is `u3`);
 *   to more bits is refused: `CAST cannot decrease precision from GEOHASH(10b) to GEOHASH(20b)`;
 * - geohash → text prints it (base32, or a bit string when the bits are not a multiple of 5);
 * - text → geohash keeps the text's leading bits; an empty text is null. A constant that is too
 *   short or not base32 is an error (`string is too short ...`, `invalid GEOHASH`); a column
 *   value that does not convert is null, as QuestDB's runtime cast.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../errors.js'
import { INT_NULL, type ColumnType, isText } from './column-type.js'
import { type GeohashType, type GeohashValue, formatGeohash, geohashBits, geohashFromText, geohashTextError, isGeohash, narrowGeohash } from './geohash.js'
import type { Scalar, Vector } from './vector.js'

/** QuestDB's error for a cast to a geohash of more bits. */
export function geohashWidening(from: GeohashType, to: GeohashType, pos: number): SqlError {
  return new SqlError(SqlState.DATATYPE_MISMATCH, `CAST cannot decrease precision from GEOHASH(${geohashBits(from)}b) to GEOHASH(${geohashBits(to)}b)`, pos)
}

/**
 * Casts one non-null value where `from` or `to` is a GEOHASH type. `onBadText: 'null'` gives
 * null for text that does not convert (the runtime cast) instead of the error.
 * @throws SqlError for a refused pair (42804) or, with `'throw'`, text that does not convert (22P02)
 */
export function castGeohashScalar(value: Scalar, from: ColumnType, to: ColumnType, onBadText: 'throw' | 'null', position: number): Scalar {
  if (isGeohash(from)) {
    const fb = geohashBits(from)
    if (isGeohash(to)) {
      const tb = geohashBits(to)
      if (tb > fb) throw geohashWidening(from, to, position)
      return narrowGeohash(value as GeohashValue, fb, tb)
    }
    if (isText(to, true)) return formatGeohash(value as GeohashValue, fb)
  } else if (isGeohash(to) && isText(from, true)) {
    const text = String(value)
    const bits = geohashBits(to)
    const v = geohashFromText(text, bits)
    if (typeof v !== 'string') return v
    if (onBadText === 'null') return null
    throw geohashTextError(v, text, bits, position)
  }
  throw new SqlError(SqlState.DATATYPE_MISMATCH, `inconvertible types: ${from} -> ${to}`, position)
}

/**
 * Geohash → geohash of fewer bits on a whole vector, by shifting; undefined when the pair has no
 * fast path (the caller goes value by value).
 */
export function narrowGeohashVector(v: Vector, to: GeohashType): Vector | undefined {
  if (!isGeohash(v.type) || v.kind !== 'i32') return undefined
  const fb = geohashBits(v.type), tb = geohashBits(to)
  if (tb > fb) return undefined
  const shift = fb - tb
  const n = v.isConst ? 1 : v.length
  const src = v.data
  const out = new Int32Array(n)
  for (let i = 0; i < n; i++) { const x = src[i]!; out[i] = x === INT_NULL ? INT_NULL : x >>> shift }
  return { kind: 'i32', type: to, length: v.length, isConst: v.isConst, data: out }
}

/**
 * QuestDB's refusal of a geohash value into a geohash column of more bits (INSERT):
 * `inconvertible types: GEOHASH(2c) -> GEOHASH(11b) [from=#sp, to=geohash]`.
 * @throws SqlError 42804 at `pos` when `from` is a geohash narrower than `to`
 */
export function checkGeohashInsert(from: ColumnType, to: GeohashType, fromText: string, column: string, pos: number): void {
  if (isGeohash(from) && geohashBits(from) < geohashBits(to)) {
    throw new SqlError(SqlState.DATATYPE_MISMATCH, `inconvertible types: ${from} -> ${to} [from=${fromText}, to=${column}]`, pos)
  }
}
