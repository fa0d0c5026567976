/**
 * Rule `push-filters-into-lateral`: a WHERE over a LATERAL join (or over a correlated subquery's
 * apply step, plan/bind-correlated.ts) moves its conjuncts to where they remove rows earliest:
 *
 * - a conjunct naming only left columns goes onto the left side, for every LATERAL join and apply
 *   step: each left row's subquery runs on its own, so removing left rows first changes no other
 *   row's result, and the removed rows' subqueries never run;
 * - of an INNER LATERAL join (not an apply step), a conjunct naming right columns goes into the
 *   subquery, as a WHERE around its result: a joined row is kept when its right row passes, so
 *   keeping only the right rows that pass is the same. Left columns it names become parameter
 *   slots of the subquery, filled per left row as its own outer references are (so only when
 *   the subquery already has some: an uncorrelated one keeps running unparameterised). Inside, the
 *   conjunct goes on down by the rules of `push-filters-into-joins` (through projections, below
 *   grouping keys).
 *
 * A LEFT LATERAL join keeps right-side conjuncts above (they also see the NULLs of left rows
 * without right rows), and a subquery that is a table function over the left row (`UNNEST`, run
 * over whole left batches, exec/operators/lateral-unnest.ts) keeps them above too. Only
 * deterministic conjuncts move.
 */
import type { BoundExpr, LateralJoinNode, PlanNode } from '../plan-node.js'
import { MAX_OUTER_REFS } from '../bind-lateral.js'
import { sinkFilter } from './push-filters-into-joins.js'
import { inlineExpr, movable } from './inline-expr.js'
import { andAll, columnsOf, conjunctsOf, mapChildren } from './walk.js'

/** Applies the rule everywhere in the plan. */
export function pushFiltersIntoLateral(node: PlanNode): PlanNode {
  const n = mapChildren(node, pushFiltersIntoLateral)
  if (n.kind !== 'filter' || n.projection !== undefined || n.input.kind !== 'lateral_join') return n
  const join = n.input
  const nLeft = join.left.output.length
  const intoRight = join.type === 'inner' && join.apply === undefined && join.right.kind !== 'table_function'
  const outerRefs = [...join.outerRefs]
  const left: BoundExpr[] = []
  const right: BoundExpr[] = []
  const stay: BoundExpr[] = []
  for (const c of conjunctsOf(n.predicate)) {
    const cols = new Set<number>()
    columnsOf(c, cols)
    const rightOnes = [...cols].filter((i) => i >= nLeft).length
    const moved = !movable(c) || cols.size === 0 ? undefined
      : rightOnes === 0 ? 'left'
      : intoRight && (rightOnes === cols.size || join.outerRefs.length > 0) ? overRight(c, cols, join, outerRefs) : undefined
    if (moved === 'left') left.push(c)
    else if (moved === undefined) stay.push(c)
    else right.push(moved)
  }
  if (left.length === 0 && right.length === 0) return n
  const joined: LateralJoinNode = {
    ...join,
    left: left.length === 0 ? join.left : sinkFilter(join.left, left),
    right: right.length === 0 ? join.right : sinkFilter(join.right, right),
    outerRefs,
  }
  const template = conjunctsOf(n.predicate).length > 1 ? n.predicate : undefined
  return stay.length === 0 ? joined : { ...n, input: joined, predicate: andAll(stay, template) ?? n.predicate }
}

/**
 * Conjunct `c` (over the joined row, reading columns `cols`) rewritten over the subquery's output:
 * right column i is its column i - nLeft, a left column is the parameter slot of the outer
 * reference reading it (one added to `outerRefs` when none does); undefined when the slots run out.
 */
function overRight(c: BoundExpr, cols: ReadonlySet<number>, join: LateralJoinNode, outerRefs: BoundExpr[]): BoundExpr | undefined {
  const nLeft = join.left.output.length
  const exprs: BoundExpr[] = []
  for (const i of cols) {
    if (i >= nLeft) {
      const col = join.right.output[i - nLeft]!
      exprs[i] = { kind: 'column', type: col.type, index: i - nLeft, ...(col.dict === undefined ? {} : { dict: col.dict }) }
      continue
    }
    let k = outerRefs.findIndex((r) => r.kind === 'column' && r.index === i)
    if (k < 0) {
      if (outerRefs.length >= MAX_OUTER_REFS) return undefined
      const col = join.left.output[i]!
      k = outerRefs.push({ kind: 'column', type: col.type, index: i, ...(col.dict === undefined ? {} : { dict: col.dict }) }) - 1
    }
    exprs[i] = { kind: 'param', type: join.left.output[i]!.type, index: join.paramBase + k }
  }
  return inlineExpr(c, exprs)
}
