/**
 * Per-column JSON encoders for `/exec` datasets, rendering values as QuestDB does (JQPS
 * put*Value): TIMESTAMP/DATE as quoted ISO text, DOUBLE/FLOAT Java-style with NaN/Infinity
 * null, LONG exact past 2^53 (digits written from the integer, never a float), LONG256 `""`
 * when null, GEOHASH its text (`"u33d"`, bits `"0101"`), CHAR `""` when 0, BINARY always `[]`, DOUBLE arrays nested (`[[1.0,2.0]]`, null elements `null`).
 *
 * The reference of `json-rows.ts`, which writes `/exec` rows straight into bytes and falls back
 * to these for the types it has no case for.
 */
import { formatArray, formatDate, formatDouble, formatFloat, formatIpv4, formatTimestamp, getScalar } from '../../../lib/internal.js'
import type { ColumnType, DoubleArray, Vector } from '../../../lib/index.js'
import { jsonString } from './json-string.js'
import { formatGeohash, geohashBits, isDecimal, isGeohash } from '../../../lib/internal.js'
import { decimalJsonEncoder } from './decimal-values.js'
import { nsTextEncoder } from './timestamp-ns-values.js'

/** Encodes row `i` of one column vector as a JSON value. */
export type JsonEncoder = (i: number) => string

const LONG_NULL = -9223372036854775808
const INT_NULL = -2147483648

/**
 * The encoder for `v`, a vector of the result column type `type`. A constant vector is
 * encoded once. With `quoteLargeNum`, LONG values are JSON strings (`"123"`).
 */
export function jsonEncoder(type: ColumnType, v: Vector, quoteLargeNum: boolean): JsonEncoder {
  if (v.isConst) {
    const text = rowEncoder(type, v, quoteLargeNum)(0)
    return () => text
  }
  return rowEncoder(type, v, quoteLargeNum)
}

function rowEncoder(type: ColumnType, v: Vector, quoteLargeNum: boolean): JsonEncoder {
  if (isDecimal(type)) return decimalJsonEncoder(type, v)
  if (isGeohash(type)) { const bits = geohashBits(type); return (i) => { const x = getScalar(v, i); return x === null ? 'null' : '"' + formatGeohash(x as number | bigint, bits) + '"' } }
  if (type === 'TIMESTAMP_NS') return nsTextEncoder(v, 'null')
  switch (v.kind) {
    case 'null': return () => 'null'
    case 'bool': { const d = v.data; return (i) => (d[i] !== 0 ? 'true' : 'false') }
    case 'i8': case 'i16': { const d = v.data; return (i) => String(d[i]) }
    case 'u16': { const d = v.data; return (i) => (d[i] === 0 ? '""' : jsonString(String.fromCharCode(d[i]!))) }
    case 'i32': {
      const d = v.data
      if (type === 'IPV4') return (i) => (d[i] === 0 ? 'null' : '"' + formatIpv4(d[i]!) + '"')
      return (i) => (d[i] === INT_NULL ? 'null' : String(d[i]))
    }
    case 'i64': return i64Encoder(type, v.data, quoteLargeNum)
    case 'f32': { const d = v.data; return (i) => (Number.isFinite(d[i]!) ? formatFloat(d[i]!) : 'null') }
    case 'f64': { const d = v.data; return (i) => (Number.isFinite(d[i]!) ? formatDouble(d[i]!) : 'null') }
    case 'sym': {
      const d = v.data
      const dict = v.dict.values
      const cache: (string | undefined)[] = []
      return (i) => {
        const k = d[i]!
        if (k < 0) return 'null'
        return cache[k] ??= jsonString(dict[k]!)
      }
    }
    case 'str': {
      const d = v.data
      const nullText = type === 'LONG256' ? '""' : 'null'
      return (i) => { const s = d[i]; return s === null || s === undefined ? nullText : jsonString(s) }
    }
    case 'bin': return () => '[]'
    case 'arr': return (i) => { const a = getScalar(v, i) as DoubleArray | null; return a === null ? 'null' : formatArray(a) }
  }
}

function i64Encoder(type: ColumnType, d: Float64Array | BigInt64Array, quoteLargeNum: boolean): JsonEncoder {
  const bigNull = -9223372036854775808n
  switch (type) {
    case 'TIMESTAMP':
      if (d instanceof Float64Array) return (i) => (d[i] === LONG_NULL ? 'null' : '"' + formatTimestamp(d[i]!) + '"')
      return (i) => (d[i] === bigNull ? 'null' : '"' + formatTimestamp(d[i]!) + '"')
    case 'DATE':
      return (i) => (d[i] === LONG_NULL || d[i] === bigNull ? 'null' : '"' + formatDate(Number(d[i]!)) + '"')
    default: {
      const q = quoteLargeNum ? '"' : ''
      if (d instanceof Float64Array) return (i) => (d[i] === LONG_NULL ? 'null' : q + String(d[i]) + q)
      return (i) => (d[i] === bigNull ? 'null' : q + String(d[i]) + q)
    }
  }
}
