/**
 * The physical-planning step as statements run it: each execution plans its optimized plan's
 * physical operators (plan/physical) for the data and worker threads it finds now, after
 * evaluating its scans' runtime timestamp bounds (`ts IN today()`, `ts > $1`) against this
 * execution's now() and parameters (plan/physical/runtime-intervals.ts).
 */
import type { BoundExpr, PlanNode } from '../../plan/plan-node.js'
import { PHYSICAL_TUNING, physicalPlan } from '../../plan/physical/index.js'
import { resolveRuntimeIntervals } from '../../plan/physical/runtime-intervals.js'
import { parallelWorkers } from '../parallel/pool.js'
import type { ExecContext } from '../context.js'
import { evalConstant } from '../evaluate.js'
import { findSubqueries } from '../subqueries.js'

/** The physical plan of an optimized plan, for this execution (`ctx`: its runtime bounds prune scans; without it they prune nothing). */
export function physical(plan: PlanNode, ctx?: ExecContext): PlanNode {
  const resolved = ctx === undefined ? plan : resolveRuntimeIntervals(plan, { evaluate: (e) => evalConstant(e, ctx), ready: (e) => computed(e, ctx), params: ctx.params, now: ctx.now, nowSub: ctx.nowSub })
  return physicalPlan(resolved, { workers: parallelWorkers(), minRows: PHYSICAL_TUNING.minRows, filters: PHYSICAL_TUNING.filters })
}

/**
 * Whether a runtime bound's value can be had now: a subquery in it must have been computed
 * (statements compute a query's subqueries before planning it; EXPLAIN does not run them).
 */
function computed(e: BoundExpr, ctx: ExecContext): boolean {
  return findSubqueries(e).every((q) => (q.kind !== 'subquery' && q.kind !== 'exists' && q.kind !== 'in_query') || ctx.subqueryValues.has(q))
}
