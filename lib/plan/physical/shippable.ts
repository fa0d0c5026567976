/**
 * Which bound expressions a worker thread can evaluate: the ones that travel as plain data
 * (exec/parallel/wire.ts encodes them). Parameters, subqueries, non-deterministic functions
 * (rnd_*, systimestamp: one generator per statement) and per-execution interval texts stay on
 * the statement's thread.
 */
import type { BoundExpr } from '../plan-node.js'

/** True when `e` can be evaluated by a worker thread. */
export function canShip(e: BoundExpr): boolean {
  switch (e.kind) {
    case 'column': return true
    case 'const': return e.value === null || typeof e.value !== 'object' || e.value instanceof Uint8Array
    case 'call': return e.def.deterministic !== false && e.args.every(canShip)
    case 'cast': case 'isnull': case 'in': return canShip(e.expr)
    case 'in_intervals': return e.param === undefined && e.tick === undefined && canShip(e.expr)
    case 'case': return e.whens.every((w) => canShip(w.when) && canShip(w.then)) && canShip(e.else)
    case 'param': case 'subquery': case 'exists': case 'in_query': return false
  }
}
