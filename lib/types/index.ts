/**
 * Data types, value codecs, casts, and timestamp/interval parsing and printing: the public pieces
 * of `lib/types`. Browser-safe: nothing here imports `node:*`.
 */
export * from './column-type.js'
export * from './vector.js'
export { parseTimestamp, parseTimestampExact, parseTimestampPeriod, parseTimestampParts, periodOf, formatTimestamp, formatDate } from './timestamp.js'
export { formatTimestampNs, parseTimestampNs, parseTimestampNsPeriod } from './timestamp-ns.js'
export type { TimestampParts, TimestampPrecision } from './timestamp.js'
export { formatDouble, formatFloat } from './number-format.js'
export { parseUuid, isUuidNull, UUID_NULL_TEXT, uuidFromHalves, uuidToHalves } from './uuid.js'
export { parseIpv4, formatIpv4, parseIpv4Subnet } from './ipv4.js'
export type { Ipv4Subnet } from './ipv4.js'
export { parseLong256, long256FromBigInt, long256ToBigInt } from './long256.js'
export { parseText, parseLongText, parseDoubleText, parseTimestampText, parseDateText } from './text-parse.js'
export { castVector, castScalar, canCast, canImplicitlyCast, inconvertible } from './cast.js'
export type { CastOptions, BadTextPolicy } from './cast.js'
export { formatValue, formatBinary } from './value-format.js'
export { toJsValue, fromJsValue } from './js-value.js'
export type { JsValue } from './js-value.js'
export {
  parseInterval, parseDuration, addDuration, MAX_INTERVAL_REPEATS,
  normalizeIntervals, unionIntervals, intersectIntervals, invertIntervals, intervalsContain, ALL_TIME,
} from './interval.js'
export type { Duration, IntervalSet } from './interval.js'
export {
  addUnits, addMonths, floorTo, ceilTo, isTimeUnit, UNIT_MICROS, daysInMonth, isLeapYear,
  yearOf, monthOf, dayOfMonth, hourOf, minuteOf, secondOf, millisOf, microsOf, dayOfWeek, dayOfWeekSundayFirst,
  dayOfYear, quarterOf, daysInMonthOf, isLeapYearOf, isoWeek, weekOfYear, startOfDay,
} from './calendar.js'
export type { TimeUnit } from './calendar.js'
export { tzOffsetMicros, utcToLocal, localToUtc, addUnitsInZone, isValidTimeZone } from './time-zone.js'
export { parseUtcOffset, type UtcOffsetRules } from './utc-offset.js'
export { daysFromCivil, civilFromDays, MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE, MICROS_PER_SECOND } from './civil.js'
