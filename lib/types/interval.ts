/**
 * QuestDB interval strings for `ts IN '...'` (2026 TICK semantics for durations):
 *
 * - a timestamp prefix stands for its whole period: `'2024'`, `'2024-01'`, `'2024-01-15'`,
 *   `'2024-01-15T10'` (see `parseTimestampPeriod`);
 * - `'<ts>;<dur>'` extends the END of the literal's period by `dur` (QuestDB's
 *   `IntervalUtilsTest`, `WhereClauseParserTest.testComplexInterval1`): `'2015-02-23T10:00;2d'`
 *   is [2015-02-23T10:00:00, 2015-02-25T10:00:59.999999], `'2026;1M'` is all of 2026 and
 *   January 2027; a literal with a fraction of a second is an instant
 *   (`'...10:00:55.000Z;15s'` ends at 10:01:10.000000). Durations take units u, T (millis),
 *   s, m, h, d, w, M, y and may be composite (`2h30m`); a negative duration moves the end back
 *   (`'2026-04;-3d'`);
 * - `'<ts>;<dur>;<period>;<count>'` repeats that interval `count` times, `period` apart
 *   (a negative count goes backwards); overlapping repeats merge (`'2016-03-21;3y;6M;5'`).
 *
 * - TICK syntax (brackets, `$today`, `@zone`, `#workday`, ISO weeks) goes to tick.ts.
 *
 * The result is an {@link IntervalSet}: sorted, merged, inclusive pairs of microseconds.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../errors.js'
import { parseTimestampParts, periodOf, periodSubs } from './timestamp.js'
import { addUnits, isTimeUnit, type TimeUnit } from './calendar.js'
import { type IntervalSet, normalizeIntervals } from './interval-set.js'
import { isTick, microPairs, tickQuads } from './tick.js'

export * from './interval-set.js'

/** Upper bound on the number of intervals a repeating interval string may produce. */
export const MAX_INTERVAL_REPEATS = 1_000_000

/** A duration: a list of (count, unit) terms, e.g. `2h30m` → [[2,'h'],[30,'m']]. */
export type Duration = ReadonlyArray<readonly [number, TimeUnit]>

function invalid(position: number, what = 'Invalid date'): SqlError {
  return new SqlError(SqlState.INVALID_DATETIME_FORMAT, what, position)
}

/** Parses a (possibly composite, possibly negative) duration like `2d`, `-3d`, `1h30m`; null when malformed. */
export function parseDuration(text: string): Duration | null {
  const m = /^([+-]?)((?:\d+[a-zA-Z])+)$/.exec(text)
  if (m === null) return null
  const sign = m[1] === '-' ? -1 : 1
  const out: [number, TimeUnit][] = []
  for (const part of m[2]!.matchAll(/(\d+)([a-zA-Z])/g)) {
    const unit = part[2]!
    if (!isTimeUnit(unit) || unit === 'n') return null
    out.push([sign * Number(part[1]!), unit])
  }
  return out
}

/** `ts` moved by a duration (calendar-aware for M and y). */
export function addDuration(ts: number, d: Duration, times = 1): number {
  let t = ts
  for (const [n, unit] of d) t = addUnits(t, unit, n * times)
  return t
}

/**
 * Parses a QuestDB interval string to an {@link IntervalSet}. Raises 22007 `Invalid date` when the
 * text is not an interval; `position` (the literal's offset in the SQL text) goes into the error.
 *
 * @example
 * ```ts
 * parseInterval('2015-02-23T10:00;2d') // [2015-02-23T10:00:00.000000, 2015-02-25T10:00:59.999999]
 * ```
 */
export function parseInterval(text: string, position = -1, nowMicros = Date.now() * 1000): IntervalSet {
  return normalizeIntervals(microPairs(intervalQuads(text, position, nowMicros, 0)))
}

/**
 * The intervals of a QuestDB interval string before merging, four numbers each (low
 * microseconds, low nanoseconds past them, high microseconds, high nanoseconds; see
 * `timestamp-ns-interval.ts`): {@link parseInterval} reads the microseconds, a TIMESTAMP_NS
 * column all four. A literal with more than six fraction digits starts at its nanosecond, and an
 * end a duration moves keeps the nanoseconds of the bound it moved.
 * @throws SqlError 22007 at `position` when the text is not an interval
 */
export function intervalQuads(text: string, position: number, nowMicros: number, nowSub: number): Float64Array {
  if (isTick(text)) return Float64Array.from(tickQuads(text, position, nowMicros, nowSub))
  const parts = text.split(';')
  if (parts.length !== 1 && parts.length !== 2 && parts.length !== 4) throw invalid(position)
  const p = parseTimestampParts(parts[0]!.trim())
  if (p === null) throw invalid(position)
  const period = periodOf(p)
  const { loSub, hiSub } = periodSubs(p)
  if (parts.length === 1) return Float64Array.of(period.lo, loSub, period.hi, hiSub)
  const dur = parseDuration(parts[1]!.trim())
  if (dur === null || dur.length === 0) throw invalid(position)
  const instant = p.precision === 'fraction'
  const end = instant ? period.lo : period.hi
  const endSub = instant ? loSub : hiSub
  const first = [period.lo, addDuration(end, dur)]
  if (parts.length === 2) return Float64Array.of(first[0]!, loSub, first[1]!, endSub)
  const step = parseDuration(parts[2]!.trim())
  const countText = parts[3]!.trim()
  if (step === null || step.length === 0 || !/^[+-]?\d+$/.test(countText)) throw invalid(position)
  const count = Number(countText)
  if (count === 0 || Math.abs(count) > MAX_INTERVAL_REPEATS) throw invalid(position)
  const out = new Float64Array(4 * Math.abs(count))
  const dir = count < 0 ? -1 : 1
  for (let k = 0; k < Math.abs(count); k++) {
    out[4 * k] = addDuration(first[0]!, step, k * dir)
    out[4 * k + 1] = loSub
    out[4 * k + 2] = addDuration(first[1]!, step, k * dir)
    out[4 * k + 3] = endSub
  }
  return out
}
