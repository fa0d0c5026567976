/**
 * Turns result values (the JS values `Database.query` returns) into the text the `.test` files
 * compare against: QuestDB's text forms, `NULL` for null, `(empty)` for an empty string.
 */
import { formatDate, formatTimestamp } from '../../../lib/types/timestamp.js'
import { formatDouble, formatFloat } from '../../../lib/types/number-format.js'
import type { Flavor } from './slt-types.js'

/** The text of a null value. */
export const NULL_TEXT = 'NULL'
/** The text of an empty string (an empty field would be invisible in a whitespace-separated row). */
export const EMPTY_TEXT = '(empty)'

const INTEGER_TYPES: ReadonlySet<string> = new Set(['BYTE', 'SHORT', 'INT', 'LONG'])
const REAL_TYPES: ReadonlySet<string> = new Set(['FLOAT', 'DOUBLE'])

/** True for BYTE, SHORT, INT and LONG. */
export function isIntegerType(type: string): boolean {
  return INTEGER_TYPES.has(type.toUpperCase())
}

/** True for FLOAT, DOUBLE and DECIMAL(p,s). */
export function isRealType(type: string): boolean {
  const t = type.toUpperCase()
  return REAL_TYPES.has(t) || t.startsWith('DECIMAL')
}

/** The sqllogictest type letter of a column type: I integer, R real, T anything else. */
export function typeLetter(type: string): 'I' | 'R' | 'T' {
  return isIntegerType(type) ? 'I' : isRealType(type) ? 'R' : 'T'
}

function hex(bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) s += (b < 16 ? '0' : '') + b.toString(16)
  return s
}

function formatArray(v: readonly unknown[]): string {
  return '[' + v.map(e => (Array.isArray(e) ? formatArray(e) : typeof e === 'number' ? formatDouble(e) : e === null ? 'null' : String(e))).join(',') + ']'
}

function formatReal(v: number, type: string, flavor: Flavor): string {
  if (!Number.isFinite(v)) return NULL_TEXT
  if (flavor === 'questdb') return v.toFixed(6)
  return type.toUpperCase() === 'FLOAT' ? formatFloat(v) : formatDouble(v)
}

function formatNanos(v: bigint | number): string {
  const n = BigInt(v)
  let micros = n / 1000n
  let rest = n - micros * 1000n
  if (rest < 0n) { micros -= 1n; rest += 1000n }
  return formatTimestamp(micros).slice(0, -1) + String(rest + 1000n).slice(1) + 'Z'
}

/**
 * Formats one value of a column of the given type (QuestDB's printed type name).
 *
 * @example
 * ```ts
 * formatValue(30, 'DOUBLE', 'epochdb')                           // '30.0'
 * formatValue(1704067200000000n, 'TIMESTAMP', 'epochdb')        // '2024-01-01T00:00:00.000000Z'
 * formatValue(null, 'INT', 'epochdb')                            // 'NULL'
 * ```
 */
export function formatValue(v: unknown, type: string, flavor: Flavor): string {
  if (v === null || v === undefined) return NULL_TEXT
  const t = type.toUpperCase()
  if (typeof v === 'string') return v === '' ? EMPTY_TEXT : v
  if (typeof v === 'boolean') return v ? 'true' : 'false'
  if (v instanceof Date) {
    const ms = v.getTime()
    if (Number.isNaN(ms)) return NULL_TEXT
    return flavor === 'questdb' ? formatTimestamp(ms * 1000) : formatDate(ms)
  }
  if (v instanceof Uint8Array) return hex(v)
  if (Array.isArray(v)) return formatArray(v)
  if (typeof v === 'number' || typeof v === 'bigint') {
    if (t === 'TIMESTAMP' || t === 'DATE') {
      if (typeof v === 'number' && !Number.isFinite(v)) return NULL_TEXT
      const micros = t === 'DATE' ? (typeof v === 'bigint' ? v * 1000n : v * 1000) : v
      return t === 'DATE' && flavor === 'epochdb' ? formatDate(Number(v)) : formatTimestamp(micros)
    }
    if (t === 'TIMESTAMP_NS') return formatNanos(v)
    if (typeof v === 'number' && (REAL_TYPES.has(t) || t.startsWith('DECIMAL') || !Number.isInteger(v))) return formatReal(v, t, flavor)
    return String(v)
  }
  return String(v)
}

const TIMESTAMP_TEXT = /\b(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z?/g

/**
 * Rewrites every timestamp in an expected row of a QuestDB file into EpochDB's ISO form with six
 * fraction digits (`2024-12-02 18:00:00` → `2024-12-02T18:00:00.000000Z`), so that it compares
 * equal to a formatted TIMESTAMP value whichever `control iso_timestamp` the file uses.
 */
export function normaliseQuestDbTimestamps(line: string): string {
  return line.replace(TIMESTAMP_TEXT, (_m, date: string, time: string, frac: string | undefined) => {
    const f = (frac ?? '').padEnd(6, '0')
    return `${date}T${time}.${f.length > 6 && f.endsWith('000') ? f.slice(0, 6) : f}Z`
  })
}
