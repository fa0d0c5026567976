/**
 * Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01), after Howard
 * Hinnant's `days_from_civil` / `civil_from_days`. Pure integer arithmetic on numbers: no Date
 * objects, no allocation, so it can run per row.
 *
 * Browser-safe: imports nothing from `node:*`.
 */

/** Microseconds in one day. */
export const MICROS_PER_DAY = 86_400_000_000
/** Microseconds in one hour. */
export const MICROS_PER_HOUR = 3_600_000_000
/** Microseconds in one minute. */
export const MICROS_PER_MINUTE = 60_000_000
/** Microseconds in one second. */
export const MICROS_PER_SECOND = 1_000_000
/** Milliseconds in one day. */
export const MILLIS_PER_DAY = 86_400_000

/** True when `y` (astronomical year numbering) is a Gregorian leap year. */
export function isLeapYear(y: number): boolean {
  return (y & 3) === 0 && (y % 100 !== 0 || y % 400 === 0)
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** Days in month `m` (1–12) of year `y`. */
export function daysInMonth(y: number, m: number): number {
  return m === 2 && isLeapYear(y) ? 29 : DAYS_IN_MONTH[m - 1]!
}

/** Day number (days since 1970-01-01, may be negative) of the civil date y-m-d (m 1–12). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y
  const era = Math.floor(yy / 400)
  const yoe = yy - era * 400
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}

/**
 * Scratch output of {@link civilFromDays}: [year, month (1–12), day (1–31)]. Reused by every
 * call so the per-row path allocates nothing; copy the values out before the next call.
 */
export const CIVIL = new Int32Array(3)

/** Converts a day number to a civil date, written to {@link CIVIL}. */
export function civilFromDays(days: number): Int32Array {
  const z = days + 719468
  const era = Math.floor(z / 146097)
  const doe = z - era * 146097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1
  const m = mp < 10 ? mp + 3 : mp - 9
  CIVIL[0] = yoe + era * 400 + (m <= 2 ? 1 : 0)
  CIVIL[1] = m
  CIVIL[2] = d
  return CIVIL
}

/** Floor of `micros / MICROS_PER_DAY`, exact for every safe integer. */
export function dayOf(micros: number): number {
  let days = Math.floor(micros / MICROS_PER_DAY)
  const rem = micros - days * MICROS_PER_DAY
  if (rem < 0) days--
  else if (rem >= MICROS_PER_DAY) days++
  return days
}

/** Floor division `a / b` for integers, exact when `a` is a safe integer and `b > 0`. */
export function floorDiv(a: number, b: number): number {
  let q = Math.floor(a / b)
  const r = a - q * b
  if (r < 0) q--
  else if (r >= b) q++
  return q
}

/** Floor modulo: `a - floorDiv(a, b) * b`, in [0, b). */
export function floorMod(a: number, b: number): number {
  return a - floorDiv(a, b) * b
}
