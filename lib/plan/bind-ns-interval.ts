/**
 * `ts IN '<interval>'` on a TIMESTAMP_NS value: the interval string is read as QuestDB reads it
 * for a nanosecond column. A plain literal covers its period to the nanosecond (`'2024-01-01'` the
 * day, a nine-digit literal one nanosecond); an interval with modifiers (`;1h`, lists) is read
 * at microsecond precision and covers whole microseconds.
 */
import type { BoundExpr } from './plan-node.js'
import { parseInterval } from '../types/interval.js'
import { nsParts, parseTimestampNsPeriod } from '../types/timestamp-ns.js'

/**
 * The bound `in_intervals` test of a TIMESTAMP_NS `target`: `nsIntervals` holds each inclusive
 * interval as four numbers (low microseconds, low 0-999 remainder, high microseconds, high remainder).
 * @throws SqlError 22007 at `pos` for a malformed interval
 */
export function bindNsInterval(target: BoundExpr, text: string, pos: number, not: boolean): BoundExpr {
  const exact = parseTimestampNsPeriod(text)
  let ns: Float64Array
  let micros: Float64Array
  if (exact !== null) {
    const lo = nsParts(exact.lo), hi = nsParts(exact.hi)
    ns = Float64Array.of(lo.micros, lo.sub, hi.micros, hi.sub)
    micros = Float64Array.of(lo.micros, hi.micros)
  } else {
    micros = parseInterval(text, pos)
    ns = new Float64Array(micros.length * 2)
    for (let k = 0; k < micros.length; k += 2) { ns[2 * k] = micros[k]!; ns[2 * k + 1] = 0; ns[2 * k + 2] = micros[k + 1]!; ns[2 * k + 3] = 999 }
  }
  return { kind: 'in_intervals', type: 'BOOLEAN', expr: target, intervals: micros, not, nsIntervals: ns }
}
