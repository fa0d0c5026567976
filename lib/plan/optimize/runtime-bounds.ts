/**
 * Designated-timestamp conjuncts whose bounds are constant for one execution but unknown when
 * the plan is made (used by `extract-timestamp-intervals`): `ts IN today()` (bound as a BETWEEN
 * of `interval_start`/`interval_end`), `ts > dateadd('h', -1, now())`, `ts BETWEEN $1 AND $2`,
 * `ts IN $1`, `ts IN '$today'`, `ts > (SELECT max(ts) - 3600000000 FROM t)` (an uncorrelated
 * scalar subquery, computed once before the pipeline runs) and `ts > systimestamp() - 60000000`
 * (a clock reading, taken once for the bound). QuestDB evaluates such "runtime constant"
 * intervals once per execution and scans only them; here the physical step of each execution
 * does (plan/physical/runtime-intervals.ts).
 */
import type { BoundExpr, RuntimeBound } from '../plan-node.js'

type RuntimeCmp = '=' | '>' | '>=' | '<' | '<='
/** `ts op v` for each comparison */
const CMP = new Map<string, RuntimeCmp>([['=', '='], ['>', '>'], ['>=', '>='], ['<', '<'], ['<=', '<=']])
/** `v op ts` as `ts op' v` */
const FLIP = new Map<string, RuntimeCmp>([['=', '='], ['>', '<'], ['>=', '<='], ['<', '>'], ['<=', '>=']])

/**
 * True when `e` can have one value for a whole execution: no column or random function
 * (`rnd_*`), only constants, parameters, uncorrelated scalar subqueries and deterministic scalar
 * calls over them (`now()`, `today()`, `dateadd`, arithmetic, casts), and clock readings
 * (`systimestamp()`): QuestDB reads those per call and does not narrow a scan by them; a bound
 * built on one is read once here, and the filter then uses that same reading
 * (plan/physical/runtime-intervals.ts), so the rows are those of one instant of the statement.
 */
export function isRuntimeConstant(e: BoundExpr): boolean {
  switch (e.kind) {
    case 'const': case 'param': case 'subquery': return true
    case 'call': return (e.def.deterministic !== false || e.def.readsClock === true) && e.args.every(isRuntimeConstant)
    case 'cast': case 'isnull': return isRuntimeConstant(e.expr)
    case 'case': return e.whens.every((w) => isRuntimeConstant(w.when) && isRuntimeConstant(w.then)) && isRuntimeConstant(e.else)
    default: return false
  }
}

function isTsColumn(e: BoundExpr, ts: number): e is Extract<BoundExpr, { kind: 'column' }> {
  return e.kind === 'column' && e.index === ts && (e.type === 'TIMESTAMP' || e.type === 'TIMESTAMP_NS')
}

/** A bound's value must have the column's own type (the binder casts the other side to it). */
function valueFits(v: BoundExpr, col: BoundExpr): boolean {
  return v.type === col.type && v.kind !== 'const' && isRuntimeConstant(v)
}

/**
 * The runtime bound conjunct `e` puts on column `ts` (the scan's designated timestamp), or
 * undefined when it is not one (a literal bound is not: the rule folds it into the scan's
 * intervals when the plan is made).
 */
export function runtimeBoundOf(e: BoundExpr, ts: number): RuntimeBound | undefined {
  if (e.kind === 'in_intervals') {
    return !e.not && (e.param !== undefined || e.tick !== undefined) && isTsColumn(e.expr, ts) ? { op: 'in', test: e, ns: e.expr.type === 'TIMESTAMP_NS' } : undefined
  }
  if (e.kind !== 'call') return undefined
  const [a, b, c] = e.args
  if (a === undefined || b === undefined) return undefined
  if (e.def.name === 'between' && c !== undefined && e.args.length === 3) {
    if (!isTsColumn(a, ts) || (b.kind === 'const' && c.kind === 'const')) return undefined
    const fits = (x: BoundExpr) => x.type === a.type && isRuntimeConstant(x)
    return fits(b) && fits(c) ? { op: 'between', lo: b, hi: c, ns: a.type === 'TIMESTAMP_NS' } : undefined
  }
  if (e.args.length !== 2) return undefined
  if (isTsColumn(a, ts) && valueFits(b, a)) {
    const op = CMP.get(e.def.name)
    return op === undefined ? undefined : { op, value: b, ns: a.type === 'TIMESTAMP_NS' }
  }
  if (isTsColumn(b, ts) && valueFits(a, b)) {
    const op = FLIP.get(e.def.name)
    return op === undefined ? undefined : { op, value: a, ns: b.type === 'TIMESTAMP_NS' }
  }
  return undefined
}

/** Whether `e` reads the clock per call (`systimestamp()` anywhere in it). */
export function readsClock(e: BoundExpr): boolean {
  switch (e.kind) {
    case 'call': return e.def.readsClock === true || e.args.some(readsClock)
    case 'cast': case 'isnull': return readsClock(e.expr)
    case 'case': return e.whens.some((w) => readsClock(w.when) || readsClock(w.then)) || readsClock(e.else)
    default: return false
  }
}
