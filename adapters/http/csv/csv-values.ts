/**
 * Per-column CSV encoders for `/exp`, as QuestDB writes them (EQP putValue): strings, symbols,
 * dates and timestamps quoted; numbers, booleans, UUID, IPv4, LONG256 and GEOHASH bare; null an empty
 * field (GEOHASH's null is the word `null`); BINARY always empty. Inside quotes `"` is doubled, `\` is doubled and control
 * characters use JSON-style escapes (Utf8Sink.escapeCsvStr), which is not RFC 4180.
 *
 * The reference of `csv-rows.ts`, which writes `/exp` rows straight into bytes and falls back to
 * these for the types it has no case for.
 */
import { formatGeohash, geohashBits, isDecimal, isGeohash } from '../../../lib/internal.js'
import { decimalCsvEncoder } from '../json/decimal-values.js'
import { nsTextEncoder } from '../json/timestamp-ns-values.js'
import { formatArray, formatDate, formatDouble, formatFloat, formatIpv4, formatTimestamp, getScalar } from '../../../lib/internal.js'
import type { ColumnType, DoubleArray, Vector } from '../../../lib/index.js'

/** Encodes row `i` of one column vector as a CSV field. */
export type CsvEncoder = (i: number) => string

const LONG_NULL = -9223372036854775808
const BIG_NULL = -9223372036854775808n
const INT_NULL = -2147483648
const SPECIAL = /["\\\u0000-\u001f]/

/** `s` quoted with QuestDB's CSV escaping. */
export function csvQuote(s: string): string {
  if (!SPECIAL.test(s)) return '"' + s + '"'
  let out = '"'
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    switch (c) {
      case 34: out += '""'; break
      case 92: out += '\\\\'; break
      case 8: out += '\\b'; break
      case 9: out += '\\t'; break
      case 10: out += '\\n'; break
      case 12: out += '\\f'; break
      case 13: out += '\\r'; break
      default: out += c < 32 ? '\\u00' + (c < 16 ? '0' : '') + c.toString(16) : s[i]
    }
  }
  return out + '"'
}

/** The encoder for `v`, a vector of the result column type `type`. Constant vectors are encoded once. */
export function csvEncoder(type: ColumnType, v: Vector): CsvEncoder {
  if (v.isConst) {
    const text = rowEncoder(type, v)(0)
    return () => text
  }
  return rowEncoder(type, v)
}

function rowEncoder(type: ColumnType, v: Vector): CsvEncoder {
  if (isDecimal(type)) return decimalCsvEncoder(type, v)
  // GEOHASH bare; its null is the bare word null (QuestDB's quirk)
  if (isGeohash(type)) { const bits = geohashBits(type); return (i) => { const x = getScalar(v, i); return x === null ? 'null' : formatGeohash(x as number | bigint, bits) } }
  if (type === 'TIMESTAMP_NS') return nsTextEncoder(v, '')
  switch (v.kind) {
    case 'null': case 'bin': return () => ''
    case 'arr': return (i) => { const a = getScalar(v, i) as DoubleArray | null; return a === null ? '' : '"' + formatArray(a) + '"' }
    case 'bool': { const d = v.data; return (i) => (d[i] !== 0 ? 'true' : 'false') }
    case 'i8': case 'i16': { const d = v.data; return (i) => String(d[i]) }
    case 'u16': { const d = v.data; return (i) => (d[i] === 0 ? '' : String.fromCharCode(d[i]!)) }
    case 'i32': {
      const d = v.data
      if (type === 'IPV4') return (i) => (d[i] === 0 ? '' : formatIpv4(d[i]!))
      return (i) => (d[i] === INT_NULL ? '' : String(d[i]))
    }
    case 'i64': {
      const d = v.data
      if (type === 'TIMESTAMP') return (i) => (d[i] === LONG_NULL || d[i] === BIG_NULL ? '' : '"' + formatTimestamp(d[i]!) + '"')
      if (type === 'DATE') return (i) => (d[i] === LONG_NULL || d[i] === BIG_NULL ? '' : '"' + formatDate(Number(d[i]!)) + '"')
      return (i) => (d[i] === LONG_NULL || d[i] === BIG_NULL ? '' : String(d[i]))
    }
    case 'f32': { const d = v.data; return (i) => (Number.isFinite(d[i]!) ? formatFloat(d[i]!) : '') }
    case 'f64': { const d = v.data; return (i) => (Number.isFinite(d[i]!) ? formatDouble(d[i]!) : '') }
    case 'sym': {
      const d = v.data
      const dict = v.dict.values
      const cache: (string | undefined)[] = []
      return (i) => {
        const k = d[i]!
        return k < 0 ? '' : (cache[k] ??= csvQuote(dict[k]!))
      }
    }
    case 'str': {
      const d = v.data
      const bare = type === 'UUID' || type === 'LONG256'
      return (i) => {
        const s = d[i]
        if (s === null || s === undefined) return ''
        return bare ? s : csvQuote(s)
      }
    }
  }
}
