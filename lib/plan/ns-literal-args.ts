/**
 * QuestDB 9's rule for `timestamp_floor`, `timestamp_ceil`, `date_trunc`, `to_timezone`,
 * `to_utc`, `timestamp_sequence` and `timestamp_shuffle` (and `generate_series`'s bounds, {@link widenNsSeriesBounds}) given a timestamp as a string literal: the result is a TIMESTAMP_NS when the literal
 * has nanosecond resolution (more than six fraction digits), else a TIMESTAMP. Such a literal is
 * bound as a TIMESTAMP_NS, so the nanosecond overload runs.
 */
import type { BoundExpr } from './plan-node.js'
import { parseTimestampParts } from '../types/timestamp.js'
import { castTo } from './bind-expr.js'

/** The position of the timestamp argument of each function the rule covers. */
const TIMESTAMP_ARG: Readonly<Record<string, number>> = { timestamp_floor: 1, timestamp_ceil: 1, date_trunc: 1, to_timezone: 0, to_utc: 0, timestamp_sequence: 0, timestamp_shuffle: 0 }

/** `bound` with a nanosecond-resolution string literal in `name`'s timestamp argument cast to TIMESTAMP_NS. */
export function widenNsLiterals(name: string, bound: BoundExpr[], positions: readonly number[]): BoundExpr[] {
  const k = TIMESTAMP_ARG[name.toLowerCase()]
  if (k === undefined) return bound
  const b = bound[k]
  if (b === undefined || b.kind !== 'const' || typeof b.value !== 'string') return bound
  const p = parseTimestampParts(b.value.trim())
  if (p === null || p.precision !== 'fraction' || p.fractionDigits <= 6) return bound
  const out = [...bound]
  out[k] = castTo(b, 'TIMESTAMP_NS', positions[k]!, true)
  return out
}

/**
 * `generate_series(a, b, ...)`: when either bound is a TIMESTAMP_NS or a string literal with
 * nanosecond digits, both bounds are bound as TIMESTAMP_NS (QuestDB 9's timestamp-generator page).
 */
export function widenNsSeriesBounds(name: string, bound: BoundExpr[], positions: readonly number[]): BoundExpr[] {
  if (name.toLowerCase() !== 'generate_series' || bound.length < 2) return bound
  const isNsLiteral = (b: BoundExpr): boolean => {
    if (b.kind !== 'const' || typeof b.value !== 'string') return false
    const p = parseTimestampParts(b.value.trim())
    return p !== null && p.precision === 'fraction' && p.fractionDigits > 6
  }
  const ns = bound.slice(0, 2).some((b) => b.type === 'TIMESTAMP_NS' || isNsLiteral(b))
  if (!ns) return bound
  return bound.map((b, i) => (i < 2 && b.type !== 'TIMESTAMP_NS' ? castTo(b, 'TIMESTAMP_NS', positions[i]!, true) : b))
}
