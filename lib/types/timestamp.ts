/**
 * QuestDB timestamp literals: parsing ISO prefixes to microseconds since the epoch (and to the
 * period a partial literal covers), and printing timestamps and dates the way QuestDB prints
 * them (`2024-01-01T00:00:00.000001Z`, `2024-01-01T00:00:00.000Z`).
 *
 * Pure integer arithmetic (see `civil.ts`); no Date objects, so formatting can run per row.
 * Browser-safe: imports nothing from `node:*`.
 */
import { civilFromDays, daysFromCivil, daysInMonth, dayOf, floorDiv, MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE, MICROS_PER_SECOND, MILLIS_PER_DAY } from './civil.js'

/** How much of a timestamp literal was written: the unit of its last field. */
export type TimestampPrecision = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'fraction'

/** The fields of a parsed timestamp literal. */
export interface TimestampParts {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
  /** fraction of the second in microseconds (digits past the 6th are truncated) */
  micros: number
  /** the 7th to 9th fraction digits, in nanoseconds (0–999; TIMESTAMP_NS keeps them) */
  nanos: number
  /** number of fraction digits written (0 when none) */
  fractionDigits: number
  precision: TimestampPrecision
  /** the zone offset written in the literal, in microseconds east of UTC (0 for `Z` or none) */
  offsetMicros: number
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER

function digits(s: string, at: number, n: number): number {
  if (at + n > s.length) return -1
  let v = 0
  for (let k = 0; k < n; k++) {
    const c = s.charCodeAt(at + k) - 48
    if (c < 0 || c > 9) return -1
    v = v * 10 + c
  }
  return v
}

/**
 * Parses the fields of an ISO timestamp literal as QuestDB accepts it: any prefix of
 * `yyyy-MM-ddTHH:mm:ss.ffffff` (`T` or a space between date and time, 1–9 fraction digits),
 * then `Z`, `±HH`, `±HH:mm`, `±HHmm` or nothing (UTC). Returns null when `text` is not one.
 */
export function parseTimestampParts(text: string): TimestampParts | null {
  const len = text.length
  const year = digits(text, 0, 4)
  if (year < 0) return null
  const p: TimestampParts = { year, month: 1, day: 1, hour: 0, minute: 0, second: 0, micros: 0, nanos: 0, fractionDigits: 0, precision: 'year', offsetMicros: 0 }
  let i = 4
  if (i < len && text.charCodeAt(i) === 45 /* - */) {
    p.month = digits(text, i + 1, 2)
    if (p.month < 1 || p.month > 12) return null
    i += 3
    p.precision = 'month'
    if (i < len && text.charCodeAt(i) === 45) {
      p.day = digits(text, i + 1, 2)
      if (p.day < 1 || p.day > daysInMonth(year, p.month)) return null
      i += 3
      p.precision = 'day'
      const sep = text.charCodeAt(i)
      if (i < len && (sep === 84 /* T */ || sep === 32 /* space */) && i + 1 < len && text.charCodeAt(i + 1) !== 90 /* Z */) {
        p.hour = digits(text, i + 1, 2)
        if (p.hour < 0 || p.hour > 23) return null
        i += 3
        p.precision = 'hour'
        if (i < len && text.charCodeAt(i) === 58 /* : */) {
          p.minute = digits(text, i + 1, 2)
          if (p.minute < 0 || p.minute > 59) return null
          i += 3
          p.precision = 'minute'
          if (i < len && text.charCodeAt(i) === 58) {
            p.second = digits(text, i + 1, 2)
            if (p.second < 0 || p.second > 59) return null
            i += 3
            p.precision = 'second'
            if (i < len && text.charCodeAt(i) === 46 /* . */) {
              i++
              let n = 0
              let f = 0
              let g = 0
              while (i < len) {
                const c = text.charCodeAt(i) - 48
                if (c < 0 || c > 9) break
                if (n < 6) f = f * 10 + c
                else g = g * 10 + c
                n++
                i++
              }
              if (n === 0 || n > 9) return null
              for (let k = n; k < 6; k++) f *= 10
              for (let k = Math.max(n, 6); k < 9; k++) g *= 10
              p.micros = f
              p.nanos = g
              p.fractionDigits = n
              p.precision = 'fraction'
            }
          }
        }
      }
    }
  }
  if (i < len) {
    const c = text.charCodeAt(i)
    if ((c === 90 || c === 122) /* Z z */ && p.precision !== 'year' && p.precision !== 'month') {
      i++
    } else if ((c === 43 || c === 45) /* + - */ && p.precision !== 'year' && p.precision !== 'month' && p.precision !== 'day') {
      const oh = digits(text, i + 1, 2)
      if (oh < 0 || oh > 23) return null
      i += 3
      let om = 0
      if (i < len) {
        if (text.charCodeAt(i) === 58) { om = digits(text, i + 1, 2); i += 3 } else { om = digits(text, i, 2); i += 2 }
        if (om < 0 || om > 59) return null
      }
      p.offsetMicros = (c === 45 ? -1 : 1) * (oh * 60 + om) * MICROS_PER_MINUTE
    }
  }
  return i === len ? p : null
}

/** Seconds since the epoch of the local (un-offset) fields. */
function localSeconds(p: TimestampParts): number {
  return daysFromCivil(p.year, p.month, p.day) * 86400 + p.hour * 3600 + p.minute * 60 + p.second
}

/**
 * Microseconds since the epoch (UTC) of a timestamp literal, exact as a bigint when the value is
 * past the safe-integer range (after the year 2255); null when `text` is not a timestamp.
 */
export function parseTimestampExact(text: string): number | bigint | null {
  const p = parseTimestampParts(text)
  if (p === null) return null
  const sec = localSeconds(p)
  const v = sec * MICROS_PER_SECOND + p.micros - p.offsetMicros
  if (Math.abs(v) <= MAX_SAFE) return v
  return BigInt(sec) * 1_000_000n + BigInt(p.micros - p.offsetMicros)
}

/**
 * Parses a QuestDB timestamp literal (any ISO prefix, see {@link parseTimestampParts}) to
 * microseconds since the epoch, UTC; the floor of the literal's period. Null when unparseable.
 *
 * @example
 * ```ts
 * formatTimestamp(parseTimestamp('2026-01-12T12:35:26.123456+01:30')!) // '2026-01-12T11:05:26.123456Z'
 * ```
 */
export function parseTimestamp(text: string): number | null {
  const v = parseTimestampExact(text)
  return typeof v === 'bigint' ? Number(v) : v
}

/** The inclusive micro interval covered by a parsed literal (`'2020'` is the whole year). */
export function periodOf(p: TimestampParts): { lo: number; hi: number } {
  const lo = localSeconds(p) * MICROS_PER_SECOND + p.micros
  let end: number
  switch (p.precision) {
    case 'year': end = daysFromCivil(p.year + 1, 1, 1) * MICROS_PER_DAY; break
    case 'month': end = (p.month === 12 ? daysFromCivil(p.year + 1, 1, 1) : daysFromCivil(p.year, p.month + 1, 1)) * MICROS_PER_DAY; break
    case 'day': end = lo + MICROS_PER_DAY; break
    case 'hour': end = lo + MICROS_PER_HOUR; break
    case 'minute': end = lo + MICROS_PER_MINUTE; break
    case 'second': end = lo + MICROS_PER_SECOND; break
    case 'fraction': end = lo + (p.fractionDigits >= 6 ? 1 : 10 ** (6 - p.fractionDigits)); break
  }
  return { lo: lo - p.offsetMicros, hi: end - 1 - p.offsetMicros }
}

/**
 * The nanoseconds past the microseconds of {@link periodOf}'s bounds (0-999), for a
 * TIMESTAMP_NS column: a literal with seven to nine fraction digits starts at its nanosecond and
 * ends at the last nanosecond its digits cover (`.123456789` is one nanosecond, `.1234567` a
 * hundred); any other period ends with its last microsecond's last nanosecond.
 */
export function periodSubs(p: TimestampParts): { loSub: number; hiSub: number } {
  if (p.precision !== 'fraction' || p.fractionDigits <= 6) return { loSub: 0, hiSub: 999 }
  return { loSub: p.nanos, hiSub: p.nanos + 10 ** (9 - Math.min(9, p.fractionDigits)) - 1 }
}

/**
 * The period a timestamp literal stands for in `ts IN '...'`: `'2020-01-01'` is
 * [2020-01-01T00:00:00.000000, 2020-01-01T23:59:59.999999], `'2020'` the whole year,
 * `'...T10'` the hour, a full-precision literal a single microsecond. Null when unparseable.
 */
export function parseTimestampPeriod(text: string): { lo: number; hi: number } | null {
  const p = parseTimestampParts(text)
  return p === null ? null : periodOf(p)
}

const TWO: string[] = []
for (let k = 0; k < 100; k++) TWO.push(k < 10 ? '0' + k : String(k))

function yearText(y: number): string {
  const a = y < 0 ? -y : y
  const t = a >= 1000 ? String(a) : String(a + 10000).slice(1)
  return y < 0 ? '-' + t : t
}

function dateTimeText(days: number, msOfDay: number): string {
  const c = civilFromDays(days)
  const h = Math.floor(msOfDay / 3600)
  const rem = msOfDay - h * 3600
  const m = Math.floor(rem / 60)
  return yearText(c[0]!) + '-' + TWO[c[1]!]! + '-' + TWO[c[2]!]! + 'T' + TWO[h]! + ':' + TWO[m]! + ':' + TWO[rem - m * 60]!
}

/**
 * Prints microseconds since the epoch as QuestDB does: `yyyy-MM-ddTHH:mm:ss.SSSUUUZ`, always six
 * fraction digits, correct before 1970 and past 9999. Accepts a bigint for values past 2^53.
 */
export function formatTimestamp(micros: number | bigint): string {
  let days: number
  let inDay: number
  if (typeof micros === 'bigint') {
    let d = micros / 86_400_000_000n
    let r = micros - d * 86_400_000_000n
    if (r < 0n) { d -= 1n; r += 86_400_000_000n }
    days = Number(d)
    inDay = Number(r)
  } else {
    days = dayOf(micros)
    inDay = micros - days * MICROS_PER_DAY
  }
  const sec = Math.floor(inDay / MICROS_PER_SECOND)
  const frac = inDay - sec * MICROS_PER_SECOND
  return dateTimeText(days, sec) + '.' + String(frac + 1_000_000).slice(1) + 'Z'
}

/** Prints milliseconds since the epoch as QuestDB prints a DATE: `yyyy-MM-ddTHH:mm:ss.SSSZ`. */
export function formatDate(millis: number): string {
  const days = floorDiv(millis, MILLIS_PER_DAY)
  const inDay = millis - days * MILLIS_PER_DAY
  const sec = Math.floor(inDay / 1000)
  return dateTimeText(days, sec) + '.' + String(inDay - sec * 1000 + 1000).slice(1) + 'Z'
}
