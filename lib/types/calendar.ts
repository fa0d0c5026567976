/**
 * Calendar arithmetic on timestamps (microseconds since the epoch, UTC) for time functions and
 * SAMPLE BY: adding units, flooring/ceiling to strided units, and field extraction. Months clamp
 * the day of month like Java (`2024-01-31` + 1M = `2024-02-29`). Pure arithmetic, no Date.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { civilFromDays, daysFromCivil, daysInMonth, dayOf, floorDiv, isLeapYear, MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE, MICROS_PER_SECOND } from './civil.js'

export { daysInMonth, isLeapYear } from './civil.js'

/** Time units of `dateadd`, `timestamp_floor` and SAMPLE BY: nanos, micros, millis (T), s, m, h, d, w, M, y. */
export type TimeUnit = 'n' | 'u' | 'T' | 's' | 'm' | 'h' | 'd' | 'w' | 'M' | 'y'

/** Microseconds in each fixed-length unit (n is 1/1000; M and y are calendar units). */
export const UNIT_MICROS: Readonly<Record<TimeUnit, number>> = {
  n: 0.001, u: 1, T: 1000, s: MICROS_PER_SECOND, m: MICROS_PER_MINUTE, h: MICROS_PER_HOUR,
  d: MICROS_PER_DAY, w: 7 * MICROS_PER_DAY, M: 0, y: 0,
}

/** True when `s` is a {@link TimeUnit} letter. */
export function isTimeUnit(s: string): s is TimeUnit {
  return s.length === 1 && 'nuTsmhdwMy'.includes(s)
}

/** `ts` plus `n` calendar months, clamping the day of month. */
export function addMonths(ts: number, n: number): number {
  const days = dayOf(ts)
  const inDay = ts - days * MICROS_PER_DAY
  const c = civilFromDays(days)
  const total = c[0]! * 12 + (c[1]! - 1) + n
  const y = Math.floor(total / 12)
  const m = total - y * 12 + 1
  const d = Math.min(c[2]!, daysInMonth(y, m))
  return daysFromCivil(y, m, d) * MICROS_PER_DAY + inDay
}

/** `ts` plus `n` units (`dateadd(unit, n, ts)` without a time zone). */
export function addUnits(ts: number, unit: TimeUnit, n: number): number {
  switch (unit) {
    case 'M': return addMonths(ts, n)
    case 'y': return addMonths(ts, n * 12)
    case 'n': return ts + Math.trunc(n / 1000)
    default: return ts + n * UNIT_MICROS[unit]
  }
}

/** Monday 1969-12-29, where weeks count from. */
const WEEK_ORIGIN = -3 * MICROS_PER_DAY

/**
 * Floors `ts` to a multiple of `stride` units. Fixed units floor from `offsetMicros` (default the
 * epoch; weeks default to Monday 1969-12-29), so `5d` floors `2018-01-01` to `2017-12-30`.
 * Months and years floor on the month count since 1970-01 (shifted by the offset).
 */
export function floorTo(ts: number, unit: TimeUnit, stride = 1, offsetMicros?: number): number {
  const origin = offsetMicros ?? (unit === 'w' ? WEEK_ORIGIN : 0)
  if (unit === 'M' || unit === 'y') {
    const t = ts - origin
    const days = dayOf(t)
    const c = civilFromDays(days)
    const months = (c[0]! - 1970) * 12 + c[1]! - 1
    const step = unit === 'y' ? stride * 12 : stride
    const f = floorDiv(months, step) * step
    const y = 1970 + floorDiv(f, 12)
    return daysFromCivil(y, f - (y - 1970) * 12 + 1, 1) * MICROS_PER_DAY + origin
  }
  const size = unit === 'n' ? Math.max(1, Math.trunc(stride / 1000)) : UNIT_MICROS[unit] * stride
  return floorDiv(ts - origin, size) * size + origin
}

/** The smallest multiple of `stride` units at or after `ts` (see {@link floorTo}). */
export function ceilTo(ts: number, unit: TimeUnit, stride = 1, offsetMicros?: number): number {
  const f = floorTo(ts, unit, stride, offsetMicros)
  return f === ts ? ts : addUnits(f, unit, stride)
}

/** Calendar year of `ts`. */
export function yearOf(ts: number): number { return civilFromDays(dayOf(ts))[0]! }
/** Month 1–12 of `ts`. */
export function monthOf(ts: number): number { return civilFromDays(dayOf(ts))[1]! }
/** Day of month 1–31 of `ts`. */
export function dayOfMonth(ts: number): number { return civilFromDays(dayOf(ts))[2]! }
/** Hour 0–23. */
export function hourOf(ts: number): number { return Math.floor((ts - dayOf(ts) * MICROS_PER_DAY) / MICROS_PER_HOUR) }
/** Minute 0–59. */
export function minuteOf(ts: number): number { return Math.floor((ts - dayOf(ts) * MICROS_PER_DAY) / MICROS_PER_MINUTE) % 60 }
/** Second 0–59. */
export function secondOf(ts: number): number { return Math.floor((ts - dayOf(ts) * MICROS_PER_DAY) / MICROS_PER_SECOND) % 60 }
/** Millisecond of the second, 0–999. */
export function millisOf(ts: number): number { return Math.floor((ts - floorDiv(ts, MICROS_PER_SECOND) * MICROS_PER_SECOND) / 1000) }
/** Microsecond of the millisecond, 0–999. */
export function microsOf(ts: number): number { return ts - floorDiv(ts, 1000) * 1000 }
/** Day of week, 1 = Monday … 7 = Sunday. */
export function dayOfWeek(ts: number): number { return ((dayOf(ts) + 3) % 7 + 7) % 7 + 1 }
/** Day of week, 1 = Sunday … 7 = Saturday. */
export function dayOfWeekSundayFirst(ts: number): number { return dayOfWeek(ts) % 7 + 1 }
/** Day of year, 1–366. */
export function dayOfYear(ts: number): number { const d = dayOf(ts); return d - daysFromCivil(civilFromDays(d)[0]!, 1, 1) + 1 }
/** Quarter 1–4. */
export function quarterOf(ts: number): number { return Math.floor((monthOf(ts) - 1) / 3) + 1 }
/** Days in the month of `ts`. */
export function daysInMonthOf(ts: number): number { const c = civilFromDays(dayOf(ts)); return daysInMonth(c[0]!, c[1]!) }
/** True when `ts` is in a leap year. */
export function isLeapYearOf(ts: number): boolean { return isLeapYear(yearOf(ts)) }

/** ISO-8601 week-based year and week number of `ts`: [isoYear, week 1–53]. */
export function isoWeek(ts: number): [number, number] {
  const d = dayOf(ts)
  const thursday = d - (dayOfWeekOfDay(d) - 1) + 3
  const y = civilFromDays(thursday)[0]!
  return [y, Math.floor((thursday - daysFromCivil(y, 1, 1)) / 7) + 1]
}

function dayOfWeekOfDay(d: number): number { return ((d + 3) % 7 + 7) % 7 + 1 }

/** ISO week of year, 1–53 (`week_of_year`, `extract(week ...)`). */
export function weekOfYear(ts: number): number { return isoWeek(ts)[1] }

/** Start of the day of `ts` (00:00 UTC). */
export function startOfDay(ts: number): number { return dayOf(ts) * MICROS_PER_DAY }
