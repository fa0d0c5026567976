/**
 * `interval_start(interval(lo, hi))` and `interval_end(interval(lo, hi))` bound over `lo` and
 * `hi` themselves: an INTERVAL value is held as its printed text, to the millisecond
 * (functions/scalar/interval-fns.ts), while QuestDB keeps an interval's bounds exactly and
 * returns them in their own type (TIMESTAMP_NS for an interval of nanosecond timestamps). Also
 * what `ts IN interval(lo, hi)` becomes (a BETWEEN of the two), so that filter keeps every digit.
 */
import type { BoundExpr } from './plan-node.js'
import { INTERVAL_BOUNDS } from '../functions/scalar/interval-fns.js'

/**
 * The bound call of `name` (`interval_start` / `interval_end`) over an already bound
 * `interval(lo, hi)` argument, or undefined when it is not that shape.
 */
export function bindIntervalBound(name: string, args: readonly BoundExpr[]): BoundExpr | undefined {
  const n = name.toLowerCase()
  if ((n !== 'interval_start' && n !== 'interval_end') || args.length !== 1) return undefined
  const iv = args[0]!
  if (iv.kind !== 'call' || iv.def.name !== 'interval' || iv.args.length !== 2) return undefined
  const def = INTERVAL_BOUNDS[n]
  const type = iv.args[0]!.type === 'TIMESTAMP_NS' ? 'TIMESTAMP_NS' : 'TIMESTAMP'
  // the call keeps interval()'s site: a reversed interval is reported at interval(...), as QuestDB does
  return { kind: 'call', type, def, args: iv.args, site: { ...iv.site, returns: type } }
}
