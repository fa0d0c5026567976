/**
 * Rule `push-filters-into-aggregates`: a WHERE over a subquery, view or CTE that groups
 * (`SELECT * FROM (SELECT k, sum(v) FROM t GROUP BY k) WHERE k = 'a'`) moves its conjuncts that
 * read only grouping keys below the grouping, so the rows of other keys are never read or
 * aggregated; on a table scan they then pick the symbol index (`use-symbol-index`) and the
 * designated-timestamp intervals (`extract-timestamp-intervals`) as a WHERE written inside would.
 *
 * What passes which node is decided by grouping-keys.ts: the keys of a GROUP BY with keys, the
 * keys other than the bucket of a SAMPLE BY without FILL aligned to the calendar, every column of
 * a DISTINCT. Conjuncts also go through projections (inlined), filters and ORDER BY on the way, and into
 * joins below by the rules of `push-filters-into-joins`. Nothing passes a LIMIT, a window
 * function, LATEST ON, a set operation, a SAMPLE BY with FILL (the filled rows follow from every
 * key and bucket seen) or ALIGN TO FIRST OBSERVATION (the buckets start at the first row read).
 * Only deterministic conjuncts move, and only ones that name a column (a constant conjunct over a
 * GROUP BY without keys would remove its one row over no input).
 */
import type { PlanNode } from '../plan-node.js'
import { sinkFilter } from './push-filters-into-joins.js'
import { conjunctsOf, mapChildren } from './walk.js'

/** Applies the rule everywhere in the plan. */
export function pushFiltersIntoAggregates(node: PlanNode): PlanNode {
  const n = mapChildren(node, pushFiltersIntoAggregates)
  if (n.kind !== 'filter' || n.projection !== undefined || !overGrouping(n.input)) return n
  return sinkFilter(n.input, conjunctsOf(n.predicate))
}

/** True when `n` is a grouping node, possibly under projections and filters (a subquery's select list, its HAVING, its ORDER BY). */
function overGrouping(n: PlanNode): boolean {
  switch (n.kind) {
    case 'aggregate': case 'sample_by': case 'distinct': return true
    case 'project': case 'sort': return overGrouping(n.input)
    case 'filter': return n.projection === undefined && overGrouping(n.input)
    default: return false
  }
}
