/**
 * Rule `extract-timestamp-intervals`: a filter directly over a table scan gives the scan the
 * designated-timestamp ranges its conjuncts imply (`ts IN '2024-01'`, `ts >= '2024-01-01'`,
 * `ts BETWEEN a AND b`, `ts = x`), and keeps only the conjuncts that remain. The scan then reads
 * just the rows in range (binary search on the sorted timestamp column). Conjuncts whose bounds
 * are known only when the statement runs (`ts IN today()`, `ts > $1`) become the scan's
 * `runtimeBounds` and stay in the filter; each execution narrows the scan with their values.
 */
import { type IntervalSet, ALL_TIME, intersectIntervals, normalizeIntervals } from '../../types/interval.js'
import type { BoundExpr, FilterNode, PlanNode, RuntimeBound, ScanNode } from '../plan-node.js'
import { runtimeBoundOf } from './runtime-bounds.js'
import { andAll, conjunctsOf, mapChildren } from './walk.js'
import { nsCoveringIntervals } from './ns-intervals.js'

/** The interval set a conjunct restricts column `ts` to, or undefined when it is not such a conjunct. */
function intervalOf(e: BoundExpr, ts: number): IntervalSet | undefined {
  if (e.kind === 'in_intervals') return !e.not && e.param === undefined && e.tick === undefined && isTs(e.expr, ts) ? e.intervals : undefined
  if (e.kind !== 'call') return undefined
  const [a, b, c] = e.args
  if (e.def.name === 'between' && a !== undefined && b !== undefined && c !== undefined && isTs(a, ts)) {
    const lo = constTs(b)
    const hi = constTs(c)
    return lo === undefined || hi === undefined ? undefined : Float64Array.of(Math.min(lo, hi), Math.max(lo, hi))
  }
  if (a === undefined || b === undefined || e.args.length !== 2) return undefined
  let op = e.def.name
  let v: number | undefined
  if (isTs(a, ts)) v = constTs(b)
  else if (isTs(b, ts)) { v = constTs(a); op = FLIP[op] ?? '' }
  if (v === undefined) return undefined
  switch (op) {
    case '=': return Float64Array.of(v, v)
    case '>': return Float64Array.of(v + 1, Infinity)
    case '>=': return Float64Array.of(v, Infinity)
    case '<': return Float64Array.of(-Infinity, v - 1)
    case '<=': return Float64Array.of(-Infinity, v)
    default: return undefined
  }
}

const FLIP: Record<string, string> = { '=': '=', '>': '<', '>=': '<=', '<': '>', '<=': '>=' }

function isTs(e: BoundExpr, ts: number): boolean {
  return e.kind === 'column' && e.index === ts && e.type === 'TIMESTAMP'
}

function constTs(e: BoundExpr): number | undefined {
  return e.kind === 'const' && e.type === 'TIMESTAMP' && typeof e.value === 'number' ? e.value : undefined
}

function firstAnd(e: BoundExpr): BoundExpr | undefined {
  return e.kind === 'call' && e.def.name === 'and' ? e : undefined
}

/** Applies the rule everywhere in the plan. */
export function extractTimestampIntervals(node: PlanNode): PlanNode {
  const n = mapChildren(node, extractTimestampIntervals)
  if (n.kind === 'filter' && n.input.kind === 'table_function' && n.input.def.pushdown === true && n.input.timestampIndex >= 0) {
    // a hint only (the function skips whole row groups): the filter keeps every conjunct
    let set: IntervalSet = n.input.intervals ?? ALL_TIME
    let found = false
    for (const c of conjunctsOf(n.predicate)) {
      const iv = intervalOf(c, n.input.timestampIndex)
      if (iv !== undefined) { set = intersectIntervals(set, normalizeIntervals(iv)); found = true }
    }
    return found ? { ...n, input: { ...n.input, intervals: set } } : n
  }
  if (n.kind !== 'filter' || n.input.kind !== 'scan' || n.input.timestampIndex < 0) return n
  const scan = n.input
  let set: IntervalSet = scan.intervals ?? ALL_TIME
  const rest: BoundExpr[] = []
  const runtime: RuntimeBound[] = [...(scan.runtimeBounds ?? [])]
  let found = false
  for (const c of conjunctsOf(n.predicate)) {
    const iv = intervalOf(c, scan.timestampIndex)
    // TIMESTAMP_NS: a covering microsecond range narrows the scan, the conjunct stays
    const ns = iv === undefined ? nsCoveringIntervals(c, scan.timestampIndex) : undefined
    // known only when the statement runs (now(), $1): each execution narrows the scan, the conjunct stays
    const later = iv === undefined && ns === undefined ? runtimeBoundOf(c, scan.timestampIndex) : undefined
    if (later !== undefined) { runtime.push(later); rest.push(c) } else if (ns !== undefined) { set = intersectIntervals(set, normalizeIntervals(ns)); found = true; rest.push(c) } else if (iv === undefined) rest.push(c)
    else { set = intersectIntervals(set, normalizeIntervals(iv)); found = true }
  }
  if (!found && runtime.length === (scan.runtimeBounds?.length ?? 0)) return n
  const narrowed: ScanNode = { ...scan, ...(found ? { intervals: set } : {}), ...(runtime.length > 0 ? { runtimeBounds: runtime } : {}) }
  const predicate = andAll(rest, firstAnd(n.predicate))
  if (predicate === undefined) {
    return n.projection === undefined ? narrowed : ({ ...n, input: narrowed, predicate: { kind: 'const', type: 'BOOLEAN', value: true } } as FilterNode)
  }
  return { ...n, input: narrowed, predicate }
}
