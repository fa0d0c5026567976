/**
 * Rule `decorrelate-subqueries`: a correlated subquery (an apply step, plan/bind-correlated.ts)
 * whose outer columns appear only in equalities `inner = outer` of a WHERE becomes a hash join,
 * as DuckDB and DataFusion decorrelate: those conjuncts leave the subquery, their inner sides
 * become extra output columns (grouping keys under an aggregate), the subquery runs once, and each
 * left row finds its rows by hash (exec/operators/apply-hash.ts). EXISTS and IN then cost one pass
 * over each side instead of one run per distinct outer value; a scalar `(SELECT max(v) FROM u
 * WHERE u.k = t.k)` is a left join over `u` grouped by `k`.
 *
 * Shapes that stay per-row (the apply step streams and checks cancellation per run): an outer
 * column outside such an equality (`u.ts < t.ts`, in the select list, in a join's ON), under a
 * LIMIT, a window or a time-series node, a second aggregate or a filter above an aggregate
 * without GROUP BY, and keys of types whose `=` is not plain value equality (DOUBLE and FLOAT
 * compare with a tolerance). Under a WHERE whose conjunct is the subquery's value, the join
 * emits only the rows it keeps (a semi or anti join).
 *
 * A LATERAL join of the same shape (without an aggregate lacking GROUP BY, whose one row over no
 * input a join cannot give) becomes an INNER / LEFT hash join whose NULL keys match.
 *
 * Why the result is the same: below the outermost aggregate every node maps the rows of one
 * outer key to the rows the subquery would give for that key, since `u.k = $outer` keeps exactly
 * the rows whose `u.k` equals it (`NULL = NULL` being true, nulls are a key of their own). A key
 * no right row has gives what the subquery gives over no rows: nothing, or for an aggregate
 * without GROUP BY its one row over no input (`empty`, computed once when first needed).
 */
import type { BoundExpr, HashApply, LateralJoinNode, OutputColumn, PlanNode } from '../plan-node.js'
import { andAll, conjunctsOf, mapChildren } from './walk.js'

/** Key types whose `=` is value equality (NULL = NULL), so a hash on the values matches it. */
const KEY_TYPES = new Set(['BOOLEAN', 'BYTE', 'SHORT', 'INT', 'LONG', 'CHAR', 'DATE', 'TIMESTAMP', 'IPV4', 'UUID', 'SYMBOL', 'STRING', 'VARCHAR'])
const TEXT = new Set(['SYMBOL', 'STRING', 'VARCHAR'])

/**
 * Rewrites every apply step and LATERAL join that can be decorrelated (innermost first), also in
 * the plans of uncorrelated subqueries in WHERE and select lists (`x IN (SELECT k FROM u WHERE
 * EXISTS (SELECT 1 FROM w WHERE w.s = u.s))`).
 */
export function decorrelateSubqueries(plan: PlanNode): PlanNode {
  const visit = (n: PlanNode): PlanNode => {
    let m = mapChildren(n, visit)
    if (m.kind === 'filter') {
      const predicate = inSubplans(m.predicate, visit)
      if (predicate !== m.predicate) m = { ...m, predicate }
    } else if (m.kind === 'project') {
      const exprs = m.exprs.map((e) => inSubplans(e, visit))
      if (exprs.some((e, i) => e !== (m as { exprs: readonly BoundExpr[] }).exprs[i])) m = { ...m, exprs }
    }
    if (m.kind === 'lateral_join' && m.apply !== undefined && m.hash === undefined) return decorrelate(m) ?? m
    if (m.kind === 'lateral_join' && m.apply === undefined) return decorrelateLateral(m) ?? m
    if (m.kind === 'filter') return semiJoins(m)
    return m
  }
  return visit(plan)
}

/** `e` with the plan of each subquery in it replaced by `f(plan)` (unchanged parts keep their identity). */
function inSubplans(e: BoundExpr, f: (p: PlanNode) => PlanNode): BoundExpr {
  switch (e.kind) {
    case 'subquery': case 'exists': {
      const plan = f(e.plan)
      return plan === e.plan ? e : { ...e, plan }
    }
    case 'in_query': {
      const plan = f(e.plan)
      const expr = inSubplans(e.expr, f)
      return plan === e.plan && expr === e.expr ? e : { ...e, plan, expr }
    }
    case 'call': {
      const args = e.args.map((a) => inSubplans(a, f))
      return args.every((a, i) => a === e.args[i]) ? e : { ...e, args }
    }
    case 'cast': case 'isnull': case 'in': case 'in_intervals': {
      const expr = inSubplans(e.expr, f)
      return expr === e.expr ? e : ({ ...e, expr } as BoundExpr)
    }
    case 'case': {
      const whens = e.whens.map((w) => ({ when: inSubplans(w.when, f), then: inSubplans(w.then, f) }))
      const otherwise = inSubplans(e.else, f)
      return otherwise === e.else && whens.every((w, i) => w.when === e.whens[i]!.when && w.then === e.whens[i]!.then) ? e : { ...e, whens, else: otherwise }
    }
    default: return e
  }
}

/** The subquery rewritten so that it no longer names outer columns: its output then its key columns. */
interface Decorrelated {
  readonly plan: PlanNode
  /** over `plan.output`: the inner side of each correlation equality */
  readonly keys: readonly BoundExpr[]
  /** over the left row: the outer side of each */
  readonly outer: readonly BoundExpr[]
  /** the original subtree over no rows, from the aggregate without GROUP BY up (absent: none below) */
  readonly empty?: PlanNode
}

type Walked = Decorrelated | 'free' | undefined

function decorrelate(node: LateralJoinNode): LateralJoinNode | undefined {
  const r = decorrelatePlan(node.right, node.paramBase, node.outerRefs)
  if (r === undefined) return undefined
  const hash: HashApply = { leftKeys: r.outer, rightKeys: r.keys, ...(r.empty === undefined ? {} : { empty: r.empty }) }
  return { ...node, right: r.plan, outerRefs: [], hash }
}

/**
 * A LATERAL join whose subquery names the left row only in WHERE equalities, and has no
 * aggregate without GROUP BY (whose one row over no input a hash join cannot give), becomes a hash
 * join on those equalities (NULL keys matching, as `NULL = NULL` is true), then a projection
 * dropping the key columns the subquery gained.
 */
function decorrelateLateral(node: LateralJoinNode): PlanNode | undefined {
  const r = decorrelatePlan(node.right, node.paramBase, node.outerRefs)
  if (r === undefined || r.empty !== undefined) return undefined
  const join: PlanNode = {
    kind: 'join', type: node.type, left: node.left, right: r.plan, leftKeys: r.outer, rightKeys: r.keys, residual: node.residual, nullsEqual: true,
    output: [...node.output, ...r.keys.map(keyColumn)], timestampIndex: node.timestampIndex,
  }
  return { kind: 'project', input: join, exprs: node.output.map((_, i) => columnOf(join.output, i)), output: node.output, timestampIndex: node.timestampIndex }
}

/** `right` rewritten so that it names no parameter slot in [lo, lo + outerRefs.length), or undefined when it cannot be. */
function decorrelatePlan(right: PlanNode, lo: number, outerRefs: readonly BoundExpr[]): Decorrelated | undefined {
  const hi = lo + outerRefs.length
  const uses = (e: BoundExpr): boolean => exprUses(e, lo, hi)
  const walk = (n: PlanNode): Walked => {
    if (!planUses(n, lo, hi)) return 'free'
    switch (n.kind) {
      case 'filter': {
        const child = walk(n.input)
        if (child === undefined || (child !== 'free' && child.empty !== undefined)) return undefined
        const rest: BoundExpr[] = []
        const keys = child === 'free' ? [] : [...child.keys]
        const outer = child === 'free' ? [] : [...child.outer]
        for (const c of conjunctsOf(n.predicate)) {
          if (!uses(c)) { rest.push(c); continue }
          const pair = keyPair(c, uses, lo, outerRefs)
          if (pair === undefined) return undefined
          keys.push(pair.inner)
          outer.push(pair.outer)
        }
        const input = child === 'free' ? n.input : child.plan
        const predicate = andAll(rest, n.predicate)
        const kept: PlanNode = predicate === undefined ? input : { kind: 'filter', input, predicate, output: input.output, timestampIndex: input.timestampIndex }
        if (n.projection === undefined) return { plan: kept, keys, outer }
        const exprs = [...n.projection.map((i) => columnOf(input.output, i)), ...keys]
        return withKeys(project(kept, exprs, n.output, keys, n.timestampIndex), n.output.length, keys, outer)
      }
      case 'project': {
        const child = walk(n.input)
        if (child === undefined || child === 'free' || n.exprs.some(uses)) return undefined
        const p = project(child.plan, [...n.exprs, ...child.keys], n.output, child.keys, n.timestampIndex)
        return { ...withKeys(p, n.output.length, child.keys, child.outer), ...emptyOver(n, child) }
      }
      case 'aggregate': {
        const child = walk(n.input)
        if (child === undefined || child === 'free' || child.empty !== undefined) return undefined
        if (n.keys.some(uses) || n.aggregates.some((a) => a.args.some(uses))) return undefined
        const k = n.keys.length
        const width = child.keys.length
        const keyCols = child.keys.map((e, j) => keyColumn(e, j))
        const agg: PlanNode = {
          ...n, input: child.plan, keys: [...n.keys, ...child.keys],
          output: [...n.output.slice(0, k), ...keyCols, ...n.output.slice(k)],
          timestampIndex: n.timestampIndex < k ? n.timestampIndex : n.timestampIndex + width,
        }
        // back to the aggregate's own order (its keys, its aggregates), the correlation keys last
        const order = [...range(0, k), ...range(k + width, k + width + n.aggregates.length), ...range(k, k + width)]
        const exprs = order.map((i) => columnOf(agg.output, i))
        const p = project(agg, exprs, n.output, child.keys, n.timestampIndex)
        const r = withKeys(p, n.output.length, child.keys, child.outer)
        // without GROUP BY, a key without rows still has its one row (count 0, max NULL)
        return k > 0 ? r : { ...r, empty: { ...n, input: { kind: 'values', rows: [], output: n.input.output, timestampIndex: -1 } } }
      }
      case 'sort': case 'distinct': {
        const child = walk(n.input)
        if (child === undefined || child === 'free') return undefined
        if (n.kind === 'sort' && n.keys.some((s) => uses(s.expr))) return undefined
        // a sort keeps each key's rows (their order does not matter to EXISTS, IN or one value);
        // DISTINCT over the rows and their keys is DISTINCT within each key
        return { ...child, plan: { ...n, input: child.plan, output: child.plan.output }, ...emptyOver(n, child) }
      }
      default: return undefined
    }
  }
  const r = walk(right)
  return r === undefined || r === 'free' || r.keys.length === 0 ? undefined : r
}

/** `{ empty }` for `n` over its decorrelated child, when the child has one. */
function emptyOver(n: PlanNode & { readonly input: PlanNode }, child: Decorrelated): { empty?: PlanNode } {
  return child.empty === undefined ? {} : { empty: { ...n, input: child.empty } as PlanNode }
}

/** `inner = outer` with `outer` a function of outer columns only: its two sides. */
function keyPair(c: BoundExpr, uses: (e: BoundExpr) => boolean, lo: number, outerRefs: readonly BoundExpr[]): { inner: BoundExpr; outer: BoundExpr } | undefined {
  if (c.kind !== 'call' || c.def.name !== '=' || c.args.length !== 2) return undefined
  const [a, b] = c.args as [BoundExpr, BoundExpr]
  const [inner, outer] = uses(a) ? [b, a] : [a, b]
  if (uses(inner) || readsColumns(outer) || hasSubquery(outer)) return undefined
  if (!KEY_TYPES.has(inner.type) || !KEY_TYPES.has(outer.type)) return undefined
  if (inner.type !== outer.type && !(TEXT.has(inner.type) && TEXT.has(outer.type))) return undefined
  return { inner, outer: substitute(outer, lo, outerRefs) }
}

/** Marks the decorrelated EXISTS / IN steps right under `f` whose value is a conjunct of its predicate as semi joins. */
function semiJoins(f: Extract<PlanNode, { kind: 'filter' }>): PlanNode {
  const conjuncts = conjunctsOf(f.predicate)
  const mark = (n: PlanNode): PlanNode => {
    if (n.kind !== 'lateral_join' || n.apply === undefined) return n
    const left = mark(n.left)
    const index = n.output.length - 1
    const isConjunct = n.apply.mode !== 'scalar' && conjuncts.some((c) => c.kind === 'column' && c.index === index)
    const hash = n.hash !== undefined && isConjunct ? { ...n.hash, semi: true } : n.hash
    return left === n.left && hash === n.hash ? n : { ...n, left, ...(hash === undefined ? {} : { hash }) }
  }
  const input = mark(f.input)
  return input === f.input ? f : { ...f, input }
}

function project(input: PlanNode, exprs: readonly BoundExpr[], own: readonly OutputColumn[], keys: readonly BoundExpr[], timestampIndex: number): PlanNode {
  return { kind: 'project', input, exprs, output: [...own, ...keys.map(keyColumn)], timestampIndex }
}

/** The result with its keys as the columns after the first `width`. */
function withKeys(plan: PlanNode, width: number, keys: readonly BoundExpr[], outer: readonly BoundExpr[]): Decorrelated {
  return { plan, keys: keys.map((e, j) => ({ kind: 'column', type: e.type, index: width + j })), outer }
}

function keyColumn(e: BoundExpr, j: number): OutputColumn {
  return { name: `\u0000key${j}`, type: e.type }
}

function columnOf(output: readonly OutputColumn[], i: number): BoundExpr {
  const c = output[i]!
  return c.dict === undefined ? { kind: 'column', type: c.type, index: i } : { kind: 'column', type: c.type, index: i, dict: c.dict }
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i)
}

/** `e` with parameter slot `lo + i` replaced by `outerRefs[i]`. */
function substitute(e: BoundExpr, lo: number, outerRefs: readonly BoundExpr[]): BoundExpr {
  switch (e.kind) {
    case 'param': return e.index >= lo && e.index < lo + outerRefs.length ? outerRefs[e.index - lo]! : e
    case 'call': return { ...e, args: e.args.map((a) => substitute(a, lo, outerRefs)) }
    case 'cast': case 'isnull': case 'in': case 'in_intervals': return { ...e, expr: substitute(e.expr, lo, outerRefs) } as BoundExpr
    case 'case': return { ...e, whens: e.whens.map((w) => ({ when: substitute(w.when, lo, outerRefs), then: substitute(w.then, lo, outerRefs) })), else: substitute(e.else, lo, outerRefs) }
    default: return e
  }
}

function readsColumns(e: BoundExpr): boolean {
  return someExpr(e, (x) => x.kind === 'column')
}

function hasSubquery(e: BoundExpr): boolean {
  return someExpr(e, (x) => x.kind === 'subquery' || x.kind === 'exists' || x.kind === 'in_query')
}

function someExpr(e: BoundExpr, p: (e: BoundExpr) => boolean): boolean {
  if (p(e)) return true
  switch (e.kind) {
    case 'call': return e.args.some((a) => someExpr(a, p))
    case 'cast': case 'isnull': case 'in': case 'in_intervals': case 'in_query': return someExpr(e.expr, p)
    case 'case': return e.whens.some((w) => someExpr(w.when, p) || someExpr(w.then, p)) || someExpr(e.else, p)
    default: return false
  }
}

/** Whether `e` reads a parameter slot in [lo, hi) (an outer column of this apply step). */
function exprUses(e: BoundExpr, lo: number, hi: number): boolean {
  switch (e.kind) {
    case 'param': return e.index >= lo && e.index < hi
    case 'column': case 'const': return false
    case 'call': return e.args.some((a) => exprUses(a, lo, hi))
    case 'cast': case 'isnull': case 'in': return exprUses(e.expr, lo, hi)
    case 'in_intervals': return exprUses(e.expr, lo, hi) || (e.param !== undefined && e.param.index >= lo && e.param.index < hi)
    case 'case': return e.whens.some((w) => exprUses(w.when, lo, hi) || exprUses(w.then, lo, hi)) || exprUses(e.else, lo, hi)
    case 'subquery': case 'exists': return planUses(e.plan, lo, hi)
    case 'in_query': return exprUses(e.expr, lo, hi) || planUses(e.plan, lo, hi)
  }
}

/**
 * Whether anything under `n` reads a parameter slot in [lo, hi). Node kinds this rule does not
 * know count as reading one, so that it never moves a subtree it has not looked into.
 */
function planUses(n: PlanNode, lo: number, hi: number): boolean {
  const e = (x: BoundExpr | undefined): boolean => x !== undefined && exprUses(x, lo, hi)
  const p = (x: PlanNode): boolean => planUses(x, lo, hi)
  switch (n.kind) {
    case 'scan': return false
    case 'table_function': return (n.args ?? []).some(e)
    case 'values': return n.rows.some((r) => r.some(e))
    case 'filter': return e(n.predicate) || p(n.input)
    case 'project': return n.exprs.some(e) || p(n.input)
    case 'aggregate': return n.keys.some(e) || n.aggregates.some((a) => a.args.some(e)) || p(n.input)
    case 'sort': return n.keys.some((k) => e(k.expr)) || p(n.input)
    case 'limit': return e(n.lo) || e(n.hi) || p(n.input)
    case 'distinct': return p(n.input)
    case 'setop': return p(n.left) || p(n.right)
    case 'join': return n.leftKeys.some(e) || n.rightKeys.some(e) || e(n.residual) || p(n.left) || p(n.right)
    case 'lateral_join':
      return n.outerRefs.some(e) || e(n.residual) || (n.apply?.mode === 'in' && e(n.apply.probe)) ||
        (n.hash !== undefined && (n.hash.leftKeys.some(e) || n.hash.rightKeys.some(e) || (n.hash.empty !== undefined && p(n.hash.empty)))) ||
        p(n.left) || p(n.right)
    default: return true
  }
}
