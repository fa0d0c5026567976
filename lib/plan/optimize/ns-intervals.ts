/**
 * Scan ranges from conjuncts on a TIMESTAMP_NS designated timestamp (used by
 * `extract-timestamp-intervals`). Scan ranges are microseconds, as partition bounds are for both
 * units, so a nanosecond bound gives the microsecond range covering it; the conjunct itself stays
 * in the filter, which decides to the nanosecond.
 */
import type { BoundExpr } from '../plan-node.js'
import { nsParts } from '../../types/timestamp-ns.js'

const FLIP: Record<string, string> = { '=': '=', '>': '<', '>=': '<=', '<': '>', '<=': '>=' }

function isNsTs(e: BoundExpr, ts: number): boolean {
  return e.kind === 'column' && e.index === ts && e.type === 'TIMESTAMP_NS'
}

function constMicros(e: BoundExpr): number | undefined {
  if (e.kind !== 'const' || e.type !== 'TIMESTAMP_NS' || (typeof e.value !== 'number' && typeof e.value !== 'bigint')) return undefined
  return nsParts(e.value).micros
}

/**
 * The microsecond ranges covering what a conjunct allows column `ts` (TIMESTAMP_NS), or
 * undefined when it is not a range conjunct on it.
 */
export function nsCoveringIntervals(e: BoundExpr, ts: number): Float64Array | undefined {
  if (e.kind === 'in_intervals') return !e.not && e.nsIntervals !== undefined && isNsTs(e.expr, ts) ? e.intervals : undefined
  if (e.kind !== 'call') return undefined
  const [a, b, c] = e.args
  if (e.def.name === 'between' && a !== undefined && b !== undefined && c !== undefined && isNsTs(a, ts)) {
    const lo = constMicros(b), hi = constMicros(c)
    return lo === undefined || hi === undefined ? undefined : Float64Array.of(Math.min(lo, hi), Math.max(lo, hi))
  }
  if (a === undefined || b === undefined || e.args.length !== 2) return undefined
  let op = e.def.name
  let v: number | undefined
  if (isNsTs(a, ts)) v = constMicros(b)
  else if (isNsTs(b, ts)) { v = constMicros(a); op = FLIP[op] ?? '' }
  if (v === undefined) return undefined
  switch (op) {
    case '=': return Float64Array.of(v, v)
    case '>': case '>=': return Float64Array.of(v, Infinity)
    case '<': case '<=': return Float64Array.of(-Infinity, v)
    default: return undefined
  }
}
