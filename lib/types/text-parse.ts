/**
 * Parsing text to a value of a type: the string/varchar/symbol side of casts, implicit casts
 * of string literals, and INSERT of text into typed columns. Each parser returns `undefined`
 * when the text does not convert (the caller raises `inconvertible value`), `null` for null.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { geohashBits, geohashFromText, isGeohash } from './geohash.js'
import type { ColumnType } from './column-type.js'
import type { Scalar } from './vector.js'
import { parseTimestampExact } from './timestamp.js'
import { parseUuid, isUuidNull } from './uuid.js'
import { parseIpv4 } from './ipv4.js'
import { parseLong256 } from './long256.js'
import { isArrayType, arrayDims } from './array-type.js'
import { parseArrayText } from './array.js'
import { parseTimestampNsText } from './timestamp-ns-cast.js'

const LONG_MAX = 9223372036854775807n
const LONG_MIN = -9223372036854775808n

/**
 * Parses a decimal integer as QuestDB's `Numbers.parseLong` does (optional sign, digits,
 * `_` separators between digits, an optional trailing `L`). Returns a number when safe, a bigint
 * otherwise, null for -2^63 (the null sentinel), undefined when malformed or out of range.
 */
export function parseLongText(text: string): number | bigint | null | undefined {
  let s = text
  if (s.length > 1 && (s.endsWith('L') || s.endsWith('l'))) s = s.slice(0, -1)
  if (!/^[+-]?\d+(_\d+)*$/.test(s)) return undefined
  if (s.indexOf('_') >= 0) s = s.replace(/_/g, '')
  if (s.length <= 16) {
    const n = Number(s)
    if (Number.isSafeInteger(n)) return n === 0 ? 0 : n
  }
  const b = BigInt(s)
  if (b > LONG_MAX || b < LONG_MIN) return undefined
  if (b === LONG_MIN) return null
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b
}

/** Parses an integer that must fit `lo..hi`; undefined otherwise. */
function parseBounded(text: string, lo: number, hi: number): number | undefined {
  const v = parseLongText(text)
  if (typeof v !== 'number' || v < lo || v > hi) return undefined
  return v
}

const FLOAT_RE = /^[+-]?(\d+(_\d+)*\.?\d*|\.\d+)([eE][+-]?\d+)?[dDfF]?$/

/** Parses a floating-point literal (`1.5`, `-2e10`, `.5`, `NaN`, `Infinity`); undefined when malformed. */
export function parseDoubleText(text: string): number | undefined {
  if (FLOAT_RE.test(text)) {
    const c = text.charCodeAt(text.length - 1) | 32
    const body = c === 100 || c === 102 ? text.slice(0, -1) : text
    return Number(body.indexOf('_') >= 0 ? body.replace(/_/g, '') : body)
  }
  if (text === 'NaN') return NaN
  if (text === 'Infinity' || text === '+Infinity') return Infinity
  if (text === '-Infinity') return -Infinity
  return undefined
}

/**
 * Parses text as a TIMESTAMP: an ISO literal (any prefix, see `parseTimestamp`; `'2021'` is the
 * year), else an integer as microseconds. Undefined when neither.
 */
export function parseTimestampText(text: string): number | bigint | null | undefined {
  const t = parseTimestampExact(text)
  if (t !== null) return t
  return parseLongText(text)
}

/** Parses text as a DATE: an ISO literal floored to the millisecond, else an integer as milliseconds. */
export function parseDateText(text: string): number | null | undefined {
  const t = parseTimestampExact(text)
  if (t !== null) return Math.floor(Number(t) / 1000)
  const n = parseLongText(text)
  return n === undefined || n === null ? n : Number(n)
}

/** Bytes of an even-length hex string. */
function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16)
  return out
}

/**
 * Converts text to a {@link Scalar} of `to`. Returns undefined when the text does not convert.
 * Text types return the text unchanged; BOOLEAN is true only for `true` (any case).
 */
export function parseText(text: string, to: ColumnType): Scalar | undefined {
  if (isArrayType(to)) { try { return parseArrayText(text, arrayDims(to)) } catch { return undefined } }
  if (isGeohash(to)) { const g = geohashFromText(text, geohashBits(to)); return typeof g === 'string' ? undefined : g }
  switch (to) {
    case 'STRING': case 'VARCHAR': case 'SYMBOL': case 'INTERVAL': case 'INTERVAL_NS': return text
    case 'CHAR': return text.length === 0 ? null : text[0]!
    case 'BOOLEAN': return text.length === 4 && text.toLowerCase() === 'true'
    case 'BYTE': return parseBounded(text, -128, 127)
    case 'SHORT': return parseBounded(text, -32768, 32767)
    case 'INT': {
      const v = parseLongText(text)
      if (v === null) return undefined
      if (typeof v !== 'number' || v < -2147483648 || v > 2147483647) return undefined
      return v === -2147483648 ? null : v
    }
    case 'LONG': return parseLongText(text)
    case 'FLOAT': { const v = parseDoubleText(text); return v === undefined ? undefined : Number.isFinite(v) ? Math.fround(v) : null }
    case 'DOUBLE': { const v = parseDoubleText(text); return v === undefined ? undefined : Number.isFinite(v) ? v : null }
    case 'TIMESTAMP': return parseTimestampText(text)
    case 'DATE': return parseDateText(text)
    case 'TIMESTAMP_NS': return parseTimestampNsText(text)
    case 'UUID': { const u = parseUuid(text); return u === null ? undefined : isUuidNull(u) ? null : u }
    case 'IPV4': { const a = parseIpv4(text); return a === null ? undefined : a === 0 ? null : a }
    case 'LONG256': { const h = parseLong256(text); return h === null ? undefined : h }
    // PostgreSQL's bytea hex form ('\x00ff', what psycopg2 sends for bytes), else the text's UTF-8 bytes
    case 'BINARY': return /^\\x(?:[0-9a-fA-F]{2})*$/.test(text) ? hexBytes(text.slice(2)) : new TextEncoder().encode(text)
    case 'NULL': return null
    default: return undefined // DECIMAL: castDecimalScalar
  }
}
