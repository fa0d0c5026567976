/**
 * The canonical text of a value as QuestDB prints it in its text outputs (test TSV, CSV export,
 * casts to STRING/VARCHAR/SYMBOL).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { ColumnType } from './column-type.js'
import type { Scalar } from './vector.js'
import { formatDate, formatTimestamp } from './timestamp.js'
import { formatDouble, formatFloat } from './number-format.js'
import { formatIpv4 } from './ipv4.js'
import { DoubleArray, formatArray } from './array.js'
import { formatDecimal, isDecimal } from './decimal.js'
import { formatGeohash, geohashBits, isGeohash } from './geohash.js'
import { formatTimestampNs } from './timestamp-ns.js'
import { printInterval } from './interval-value.js'

const HEX: string[] = []
for (let k = 0; k < 256; k++) HEX.push((k < 16 ? '0' : '') + k.toString(16))

/**
 * QuestDB's text form of BINARY: a hex dump, 16 bytes a line, each line an 8-digit hex offset
 * followed by the bytes (`00000000 ee 41 1d ...`), lines joined by `\n`.
 */
export function formatBinary(b: Uint8Array): string {
  const lines: string[] = []
  for (let off = 0; off < b.length; off += 16) {
    let line = off.toString(16).padStart(8, '0')
    const end = Math.min(b.length, off + 16)
    for (let i = off; i < end; i++) line += ' ' + HEX[b[i]!]!
    lines.push(line)
  }
  return lines.join('\n')
}

/**
 * The text of `v` (a {@link Scalar} of `type`) as QuestDB prints it, or null for null:
 * TIMESTAMP `2024-01-01T00:00:00.000000Z`, DATE `...T00:00:00.000Z`, DOUBLE/FLOAT Java style
 * (`30.0`, `1.0E7`; NaN/Infinity are null), BOOLEAN `true`/`false`, IPv4 dotted (0.0.0.0 is
 * null), LONG exact, CHAR the character, BINARY a hex dump. The caller decides how a null is
 * shown (`null` for numbers, an empty field for the rest).
 *
 * @example
 * ```ts
 * formatValue('DOUBLE', 30)          // '30.0'
 * formatValue('TIMESTAMP', 2)        // '1970-01-01T00:00:00.000002Z'
 * ```
 */
export function formatValue(type: ColumnType, v: Scalar): string | null {
  if (v === null) return null
  if (v instanceof DoubleArray) return formatArray(v)
  if (isDecimal(type)) return formatDecimal(type, v)
  if (isGeohash(type)) return formatGeohash(v as number | bigint, geohashBits(type))
  switch (type) {
    case 'BOOLEAN': return v === true || (typeof v === 'number' && v !== 0) ? 'true' : 'false'
    case 'BYTE': case 'SHORT': case 'INT': case 'LONG': return String(v)
    case 'FLOAT': { const x = Number(v); return Number.isFinite(x) ? formatFloat(x) : null }
    case 'DOUBLE': { const x = Number(v); return Number.isFinite(x) ? formatDouble(x) : null }
    case 'TIMESTAMP': return formatTimestamp(typeof v === 'bigint' ? v : Number(v))
    case 'DATE': return formatDate(Number(v))
    case 'TIMESTAMP_NS': return formatTimestampNs(typeof v === 'bigint' ? v : Number(v))
    case 'IPV4': { const x = Number(v); return x === 0 ? null : formatIpv4(x) }
    case 'CHAR': return typeof v === 'number' ? (v === 0 ? null : String.fromCharCode(v)) : String(v)
    case 'BINARY': return v instanceof Uint8Array ? formatBinary(v) : String(v)
    case 'STRING': case 'VARCHAR': case 'SYMBOL': case 'UUID': case 'LONG256':
      return typeof v === 'string' ? v : String(v)
    case 'INTERVAL': case 'INTERVAL_NS': return printInterval(String(v))
    case 'NULL': return null
    default: return null // the array types, printed above
  }
}
