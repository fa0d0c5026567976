/**
 * The physical-planning step as statements run it: each execution plans its optimized plan's
 * physical operators (plan/physical) for the data and worker threads it finds now, after
 * evaluating its scans' runtime timestamp bounds (`ts IN today()`, `ts > $1`) against this
 * execution's now() and parameters (plan/physical/runtime-intervals.ts). EXPLAIN plans the
 * same way, after computing the subqueries such bounds read ({@link runtimeBoundSubqueries}).
 */
import type { BoundExpr, PlanNode } from '../../plan/plan-node.js'
import { PHYSICAL_TUNING, physicalPlan } from '../../plan/physical/index.js'
import { resolveRuntimeIntervals } from '../../plan/physical/runtime-intervals.js'
import { parallelWorkers } from '../parallel/pool.js'
import type { ExecContext } from '../context.js'
import { evalConstant } from '../evaluate.js'
import { findSubqueries } from '../subqueries.js'
import { mapChildren } from '../../plan/optimize/walk.js'

/** The physical plan of an optimized plan, for this execution (`ctx`: its runtime bounds prune scans; without it they prune nothing). */
export function physical(plan: PlanNode, ctx?: ExecContext): PlanNode {
  const resolved = ctx === undefined ? plan : resolveRuntimeIntervals(plan, { evaluate: (e) => evalConstant(e, ctx), ready: (e) => computed(e, ctx), params: ctx.params, now: ctx.now, nowSub: ctx.nowSub })
  return physicalPlan(resolved, { workers: parallelWorkers(), minRows: PHYSICAL_TUNING.minRows, filters: PHYSICAL_TUNING.filters })
}

/**
 * The uncorrelated subqueries a scan's runtime timestamp bounds read (`ts > (SELECT max(ts) ...)`),
 * outside the right side of a LATERAL join (bounds there are evaluated per row, never narrow the
 * scan). EXPLAIN computes them before planning, as QuestDB's plan of a runtime interval runs its
 * subquery to print the intervals it scans; the other subqueries of the query are not run.
 */
export function runtimeBoundSubqueries(plan: PlanNode): BoundExpr[] {
  const out: BoundExpr[] = []
  const visit = (node: PlanNode): PlanNode => {
    if (node.kind === 'scan') {
      for (const b of node.runtimeBounds ?? []) {
        for (const e of b.op === 'between' ? [b.lo, b.hi] : b.op === 'in' ? [b.test] : [b.value]) out.push(...findSubqueries(e))
      }
      return node
    }
    if (node.kind === 'lateral_join') { visit(node.left); return node }
    return mapChildren(node, visit)
  }
  visit(plan)
  return out
}

/**
 * Whether a runtime bound's value can be had now: a subquery in it must have been computed
 * (statements compute a query's subqueries before planning it; EXPLAIN computes those of runtime bounds only).
 */
function computed(e: BoundExpr, ctx: ExecContext): boolean {
  return findSubqueries(e).every((q) => (q.kind !== 'subquery' && q.kind !== 'exists' && q.kind !== 'in_query') || ctx.subqueryValues.has(q))
}
