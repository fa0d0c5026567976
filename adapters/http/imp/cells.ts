/**
 * Text cells of an import: the type a value looks like, and parsing a value for a column type
 * (undefined when it does not parse; an empty cell is null for every type).
 */
import type { ColumnType, DecimalType } from '../../../lib/index.js'
import { arrayDims, geohashBits, geohashFromText, isGeohash, decimalPrecision, decimalScale, decimalScalar, fitsPrecision, isArrayType, parseArrayText, parseTimestampNs, parseUnscaled } from '../../../lib/internal.js'

const INT_RE = /^[-+]?\d+$/
const NUM_RE = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/
const TS_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/
const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
const IPV4_RE = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/
const HEX_RE = /^0x[0-9a-fA-F]{1,64}$/

/** A parsed cell value as `Database.append` takes it. */
export type Cell = number | bigint | string | boolean | null

/** The narrowest type `text` (non-empty) looks like: BOOLEAN, INT, LONG, DOUBLE, TIMESTAMP or STRING. */
export function guessType(text: string): ColumnType {
  if (text === 'true' || text === 'false' || text === 'TRUE' || text === 'FALSE') return 'BOOLEAN'
  if (INT_RE.test(text)) {
    const n = Number(text)
    return Math.abs(n) <= 2147483647 ? 'INT' : 'LONG'
  }
  if (NUM_RE.test(text)) return 'DOUBLE'
  if (TS_RE.test(text)) return 'TIMESTAMP'
  return 'STRING'
}

/** The wider of two guessed types (INT → LONG → DOUBLE; anything else mixed → STRING). */
export function widen(a: ColumnType | undefined, b: ColumnType): ColumnType {
  if (a === undefined || a === b) return b
  const num = ['INT', 'LONG', 'DOUBLE']
  if (num.includes(a) && num.includes(b)) return num[Math.max(num.indexOf(a), num.indexOf(b))] as ColumnType
  return 'STRING'
}

/** Microseconds since the epoch of an ISO-like timestamp, or undefined. */
export function parseIsoMicros(text: string): number | undefined {
  const m = TS_RE.exec(text)
  if (m === null) return undefined
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0))
  if (Number.isNaN(ms)) return undefined
  const frac = m[7] === undefined ? 0 : Math.floor(Number((m[7] + '000000').slice(0, 6)))
  let offset = 0
  if (m[8] !== undefined && m[8] !== 'Z') {
    const z = m[8].replace(':', '')
    offset = (z[0] === '-' ? -1 : 1) * (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5))) * 60_000_000
  }
  return ms * 1000 + frac - offset
}

/** Parses `text` for a column of `type`: null for an empty cell, undefined when it does not parse. */
export function parseCell(type: ColumnType, text: string): Cell | undefined {
  if (text.length === 0) return null
  switch (type) {
    case 'BOOLEAN': {
      const l = text.toLowerCase()
      return l === 'true' ? true : l === 'false' ? false : undefined
    }
    case 'BYTE': case 'SHORT': case 'INT': {
      if (!INT_RE.test(text)) return undefined
      const n = Number(text)
      const lim = type === 'BYTE' ? 127 : type === 'SHORT' ? 32767 : 2147483647
      return Math.abs(n) <= lim ? n : undefined
    }
    case 'LONG': {
      if (!INT_RE.test(text)) return undefined
      const n = Number(text)
      if (Number.isSafeInteger(n)) return n
      const b = BigInt(text)
      return b >= -9223372036854775807n && b <= 9223372036854775807n ? b : undefined
    }
    case 'FLOAT': case 'DOUBLE': {
      if (!NUM_RE.test(text) && text !== 'NaN') return undefined
      return Number(text)
    }
    case 'TIMESTAMP': return parseIsoMicros(text)
    case 'TIMESTAMP_NS': return parseTimestampNs(text) ?? undefined
    case 'DATE': { const us = parseIsoMicros(text); return us === undefined ? undefined : Math.floor(us / 1000) }
    case 'CHAR': return text.length === 1 ? text : undefined
    case 'UUID': return UUID_RE.test(text) ? text : undefined
    case 'IPV4': return IPV4_RE.test(text) ? text : undefined
    case 'LONG256': return HEX_RE.test(text) ? text : undefined
    case 'STRING': case 'VARCHAR': case 'SYMBOL': return text
    case 'BINARY': case 'INTERVAL': case 'INTERVAL_NS': case 'NULL': return undefined
    default:
      if (isArrayType(type)) { try { parseArrayText(text, arrayDims(type)); return text } catch { return undefined } }
      // GEOHASH: base32 text at least as long as the precision needs (its leading bits are kept)
      if (isGeohash(type)) return typeof geohashFromText(text, geohashBits(type)) === 'string' ? undefined : text
      return decimalCell(type as DecimalType, text)
  }
}

/** A DECIMAL cell: its unscaled value (text for p > 18), undefined when it is not a number or does not fit. */
function decimalCell(type: DecimalType, text: string): Cell | undefined {
  const u = parseUnscaled(text, decimalScale(type))
  return u === undefined || !fitsPrecision(u, decimalPrecision(type)) ? undefined : decimalScalar(u, type)
}
