/**
 * The physical-planning step as statements run it: each execution plans its optimized plan's
 * physical operators (plan/physical) for the data and worker threads it finds now.
 */
import type { PlanNode } from '../../plan/plan-node.js'
import { PHYSICAL_TUNING, physicalPlan } from '../../plan/physical/index.js'
import { parallelWorkers } from '../parallel/pool.js'

/** The physical plan of an optimized plan, for this execution. */
export function physical(plan: PlanNode): PlanNode {
  return physicalPlan(plan, { workers: parallelWorkers(), minRows: PHYSICAL_TUNING.minRows, filters: PHYSICAL_TUNING.filters })
}
