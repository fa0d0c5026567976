/**
 * The physical-planning step, between the optimizer and execution: chooses how each part of
 * the logical plan runs, as explicit nodes EXPLAIN prints (plan/nodes/parallel.ts). Rules are
 * named, in order, and each can be switched off (`EPOCHDB_DISABLE_RULES`, as the optimizer's).
 *
 * It runs when a statement executes, not when its plan is cached: the choices depend on the
 * data (a table's row count) and on the machine (free worker threads), which change while a
 * cached plan lives.
 */
import type { PlanNode } from '../plan-node.js'
import { mapChildren } from '../optimize/walk.js'
import { type PhysicalOptions, PARALLEL_MIN_ROWS, PHYSICAL_TUNING } from './options.js'
import { parallelAggregate } from './parallel-aggregate.js'
import { parallelFilter } from './parallel-filter.js'

export { type PhysicalOptions, PARALLEL_MIN_ROWS, PHYSICAL_TUNING }

/** A physical rule: the node's physical form, or undefined to keep it (and look at its inputs). */
export interface PhysicalRule {
  readonly name: string
  readonly choose: (node: PlanNode, options: PhysicalOptions) => PlanNode | undefined
}

/** The rules, tried in order on each node from the root down; the first that answers wins. */
export const PHYSICAL_RULES: readonly PhysicalRule[] = [
  { name: 'parallel-aggregate', choose: parallelAggregate },
  { name: 'parallel-filter', choose: parallelFilter },
]

const ENV_DISABLED = new Set(
  (typeof process !== 'undefined' ? process.env['EPOCHDB_DISABLE_RULES'] ?? '' : '').split(',').map((s) => s.trim()).filter((s) => s !== ''),
)

/** The physical plan of an optimized `plan`. */
export function physicalPlan(plan: PlanNode, options: PhysicalOptions, disabled: ReadonlySet<string> = ENV_DISABLED): PlanNode {
  if (options.workers <= 0) return plan
  const rules = PHYSICAL_RULES.filter((r) => !disabled.has(r.name))
  const visit = (node: PlanNode): PlanNode => {
    for (const r of rules) {
      const chosen = r.choose(node, options)
      if (chosen !== undefined) return chosen
    }
    return mapChildren(node, visit)
  }
  return visit(plan)
}
