/**
 * Casting one value ({@link Scalar}) between types with QuestDB's semantics: Java-style integer
 * narrowing (bits are truncated: `cast(7234623 AS SHORT)` = 25663), double to integer truncates
 * toward zero and saturates, NaN becomes null (0 for BYTE/SHORT), TIMESTAMP↔DATE scale by 1000,
 * text parses, everything prints to text. Used for constants and by the vector cast's slow path.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { type ColumnType, typeName, isInterval, isText } from './column-type.js'
import type { Scalar } from './vector.js'
import { SqlError, SqlState } from '../errors.js'
import { formatValue } from './value-format.js'
import { convertInterval } from './interval-value.js'
import { parseText } from './text-parse.js'
import { long256FromBigInt } from './long256.js'
import { isArrayType } from './array-type.js'
import { castToArray } from './array-cast.js'
import { isDecimal } from './decimal.js'
import { castDecimalScalar } from './decimal-cast.js'
import { castNsScalar } from './timestamp-ns-cast.js'
import { isGeohash } from './geohash.js'
import { castGeohashScalar } from './geohash-cast.js'

/** What a cast does with text that does not convert: raise 22P02, or produce null. */
export type BadTextPolicy = 'throw' | 'null'

const MAX_SAFE = Number.MAX_SAFE_INTEGER
const TWO63 = 9223372036854775808

/** The `inconvertible value` error QuestDB raises for a value that does not convert (22P02). */
export function inconvertible(value: string, from: ColumnType, to: ColumnType, position = -1): SqlError {
  const shown = from === 'CHAR' ? value : '`' + value + '`'
  return new SqlError(SqlState.INVALID_TEXT_REPRESENTATION, `inconvertible value: ${shown} [${typeName(from)} -> ${typeName(to)}]`, position)
}

/** Java `(int) d` for a double: truncation toward zero, saturating, NaN → 0. */
export function saturateInt32(d: number): number {
  return d >= 2147483647 ? 2147483647 : d <= -2147483648 ? -2147483648 : d | 0
}

/** The low 32 bits (signed) of an integer value, as Java `(int) long`. */
function int32Bits(x: number | bigint): number {
  return typeof x === 'bigint' ? Number(BigInt.asIntN(32, x)) : x | 0
}

/** Java `(long) d` for a finite double, as a Scalar i64 (bigint when unsafe, null for -2^63). */
export function doubleToLong(d: number): number | bigint | null {
  if (Number.isNaN(d)) return null
  if (d >= TWO63) return 9223372036854775807n
  if (d <= -TWO63) return null
  const t = Math.trunc(d)
  return Math.abs(t) <= MAX_SAFE ? t + 0 : BigInt(t)
}

function isFloating(t: ColumnType): boolean {
  return t === 'FLOAT' || t === 'DOUBLE'
}

/** The numeric value of a non-null, non-text scalar; undefined when it has none (CHAR not a digit). */
function numericOf(value: Scalar, from: ColumnType): number | bigint | undefined {
  switch (typeof value) {
    case 'number': case 'bigint': return value
    case 'boolean': return value ? 1 : 0
    case 'string': {
      if (from !== 'CHAR') return undefined
      const c = value.charCodeAt(0) - 48
      return c >= 0 && c <= 9 && value.length === 1 ? c : undefined
    }
    default: return undefined
  }
}

/** An i64 scalar from an exact integer (bigint when unsafe). */
function i64(x: number | bigint): number | bigint {
  if (typeof x === 'number') return x
  return x >= -9007199254740991n && x <= 9007199254740991n ? Number(x) : x
}

function scaleUp(x: number | bigint): number | bigint {
  if (typeof x === 'bigint') return i64(BigInt.asIntN(64, x * 1000n))
  const y = x * 1000
  return Math.abs(y) <= MAX_SAFE ? y : BigInt.asIntN(64, BigInt(x) * 1000n)
}

function scaleDown(x: number | bigint): number | bigint {
  // toward zero, as QuestDB's toDate (`timestamp / 1000`): -1 µs is 1970-01-01T00:00:00.000Z
  if (typeof x === 'bigint') return i64(x / 1000n)
  return Math.trunc(x / 1000) + 0
}

/** Converts a non-null number-like value to `to`; undefined when the pair does not convert. */
function fromNumeric(x: number | bigint, from: ColumnType, to: ColumnType): Scalar | undefined {
  const fl = isFloating(from)
  if (fl && typeof x === 'number' && !Number.isFinite(x)) {
    // NaN / ±Infinity are null: Java's (int)NaN is 0 for the non-nullable narrow types
    if (to === 'BYTE' || to === 'SHORT') return Number.isNaN(x) ? 0 : to === 'BYTE' ? (saturateInt32(x) << 24) >> 24 : (saturateInt32(x) << 16) >> 16
    if (to === 'BOOLEAN') return false
    return null
  }
  switch (to) {
    case 'BOOLEAN': return typeof x === 'bigint' ? x !== 0n : x !== 0
    case 'BYTE': return ((fl ? saturateInt32(x as number) : int32Bits(x)) << 24) >> 24
    case 'SHORT': return ((fl ? saturateInt32(x as number) : int32Bits(x)) << 16) >> 16
    case 'CHAR': { const c = (fl ? saturateInt32(x as number) : int32Bits(x)) & 0xffff; return c === 0 ? null : String.fromCharCode(c) }
    case 'INT': { const v = fl ? saturateInt32(x as number) : int32Bits(x); return v === -2147483648 ? null : v }
    case 'LONG': case 'TIMESTAMP': case 'DATE': {
      if (fl) return doubleToLong(x as number)
      if (from === 'DATE' && to === 'TIMESTAMP') return scaleUp(x)
      if (from === 'TIMESTAMP' && to === 'DATE') return scaleDown(x)
      return i64(x)
    }
    case 'FLOAT': return Math.fround(Number(x))
    case 'DOUBLE': return Number(x)
    case 'IPV4': { const v = (fl ? saturateInt32(x as number) : int32Bits(x)) >>> 0; return v === 0 ? null : v }
    case 'LONG256': return long256FromBigInt(BigInt.asUintN(64, typeof x === 'bigint' ? x : BigInt(Math.trunc(x))))
    case 'STRING': case 'VARCHAR': case 'SYMBOL': case 'UUID': case 'BINARY': case 'INTERVAL': case 'INTERVAL_NS': case 'NULL': return undefined
    default: return undefined // the array types (array-cast.ts) and DECIMAL (castDecimalScalar)
  }
}

/**
 * Casts one value of `from` to `to`. Null stays null (0 / false for BYTE, SHORT, BOOLEAN).
 * Text that does not convert raises 22P02 `inconvertible value: \`abc\` [STRING -> INT]`
 * (or yields null with `onBadText: 'null'`); `position` goes into the error.
 *
 * @example
 * ```ts
 * castScalar(7234623, 'INT', 'SHORT')     // 25663
 * castScalar('10.2', 'STRING', 'DOUBLE')  // 10.2
 * ```
 */
export function castScalar(value: Scalar, from: ColumnType, to: ColumnType, onBadText: BadTextPolicy = 'throw', position = -1): Scalar {
  if (value === null) return to === 'BYTE' || to === 'SHORT' ? 0 : to === 'BOOLEAN' ? false : null
  if (from === to) return value
  if (isInterval(from) && isInterval(to)) return convertInterval(String(value), to === 'INTERVAL_NS')
  if (isDecimal(from) || isDecimal(to)) return castDecimalScalar(value, from, to, onBadText, position)
  if (isGeohash(from) || isGeohash(to)) return castGeohashScalar(value, from, to, onBadText, position)
  if ((from === 'TIMESTAMP_NS' || to === 'TIMESTAMP_NS') && !isText(to)) return castNsScalar(value, from, to, onBadText, position)
  if (isText(to)) return formatValue(from, value)
  let out: Scalar | undefined
  if (isArrayType(to) || isArrayType(from)) {
    out = castToArray(value, from, to, onBadText === 'null', position)
  } else if (isText(from) || (from === 'CHAR' && (to === 'CHAR' || to === 'UUID' || to === 'IPV4' || to === 'LONG256'))) {
    out = parseText(String(value), to)
  } else {
    const x = numericOf(value, from)
    out = x === undefined ? undefined : fromNumeric(x, from, to)
  }
  if (out !== undefined) return out
  if (onBadText === 'null') return to === 'BYTE' || to === 'SHORT' ? 0 : to === 'BOOLEAN' ? false : null
  throw inconvertible(formatValue(from, value) ?? '', from, to, position)
}
