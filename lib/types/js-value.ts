/**
 * Conversions between the engine's {@link Scalar} form and the plain JavaScript values library
 * users see in result rows and pass as query parameters.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { ColumnType } from './column-type.js'
import type { Scalar } from './vector.js'
import { SqlError, SqlState } from '../errors.js'
import { castScalar } from './cast-scalar.js'
import { formatIpv4 } from './ipv4.js'
import { isArrayType, arrayDims } from './array-type.js'
import { DoubleArray, arrayFromNested, arrayToNested } from './array.js'
import { formatDecimal, isDecimal } from './decimal.js'
import { formatGeohash, geohashBits, isGeohash } from './geohash.js'

/** The JavaScript value of a cell in a result row. */
export type JsValue = boolean | number | bigint | string | Date | Uint8Array | JsArray | null

/** A DOUBLE array as nested JavaScript arrays (`[[1, 2], [3, 4]]`; null elements are null). */
export type JsArray = (number | null | JsArray)[]

/**
 * The public JS value of a scalar: BOOLEAN boolean; BYTE/SHORT/INT/FLOAT/DOUBLE number;
 * LONG and TIMESTAMP (microseconds) bigint; DATE a `Date`; CHAR/STRING/VARCHAR/SYMBOL/UUID/LONG256
 * string; IPv4 dotted string; BINARY Uint8Array; DECIMAL its exact text (`'12.50'`); null → null.
 */
export function toJsValue(type: ColumnType, v: Scalar): JsValue {
  if (v === null) return null
  if (v instanceof DoubleArray) return arrayToNested(v) as JsArray
  if (isDecimal(type)) return formatDecimal(type, v)
  if (isGeohash(type)) return formatGeohash(v as number | bigint, geohashBits(type))
  switch (type) {
    case 'BOOLEAN': return v === true || (typeof v === 'number' && v !== 0)
    case 'BYTE': case 'SHORT': case 'INT': case 'FLOAT': case 'DOUBLE': {
      const x = Number(v)
      return Number.isFinite(x) ? x : null
    }
    case 'LONG': case 'TIMESTAMP': case 'TIMESTAMP_NS': return typeof v === 'bigint' ? v : BigInt(Number(v))
    case 'DATE': return new Date(Number(v))
    case 'IPV4': { const x = Number(v); return x === 0 ? null : formatIpv4(x) }
    case 'BINARY': return v instanceof Uint8Array ? v : null
    case 'CHAR': case 'STRING': case 'VARCHAR': case 'SYMBOL': case 'UUID': case 'LONG256': case 'INTERVAL': case 'INTERVAL_NS':
      return typeof v === 'string' ? v : String(v)
    case 'NULL': return null
    default: return null // the array types, converted above
  }
}

function badParam(what: string, to: ColumnType): SqlError {
  return new SqlError(SqlState.INVALID_TEXT_REPRESENTATION, `inconvertible value: ${what} [parameter -> ${to === 'IPV4' ? 'IPv4' : to}]`)
}

/**
 * Converts a query parameter given as a JS value to a {@link Scalar} of `type`. Accepts
 * number, bigint, string (parsed as the type's text), boolean, Date (as the instant), Uint8Array
 * (BINARY only) and null/undefined. Values that do not convert raise 22P02.
 *
 * @example
 * ```ts
 * fromJsValue('TIMESTAMP', new Date('2024-01-01T00:00:00Z')) // 1704067200000000
 * fromJsValue('INT', '42')                                   // 42
 * ```
 */
export function fromJsValue(type: ColumnType, js: unknown): Scalar {
  if (js === null || js === undefined) return castScalar(null, 'NULL', type)
  if (isArrayType(type) && typeof js === 'object') return arrayParam(js, type)
  switch (typeof js) {
    case 'string': return castScalar(js, 'STRING', type)
    case 'boolean': return castScalar(js, 'BOOLEAN', type)
    case 'bigint': {
      const b = BigInt.asIntN(64, js)
      if (b !== js) throw new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, `value out of range for ${type}: ${js}`)
      return castScalar(b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b, 'LONG', type)
    }
    case 'number':
      if (Number.isSafeInteger(js)) return castScalar(js, 'LONG', type)
      return castScalar(js, 'DOUBLE', type)
    case 'object':
      if (js instanceof Date) {
        const ms = js.getTime()
        if (Number.isNaN(ms)) throw badParam('Invalid Date', type)
        if (type === 'DATE') return ms
        return castScalar(ms * 1000, 'TIMESTAMP', type)
      }
      if (js instanceof Uint8Array) {
        if (type === 'BINARY') return js
        throw badParam('Uint8Array', type)
      }
      throw badParam(Object.prototype.toString.call(js), type)
    default:
      throw badParam(typeof js, type)
  }
}

/** An array parameter from nested JS arrays (or a Float64Array): it must have the type's dimension count. */
function arrayParam(js: object, type: ColumnType): Scalar {
  const a = arrayFromNested(js)
  if (a === undefined || a.dims !== arrayDims(type)) throw badParam(Array.isArray(js) ? 'array of another shape' : Object.prototype.toString.call(js), type)
  return a
}
