/**
 * Step `runtime-intervals` of each execution's physical planning: a scan's
 * {@link RuntimeBound}s (`ts IN today()`, `ts > dateadd('h', -1, now())`, `ts > $1`,
 * `ts IN '$today'`) are evaluated against this execution's now() and parameters, and narrow the
 * scan's `intervals` as a literal bound does when the plan is made — QuestDB's runtime-constant
 * "interval scan". A resolved conjunct on a microsecond column then leaves the filter above (its
 * range is exact); one that cannot be evaluated (a bad parameter text, which the filter will
 * report) prunes nothing and stays. A cached or prepared plan is never changed; each run gets its
 * own nodes.
 *
 * Inside the right side of a LATERAL join (and a correlated subquery run per row) parameter slots
 * hold the outer row's values, set per row while it runs: bounds that read a parameter or a
 * subquery are left unresolved there (no pruning), the others (now(), today()) are resolved as
 * anywhere else.
 *
 * Each bound expression is evaluated once per execution: a clock reading (`ts > systimestamp() -
 * 60000000`) gives one value, which both narrows the scan and replaces the reading in the
 * conjunct the filter keeps. An uncorrelated scalar subquery (`ts > (SELECT max(ts) - 3600000000
 * FROM t)`) is computed before this step runs; `evaluate` throws for one that is not (EXPLAIN),
 * which prunes nothing. `read_parquet(...)` takes the resolved ranges as its row-group hint, as it
 * takes literal ones; its filter keeps every conjunct.
 */
import { type IntervalSet, ALL_TIME, intersectIntervals, normalizeIntervals, parseInterval } from '../../types/interval.js'
import { nsIntervalsOf } from '../../types/timestamp-ns-interval.js'
import { nsParts } from '../../types/timestamp-ns.js'
import type { Scalar } from '../../types/vector.js'
import type { BoundExpr, FilterNode, PlanNode, RuntimeBound, ScanNode, TableFunctionNode } from '../plan-node.js'
import { andAll, conjunctsOf, mapChildren } from '../optimize/walk.js'
import { readsClock, runtimeBoundOf } from '../optimize/runtime-bounds.js'

/** What one execution knows that its plan does not (given by the layer that runs statements: plan/ does not import exec/). */
export interface RuntimeValues {
  /** the value of a runtime-constant expression in this execution; may throw as the evaluator does */
  readonly evaluate: (e: BoundExpr) => Scalar
  /** whether `e` can be evaluated now (its subqueries computed); absent: always */
  readonly ready?: (e: BoundExpr) => boolean
  /** the statement's parameter values */
  readonly params: readonly Scalar[]
  /** the statement's now(), microseconds since the epoch */
  readonly now: number
  /** nanoseconds of the statement's start past `now` (0-999) */
  readonly nowSub: number
}

/** `plan` with every scan's runtime bounds evaluated into its intervals (unchanged nodes keep their identity). */
export function resolveRuntimeIntervals(plan: PlanNode, given: RuntimeValues): PlanNode {
  // one value per bound expression and execution: a clock reading is taken once
  const memo = new Map<BoundExpr, Scalar>()
  const values: RuntimeValues = {
    ...given,
    evaluate: (e) => {
      if (memo.has(e)) return memo.get(e)!
      const v = given.evaluate(e)
      memo.set(e, v)
      return v
    },
  }
  const visit = (node: PlanNode, perRow: boolean): PlanNode => {
    if (node.kind === 'filter' && node.input.kind === 'scan' && node.input.runtimeBounds !== undefined) return resolveFilter(node, node.input, values, perRow)
    if (node.kind === 'filter' && node.input.kind === 'table_function' && node.input.def.pushdown === true && node.input.timestampIndex >= 0) {
      return resolveTableFunction(node, node.input, values, perRow)
    }
    if (node.kind === 'scan') return node.runtimeBounds === undefined ? node : resolveScan(node, values, perRow)
    if (node.kind === 'lateral_join') {
      const left = visit(node.left, perRow)
      const right = visit(node.right, true)
      return left === node.left && right === node.right ? node : { ...node, left, right }
    }
    return mapChildren(node, (c) => visit(c, perRow))
  }
  return visit(plan, false)
}

/**
 * A filter over a scan with runtime bounds: the filter's conjuncts that are such bounds (read
 * again from the predicate, whose column indexes prune-columns may have changed) narrow the scan.
 * On a microsecond column the range is exact, so the conjunct leaves the filter, as a literal
 * bound's does (and today()'s per-row evaluation with it); on a TIMESTAMP_NS column it stays, with
 * its bounds evaluated once, and decides to the nanosecond.
 */
function resolveFilter(node: FilterNode, scan: ScanNode, values: RuntimeValues, perRow: boolean): PlanNode {
  const ts = scan.timestampIndex
  let set: IntervalSet = scan.intervals ?? ALL_TIME
  let resolved = 0
  const kept: BoundExpr[] = []
  for (const c of conjunctsOf(node.predicate)) {
    const b = ts < 0 ? undefined : runtimeBoundOf(c, ts)
    const iv = b === undefined || (perRow && readsParam(b)) ? undefined : boundIntervals(b, values)
    if (b === undefined || iv === undefined) { kept.push(c); continue }
    set = intersectIntervals(set, normalizeIntervals(iv))
    resolved++
    if (b.ns) kept.push(withConstantBounds(c, ts, values))
  }
  if (resolved === 0) return node
  const { runtimeBounds: _resolved, ...rest } = scan
  const narrowed: ScanNode = { ...rest, intervals: set }
  const and = node.predicate.kind === 'call' && node.predicate.def.name === 'and' ? node.predicate : undefined
  const predicate = andAll(kept, and)
  if (predicate !== undefined) return { ...node, input: narrowed, predicate }
  if (node.projection === undefined) return narrowed
  // the filter only dropped columns the conjuncts read (the timestamp): the scan reads just the others
  const keep = node.projection
  return { ...narrowed, columns: keep.map((i) => narrowed.columns[i]!), output: keep.map((i) => narrowed.output[i]!), timestampIndex: keep.indexOf(narrowed.timestampIndex) }
}

/** A comparison or BETWEEN on the timestamp column with its other operands evaluated (unchanged when one cannot be). */
function withConstantBounds(c: BoundExpr, ts: number, values: RuntimeValues): BoundExpr {
  if (c.kind !== 'call') return c
  try {
    return { ...c, args: c.args.map((a) => (a.kind === 'const' || (a.kind === 'column' && a.index === ts) ? a : { kind: 'const', type: a.type, value: values.evaluate(a) })) }
  } catch {
    return c
  }
}

function resolveScan(scan: ScanNode, values: RuntimeValues, perRow: boolean): ScanNode {
  let set: IntervalSet = scan.intervals ?? ALL_TIME
  const left: RuntimeBound[] = []
  for (const b of scan.runtimeBounds ?? []) {
    // no filter over the scan here to give the clock's reading to: the bound prunes nothing
    const iv = (perRow && readsParam(b)) || boundReadsClock(b) ? undefined : boundIntervals(b, values)
    if (iv === undefined) left.push(b)
    else set = intersectIntervals(set, normalizeIntervals(iv))
  }
  if (left.length === scan.runtimeBounds?.length) return scan
  const { runtimeBounds: _resolved, ...rest } = scan
  return left.length === 0 ? { ...rest, intervals: set } : { ...rest, intervals: set, runtimeBounds: left }
}

/**
 * A filter over a table function that takes designated-timestamp intervals (`read_parquet`): its
 * runtime bounds narrow the function's row-group hint. The filter keeps every conjunct (the hint
 * skips whole row groups only); one that reads the clock keeps the reading the hint used.
 */
function resolveTableFunction(node: FilterNode, fn: TableFunctionNode, values: RuntimeValues, perRow: boolean): PlanNode {
  const ts = fn.timestampIndex
  let set: IntervalSet = fn.intervals ?? ALL_TIME
  let resolved = 0
  let clock = false
  const kept: BoundExpr[] = []
  for (const c of conjunctsOf(node.predicate)) {
    const b = runtimeBoundOf(c, ts)
    const iv = b === undefined || (perRow && readsParam(b)) ? undefined : boundIntervals(b, values)
    if (b === undefined || iv === undefined) { kept.push(c); continue }
    set = intersectIntervals(set, normalizeIntervals(iv))
    resolved++
    if (boundReadsClock(b)) { clock = true; kept.push(withConstantBounds(c, ts, values)) } else kept.push(c)
  }
  if (resolved === 0) return node
  const input: TableFunctionNode = { ...fn, intervals: set }
  if (!clock) return { ...node, input }
  const and = node.predicate.kind === 'call' && node.predicate.def.name === 'and' ? node.predicate : undefined
  return { ...node, input, predicate: andAll(kept, and)! }
}

/** The microsecond ranges covering what bound `b` lets through, or undefined when it cannot be evaluated. */
export function boundIntervals(b: RuntimeBound, values: RuntimeValues): Float64Array | undefined {
  const ready = values.ready
  if (ready !== undefined && !(b.op === 'between' ? ready(b.lo) && ready(b.hi) : b.op === 'in' || ready(b.value))) return undefined
  try {
    switch (b.op) {
      case 'between': {
        const lo = micros(values.evaluate(b.lo), b.ns), hi = micros(values.evaluate(b.hi), b.ns)
        return lo === null || hi === null ? NONE : Float64Array.of(Math.min(lo, hi), Math.max(lo, hi))
      }
      case 'in': return inIntervals(b.test, b.ns, values)
      default: {
        const v = micros(values.evaluate(b.value), b.ns)
        if (v === null) return NONE
        // a nanosecond bound's microsecond covers it on either side (the filter decides to the nanosecond)
        const open = b.ns ? 0 : 1
        switch (b.op) {
          case '=': return Float64Array.of(v, v)
          case '>': return Float64Array.of(v + open, Infinity)
          case '>=': return Float64Array.of(v, Infinity)
          case '<': return Float64Array.of(-Infinity, v - open)
          case '<=': return Float64Array.of(-Infinity, v)
        }
      }
    }
  } catch {
    return undefined
  }
}

const NONE = new Float64Array(0)

/** A TIMESTAMP (µs) or TIMESTAMP_NS value as microseconds (the one containing it); null for NULL. */
function micros(v: Scalar, ns: boolean): number | null {
  if (typeof v === 'bigint') return ns ? nsParts(v).micros : Number(v)
  if (typeof v !== 'number' || Number.isNaN(v)) return null
  return ns ? nsParts(v).micros : v
}

/** `ts IN $n` / `ts IN '$today'`: the intervals as the filter reads them (exec/evaluate.ts), in microseconds. */
function inIntervals(test: Extract<BoundExpr, { kind: 'in_intervals' }>, ns: boolean, values: RuntimeValues): Float64Array {
  let text: string
  let pos: number
  if (test.tick !== undefined) ({ text, pos } = test.tick)
  else {
    const v = values.params[test.param!.index] ?? null
    if (v === null) return NONE
    if (typeof v === 'number' || typeof v === 'bigint') { const m = micros(v, ns)!; return Float64Array.of(m, m) }
    text = String(v)
    pos = test.param!.pos
  }
  if (!ns) return parseInterval(text, pos, values.now)
  // four numbers per interval (low µs, low ns past it, high µs, high ns): the microseconds cover it
  const quads = nsIntervalsOf(text, pos, values.now, values.nowSub)
  const out = new Float64Array(quads.length / 2)
  for (let k = 0; k < out.length; k += 2) { out[k] = quads[2 * k]!; out[k + 1] = quads[2 * k + 2]! }
  return out
}

/** Whether a bound reads a parameter slot (anywhere in its expressions). */
function readsParam(b: RuntimeBound): boolean {
  switch (b.op) {
    case 'between': return usesParam(b.lo) || usesParam(b.hi)
    case 'in': return b.test.param !== undefined
    default: return usesParam(b.value)
  }
}

/** Whether a bound reads the clock (`systimestamp()`), whose per-call value the filter would otherwise read anew. */
function boundReadsClock(b: RuntimeBound): boolean {
  switch (b.op) {
    case 'between': return readsClock(b.lo) || readsClock(b.hi)
    case 'in': return false
    default: return readsClock(b.value)
  }
}

/** Whether `e` reads a parameter slot, or a subquery (which may read one: it is not known per row). */
function usesParam(e: BoundExpr): boolean {
  switch (e.kind) {
    case 'param': case 'subquery': return true
    case 'call': return e.args.some(usesParam)
    case 'cast': case 'isnull': return usesParam(e.expr)
    case 'case': return e.whens.some((w) => usesParam(w.when) || usesParam(w.then)) || usesParam(e.else)
    default: return false
  }
}
