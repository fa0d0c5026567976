/**
 * The optimizer: an ordered list of named rules, each a rewrite of the whole plan. A rule can be
 * switched off by name (`EPOCHDB_DISABLE_RULES=prune-columns,...` or the `disabled` option) to
 * compare plans and to bisect a wrong result.
 */
import type { PlanNode } from '../plan-node.js'
import { extractTimestampIntervals } from './extract-timestamp-intervals.js'
import { pruneColumns } from './prune-columns.js'
import { useSymbolIndex } from './use-symbol-index.js'
import { groupByTimeBucket } from './group-by-time-bucket.js'
import { decorrelateSubqueries } from './decorrelate.js'
import { pushFiltersIntoJoins } from './push-filters-into-joins.js'
import { pushFiltersIntoSubqueries } from './push-filters-into-subqueries.js'
import { pushFiltersIntoLateral } from './push-filters-into-lateral.js'
import { windowJoinIntervals } from './window-join-intervals.js'

/** A named rewrite. */
export interface Rule {
  readonly name: string
  readonly apply: (plan: PlanNode) => PlanNode
}

/** The rules, in the order they run. */
export const RULES: readonly Rule[] = [
  { name: 'decorrelate-subqueries', apply: decorrelateSubqueries },
  { name: 'push-filters-into-joins', apply: pushFiltersIntoJoins },
  { name: 'push-filters-into-subqueries', apply: pushFiltersIntoSubqueries },
  { name: 'push-filters-into-lateral', apply: pushFiltersIntoLateral },
  { name: 'extract-timestamp-intervals', apply: extractTimestampIntervals },
  { name: 'window-join-intervals', apply: windowJoinIntervals },
  { name: 'use-symbol-index', apply: useSymbolIndex },
  { name: 'group-by-time-bucket', apply: groupByTimeBucket },
  { name: 'prune-columns', apply: pruneColumns },
]

const ENV_DISABLED = new Set(
  (typeof process !== 'undefined' ? process.env['EPOCHDB_DISABLE_RULES'] ?? '' : '').split(',').map((s) => s.trim()).filter((s) => s !== ''),
)

/** Runs every enabled rule over `plan`. */
export function optimize(plan: PlanNode, disabled: ReadonlySet<string> = ENV_DISABLED): PlanNode {
  let p = plan
  for (const r of RULES) if (!disabled.has(r.name)) p = r.apply(p)
  return p
}
