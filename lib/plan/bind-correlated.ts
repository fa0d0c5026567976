/**
 * Correlated subqueries: `(SELECT ... WHERE t.k = o.k)` in a select list, and `EXISTS`, `NOT
 * EXISTS`, `x [NOT] IN (SELECT ...)` and scalar subqueries in WHERE, naming columns of the query
 * around them. The subquery is bound once with each outer column it names as a parameter slot
 * (as a LATERAL subquery, bind-lateral.ts); the binder then puts an *apply* step under the
 * filter or projection (a {@link LateralJoinNode} with `apply` set) that adds one column per
 * correlated subquery, computed per outer row (exec/operators/apply.ts: results are memoised per
 * distinct outer values, so an equality correlation on a key costs one run per key).
 */
import { SqlError, SqlState } from '../errors.js'
import type { ColumnRef, Query } from '../sql/ast.js'
import type { ColumnType } from '../types/column-type.js'
import type { BoundExpr, CorrelatedApply, PlanNode } from './plan-node.js'
import { Scope } from './scope.js'
import { bindExpr } from './bind-expr.js'
import type { BindContext } from './bind-query.js'

/** Outer columns one correlated subquery may name (its parameter slots). */
const MAX_OUTER_REFS = 256

/** A subquery bound for use inside an expression over `scope`. */
export interface BoundSubplan {
  readonly plan: PlanNode
  /** the outer columns it names, bound over the enclosing scope; empty when uncorrelated */
  readonly outerRefs: readonly BoundExpr[]
  /** parameter slot of the first outer column */
  readonly paramBase: number
}

/** A correlated subquery found while binding an expression, to be computed by an apply step. */
export interface CorrelatedSpec extends BoundSubplan {
  readonly apply: CorrelatedApply
  /** type of the column the apply step adds */
  readonly type: ColumnType
}

/**
 * Binds `q` where the columns of `scope` (the enclosing query's row) may be named: each one it
 * names becomes a parameter slot.
 */
export function bindSubplan(q: Query, scope: Scope, bc: BindContext, bindQuery: (q: Query, bc: BindContext) => PlanNode): BoundSubplan {
  if (scope.columns.length === 0) return { plan: bindQuery(q, bc), outerRefs: [], paramBase: 0 }
  const base = bc.lateralBase ?? Math.max(bc.paramTypes.length, bc.params?.length ?? 0)
  const outerRefs: BoundExpr[] = []
  const keys: string[] = []
  const outer = (c: ColumnRef): BoundExpr | undefined => {
    let b: BoundExpr
    try {
      b = bindExpr(c, { scope, paramTypes: bc.paramTypes, bindSubquery: (sq) => bindQuery(sq, bc) })
    } catch {
      return bc.outer?.(c)
    }
    const key = `${(c.table ?? '').toLowerCase()}.${c.name.toLowerCase()}`
    let i = keys.indexOf(key)
    if (i < 0) {
      if (keys.length >= MAX_OUTER_REFS) throw new SqlError(SqlState.PROGRAM_LIMIT_EXCEEDED, `a correlated subquery may name at most ${MAX_OUTER_REFS} outer columns`, c.pos)
      i = keys.push(key) - 1
      outerRefs.push(b)
    }
    return { kind: 'param', type: b.type, index: base + i }
  }
  const plan = bindQuery(q, { ...bc, outer, lateralBase: base + MAX_OUTER_REFS })
  return { plan, outerRefs, paramBase: base }
}

/**
 * `input` with one column added per correlated subquery in `specs` (in order), so expressions
 * bound with `{ kind: 'column', index: input.output.length + i }` read subquery i's value.
 */
export function applyCorrelated(input: PlanNode, specs: readonly CorrelatedSpec[]): PlanNode {
  let node = input
  specs.forEach((s, i) => {
    node = {
      kind: 'lateral_join', type: 'left', left: node, right: s.plan, outerRefs: s.outerRefs, paramBase: s.paramBase,
      residual: undefined, apply: s.apply,
      output: [...node.output, { name: `\u0000correlated${i}`, type: s.type }], timestampIndex: node.timestampIndex,
    }
  })
  return node
}
