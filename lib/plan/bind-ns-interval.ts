/**
 * `ts IN '<interval>'` on a TIMESTAMP_NS value: the interval string is read as QuestDB reads it
 * for a nanosecond column, to the nanosecond (`types/timestamp-ns-interval.ts`). A plain literal
 * covers its period (`'2024-01-01'` the day, a nine-digit literal one nanosecond); modifiers
 * (`;1h`, `;1h;1d;3`), TICK lists and zones keep each bound's nanoseconds. A string with a `$`
 * variable (`'$now - 1h..$now'`) is read when the statement runs, against its start to the
 * nanosecond (`exec/evaluate.ts`), so a cached plan never keeps an old `$now`.
 */
import type { BoundExpr } from './plan-node.js'
import { nsIntervalsOf } from '../types/timestamp-ns-interval.js'
import { isTick } from '../types/tick.js'

/**
 * The bound `in_intervals` test of a TIMESTAMP_NS `target`: `nsIntervals` holds each inclusive
 * interval as four numbers (low microseconds, low 0-999 remainder, high microseconds, high
 * remainder; see `types/timestamp-ns-interval.ts`), `intervals` the microseconds covering them
 * (for scan ranges).
 * @throws SqlError 22007 at `pos` for a malformed interval
 */
export function bindNsInterval(target: BoundExpr, text: string, pos: number, not: boolean): BoundExpr {
  if (text.includes('$') && isTick(text)) {
    nsIntervalsOf(text, pos) // a malformed string fails when bound, with its position
    return { kind: 'in_intervals', type: 'BOOLEAN', expr: target, intervals: new Float64Array(0), not, tick: { text, pos } }
  }
  const ns = nsIntervalsOf(text, pos)
  const micros = new Float64Array(ns.length / 2)
  for (let k = 0; k < micros.length; k += 2) { micros[k] = ns[2 * k]!; micros[k + 1] = ns[2 * k + 2]! }
  return { kind: 'in_intervals', type: 'BOOLEAN', expr: target, intervals: micros, not, nsIntervals: ns }
}
