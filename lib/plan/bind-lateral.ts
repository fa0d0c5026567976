/**
 * Binds `JOIN LATERAL (query) alias [ON cond]`, `CROSS JOIN LATERAL`, `LEFT JOIN LATERAL ... ON
 * true`: the subquery is bound once, and each column of the left side it names (`o.id`) becomes a
 * parameter slot filled per left row when it runs (exec/operators/lateral-join.ts). So any
 * subquery works (aggregates, ORDER BY, LIMIT), and a correlated one costs one run per left row.
 */
import { SqlError, SqlState } from '../errors.js'
import type { ColumnRef, Expr, Join, Query, Select } from '../sql/ast.js'
import { collectColumnRefs, containsAggregate, isAggregateCall, outputNames } from './naming.js'
import type { BoundExpr, PlanNode } from './plan-node.js'
import { Scope } from './scope.js'
import { bindExpr, castTo } from './bind-expr.js'
import type { BindContext } from './bind-query.js'

/** Outer columns one LATERAL subquery may name (its parameter slots). */
export const MAX_OUTER_REFS = 256

/** The outer columns a subquery names, as {@link outerColumns} binds them. */
export interface OuterColumns {
  /** the outer expressions, in parameter-slot order */
  readonly outerRefs: BoundExpr[]
  /** the parameter index of the first slot */
  readonly base: number
  /** the context to bind the subquery in: outer columns resolve to parameter slots */
  readonly innerContext: BindContext
}

/**
 * Binds a subquery's references to the columns of `scope` around it (a LATERAL join's left side,
 * a correlated subquery's query) as parameter slots from `base` on, one per distinct column,
 * filled per outer row when the subquery runs. A name `scope` does not hold goes on to the
 * enclosing level (`bc.outer`). `what` names the subquery in the too-many-columns error.
 */
export function outerColumns(scope: Scope, bc: BindContext, bindQuery: (q: Query, bc: BindContext) => PlanNode, what: string): OuterColumns {
  const base = bc.lateralBase ?? Math.max(bc.paramTypes.length, bc.params?.length ?? 0)
  const outerRefs: BoundExpr[] = []
  const keys: string[] = []
  const outer = (c: ColumnRef): BoundExpr | undefined => {
    let b: BoundExpr
    try {
      b = bindExpr(c, { scope, paramTypes: bc.paramTypes, bindSubquery: (q) => bindQuery(q, bc) })
    } catch {
      return bc.outer?.(c)
    }
    const key = `${(c.table ?? '').toLowerCase()}.${c.name.toLowerCase()}`
    let i = keys.indexOf(key)
    if (i < 0) {
      if (keys.length >= MAX_OUTER_REFS) throw new SqlError(SqlState.PROGRAM_LIMIT_EXCEEDED, `${what} may name at most ${MAX_OUTER_REFS} outer columns`, c.pos)
      i = keys.push(key) - 1
      outerRefs.push(b)
    }
    return { kind: 'param', type: b.type, index: base + i }
  }
  return { outerRefs, base, innerContext: { ...bc, outer, lateralBase: base + MAX_OUTER_REFS } }
}

/** Binds a LATERAL join of `left` with the join's subquery. */
export function bindLateral(
  left: PlanNode, join: Join, bc: BindContext,
  bindQuery: (q: Query, bc: BindContext) => PlanNode, relabel: (n: PlanNode, alias: string) => PlanNode,
): PlanNode {
  const ref = join.table
  if (ref.kind !== 'subquery') throw new SqlError(SqlState.SYNTAX_ERROR, 'LATERAL requires a subquery', ref.pos)
  if (join.type !== 'inner' && join.type !== 'left' && join.type !== 'cross') throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, `${join.type.toUpperCase()} JOIN LATERAL is not supported`, join.pos)
  const leftScope = new Scope(left.output)
  const { outerRefs, base, innerContext } = outerColumns(leftScope, bc, bindQuery, 'a LATERAL subquery')
  checkOuterAggregates(ref.query, leftScope)
  const query = join.type === 'left' ? ref.query : dropEmptyAggregate(ref.query, bc)
  const inner = bindQuery(query, innerContext)
  const right = ref.alias === undefined ? inner : relabel(inner, ref.alias)
  const output = [...left.output, ...right.output]
  let residual: BoundExpr | undefined
  if (join.on !== undefined) {
    residual = castTo(bindExpr(join.on, { scope: new Scope(output), paramTypes: bc.paramTypes, bindSubquery: (q) => bindQuery(q, bc), clause: 'ON' }), 'BOOLEAN', join.on.pos, false)
    if (residual.kind === 'const' && residual.value === true) residual = undefined
  }
  if (join.using !== undefined) throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, 'JOIN LATERAL ... ON (col) is not supported; write ON a.col = b.col', join.pos)
  return {
    kind: 'lateral_join', type: join.type === 'left' ? 'left' : 'inner', left, right, outerRefs, paramBase: base, residual,
    output, timestampIndex: left.timestampIndex,
  }
}

/**
 * An inner LATERAL join with a subquery that aggregates without GROUP BY (`SELECT max(qty) FROM
 * fills WHERE order_id = o.id`) joins only the left rows the subquery found rows for, as QuestDB,
 * which turns it into a join with a GROUP BY on the correlated key: the subquery is wrapped to
 * return no row when it aggregated none.
 */
function dropEmptyAggregate(q: Query, bc: BindContext): Query {
  if (q.kind !== 'select' || q.groupBy !== undefined || q.sampleBy !== undefined || q.distinct) return q
  if (q.columns.some((c) => c.expr.kind === 'star') || !q.columns.some((c) => containsAggregate(c.expr))) return q
  const pos = q.pos
  const names = outputNames(q.columns, bc.naming)
  const counted: Select = {
    ...q,
    columns: [...q.columns.map((c, i) => ({ ...c, alias: names[i]! })), { expr: { kind: 'call', pos, name: 'count', args: [], distinct: false, star: false }, alias: '__lateral_rows' }],
  }
  const rows: Expr = { kind: 'column', pos, name: '__lateral_rows' }
  return {
    kind: 'select', pos, distinct: false,
    columns: names.map((n) => ({ expr: { kind: 'column', pos, name: n } as Expr, alias: n })),
    from: { kind: 'subquery', pos, query: counted }, joins: [],
    where: { kind: 'binary', pos, op: '>', left: rows, right: { kind: 'literal', pos, type: 'int', text: '0' } },
  }
}

/** An aggregate over columns of the left side only (`max(a.f1)` in `a, LATERAL (...)`) is refused. */
function checkOuterAggregates(q: Query, leftScope: Scope): void {
  if (q.kind !== 'select') return
  const own = new Set<string>()
  const from = q.from
  if (from !== undefined) {
    if (from.alias !== undefined) own.add(from.alias.toLowerCase())
    if (from.kind === 'table') own.add(from.name.toLowerCase())
  }
  const visit = (e: Expr): void => {
    if (isAggregateCall(e)) {
      const refs = collectColumnRefs(e)
      if (refs.length > 0 && refs.every((r) => r.table !== undefined && !own.has(r.table.toLowerCase()) && resolves(leftScope, r))) {
        throw new SqlError(SqlState.GROUPING_ERROR, 'aggregate functions in a LATERAL subquery cannot use only outer columns', e.pos)
      }
      return
    }
    if (e.kind === 'call') e.args.forEach(visit)
    else if (e.kind === 'binary') { visit(e.left); visit(e.right) }
  }
  for (const c of q.columns) visit(c.expr)
}

function resolves(scope: Scope, ref: ColumnRef): boolean {
  try { scope.resolve(ref); return true } catch { return false }
}
