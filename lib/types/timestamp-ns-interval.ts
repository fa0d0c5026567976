/**
 * QuestDB interval strings (`ts IN '...'`) read for a TIMESTAMP_NS value, as inclusive intervals
 * of four numbers each: low microseconds, low 0–999 nanosecond remainder, high microseconds,
 * high remainder (what `exec/ns-intervals.ts` compares split values with, no BigInt per row).
 *
 * - A plain literal covers its period to the nanosecond: `'2024-01-01'` the whole day, a
 *   nine-digit literal one nanosecond.
 * - A literal with modifiers (`'T;1s'`, `'T;1s;1d;3'`) is read by the microsecond parser and
 *   shifted by the literal's nanoseconds past its microsecond, so `'...00.000000300;1s'` starts at
 *   the 300th nanosecond and ends one second later at the same nanosecond.
 * - Anything else (TICK `$now` expressions, bracket lists) covers whole microseconds.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { parseInterval } from './interval.js'
import { parseTimestampParts } from './timestamp.js'
import { nsParts, parseTimestampNsPeriod } from './timestamp-ns.js'

/**
 * The nanosecond intervals of `text` (see the module comment).
 * @throws SqlError 22007 at `pos` for a malformed interval
 */
export function nsIntervalsOf(text: string, pos: number, nowMicros?: number): Float64Array {
  const exact = parseTimestampNsPeriod(text)
  if (exact !== null) {
    const lo = nsParts(exact.lo), hi = nsParts(exact.hi)
    return Float64Array.of(lo.micros, lo.sub, hi.micros, hi.sub)
  }
  const micros = nowMicros === undefined ? parseInterval(text, pos) : parseInterval(text, pos, nowMicros)
  const shift = subMicroShift(text)
  const ns = new Float64Array(micros.length * 2)
  for (let k = 0; k < micros.length; k += 2) {
    ns[2 * k] = micros[k]!
    ns[2 * k + 2] = micros[k + 1]!
    if (shift === undefined) { ns[2 * k + 1] = 0; ns[2 * k + 3] = 999 } else { ns[2 * k + 1] = shift; ns[2 * k + 3] = shift }
  }
  return ns
}

/** The nanoseconds past the microsecond of a `'T;...'` interval's start literal when it has more than six fraction digits. */
function subMicroShift(text: string): number | undefined {
  const semi = text.indexOf(';')
  if (semi < 0) return undefined
  const p = parseTimestampParts(text.slice(0, semi).trim())
  if (p === null || p.precision !== 'fraction' || p.fractionDigits <= 6) return undefined
  return p.nanos
}
