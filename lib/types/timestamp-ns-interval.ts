/**
 * QuestDB interval strings (`ts IN '...'`) read for a TIMESTAMP_NS value, as inclusive intervals
 * of four numbers each: low microseconds, low 0–999 nanosecond remainder, high microseconds,
 * high remainder (what `exec/ns-intervals.ts` compares split values with, no BigInt per row).
 *
 * - A plain literal covers its period to the nanosecond: `'2024-01-01'` the whole day, a
 *   nine-digit literal one nanosecond.
 * - Every other form (`'T;1s'`, `'T;1s;1d;3'`, TICK date lists, bracket expansions, `@zone`,
 *   `$now - 1h..$now`) is read by the microsecond parsers (`interval.ts`, `tick.ts`), which carry
 *   each bound's nanoseconds: a literal with more than six fraction digits starts at its
 *   nanosecond, `$now` is the statement's start to the nanosecond, a duration moves an end by
 *   whole units and keeps its nanoseconds, a period ends with its last nanosecond.
 * - The intervals are sorted and merged to the nanosecond ({@link normalizeNsIntervals}).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { intervalQuads } from './interval.js'
import { nsParts, parseTimestampNsPeriod } from './timestamp-ns.js'

/**
 * The nanosecond intervals of `text` (see the module comment); `nowMicros` and `nowSub` (the
 * nanoseconds past it) anchor `$now` and `$today`, the wall clock when absent.
 * @throws SqlError 22007 at `pos` for a malformed interval
 */
export function nsIntervalsOf(text: string, pos: number, nowMicros?: number, nowSub = 0): Float64Array {
  const exact = parseTimestampNsPeriod(text)
  if (exact !== null) {
    const lo = nsParts(exact.lo), hi = nsParts(exact.hi)
    return Float64Array.of(lo.micros, lo.sub, hi.micros, hi.sub)
  }
  return normalizeNsIntervals(intervalQuads(text, pos, nowMicros ?? Date.now() * 1000, nowSub))
}

/** True when bound (am, as) comes before bound (bm, bs). */
function before(am: number, as: number, bm: number, bs: number): boolean {
  return am < bm || (am === bm && as < bs)
}

/**
 * Sorts nanosecond intervals (quads, see the module comment) by their start and merges the ones
 * that overlap or touch (the next starts at most one nanosecond after the end); drops empty ones.
 */
export function normalizeNsIntervals(quads: ArrayLike<number>): Float64Array {
  const n = quads.length >> 2
  const idx: number[] = []
  for (let i = 0; i < n; i++) if (!before(quads[4 * i + 2]!, quads[4 * i + 3]!, quads[4 * i]!, quads[4 * i + 1]!)) idx.push(i)
  idx.sort((a, b) => (quads[4 * a]! - quads[4 * b]!) || (quads[4 * a + 1]! - quads[4 * b + 1]!))
  const out: number[] = []
  for (const i of idx) {
    const lm = quads[4 * i]!, ls = quads[4 * i + 1]!, hm = quads[4 * i + 2]!, hs = quads[4 * i + 3]!
    const k = out.length - 4
    if (k >= 0) {
      // the end of the last interval plus one nanosecond
      const em = out[k + 3]! === 999 ? out[k + 2]! + 1 : out[k + 2]!
      const es = out[k + 3]! === 999 ? 0 : out[k + 3]! + 1
      if (!before(em, es, lm, ls)) {
        if (before(out[k + 2]!, out[k + 3]!, hm, hs)) { out[k + 2] = hm; out[k + 3] = hs }
        continue
      }
    }
    out.push(lm, ls, hm, hs)
  }
  return Float64Array.from(out)
}
