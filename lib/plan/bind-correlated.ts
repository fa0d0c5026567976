/**
 * Correlated subqueries: `(SELECT ... WHERE t.k = o.k)` in a select list, and `EXISTS`, `NOT
 * EXISTS`, `x [NOT] IN (SELECT ...)` and scalar subqueries in WHERE, naming columns of the query
 * around them. The subquery is bound once with each outer column it names as a parameter slot
 * (as a LATERAL subquery, bind-lateral.ts); the binder then puts an *apply* step under the
 * filter or projection (a {@link LateralJoinNode} with `apply` set) that adds one column per
 * correlated subquery, computed per outer row (exec/operators/apply.ts: results are memoised per
 * distinct outer values, so an equality correlation on a key costs one run per key).
 */
import type { Query } from '../sql/ast.js'
import type { ColumnType } from '../types/column-type.js'
import type { BoundExpr, CorrelatedApply, PlanNode } from './plan-node.js'
import { Scope } from './scope.js'
import type { BindContext } from './bind-query.js'
import { outerColumns } from './bind-lateral.js'

/** Outer columns one correlated subquery may name (its parameter slots). */

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
  const { outerRefs, base, innerContext } = outerColumns(scope, bc, bindQuery, 'a correlated subquery')
  const plan = bindQuery(q, innerContext)
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
