/**
 * The INTERVAL value (`interval(lo, hi)`, QuestDB's Interval of two longs) as the engine holds it:
 * text with every digit of its bounds, `('2024-10-08T11:09:47.573123Z', '2024-10-09T11:09:47.573Z')`
 * style with six fraction digits for a TIMESTAMP interval and nine for a TIMESTAMP_NS one. So an
 * interval passed through a subquery, a CTE or a table column keeps its bounds exactly, as QuestDB's
 * does, and `interval_start` / `interval_end` of it return them.
 *
 * QuestDB prints an interval with millisecond bounds (`Interval.toSink`: `toMSecString`); the
 * engine prints it so wherever a value leaves it or becomes text ({@link printInterval}: the
 * result batches of `Database.execute`, casts to text, `formatValue`).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { formatTimestamp, parseTimestamp } from './timestamp.js'
import { formatTimestampNs, parseTimestampNs } from './timestamp-ns.js'

/** The held text of the interval [lo, hi]: microseconds, or nanoseconds when `ns`. */
export function intervalValue(lo: number | bigint, hi: number | bigint, ns: boolean): string {
  const f = ns ? formatTimestampNs : formatTimestamp
  return `('${f(lo)}', '${f(hi)}')`
}

/**
 * An interval's text as QuestDB prints it, bounds to the millisecond (floor: the digits of a
 * calendar text are cut); text already in that form is returned unchanged.
 */
export function printInterval(v: string): string {
  return v.replace(/\.(\d{3})\d+Z/g, '.$1Z')
}

/** The [lo, hi] bounds of a held (or printed) interval, in microseconds (floor), or null when it is not one. */
export function intervalBoundsMicros(v: string): [number, number] | null {
  const m = /^\('([^']*)', '([^']*)'\)$/.exec(v)
  if (m === null) return null
  const lo = parseTimestamp(micros(m[1]!))
  const hi = parseTimestamp(micros(m[2]!))
  return lo === null || hi === null ? null : [Number(lo), Number(hi)]
}

/** The [lo, hi] bounds of a held nanosecond interval, in nanoseconds, or null when it is not one. */
export function intervalBoundsNs(v: string): [number | bigint, number | bigint] | null {
  const m = /^\('([^']*)', '([^']*)'\)$/.exec(v)
  if (m === null) return null
  const lo = parseTimestampNs(m[1]!)
  const hi = parseTimestampNs(m[2]!)
  return lo === null || hi === null ? null : [lo, hi]
}

/**
 * A held interval as the other INTERVAL type holds it: a microsecond interval's bounds with nine
 * fraction digits (`toNs`), or a nanosecond one's cut to six (floor). So each type's text has one
 * form, and two values of one type are equal exactly when their texts are.
 */
export function convertInterval(v: string, toNs: boolean): string {
  return toNs ? v.replace(/\.(\d{6})Z'/g, ".$1000Z'") : v.replace(/\.(\d{6})\d{3}Z'/g, ".$1Z'")
}

/** A timestamp text cut to six fraction digits (the floor microsecond of a calendar text). */
function micros(text: string): string {
  return text.replace(/\.(\d{6})\d+Z$/, '.$1Z')
}
