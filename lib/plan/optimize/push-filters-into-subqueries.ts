/**
 * Rule `push-filters-into-subqueries`: a WHERE over a subquery, view or CTE
 * (`SELECT * FROM (SELECT k, sum(v) FROM t GROUP BY k) WHERE k = 'a'`) moves its conjuncts into
 * it as far as they go, as if written inside: through its select list (inlined), its WHERE
 * (merged), its ORDER BY, below its GROUP BY, SAMPLE BY or DISTINCT when they read only grouping
 * keys, into both inputs of its UNION / EXCEPT / INTERSECT, and into its joins by the rules of
 * `push-filters-into-joins`. The rows of other keys are then never read or aggregated, and a
 * conjunct that lands on a table scan picks the symbol index (`use-symbol-index`) and the
 * designated-timestamp intervals (`extract-timestamp-intervals`).
 *
 * What passes a grouping node is decided by grouping-keys.ts: the keys of a GROUP BY with keys,
 * the keys other than the bucket of a SAMPLE BY without FILL aligned to the calendar, every
 * column of a DISTINCT. Nothing passes a LIMIT, a window function, LATEST ON, a SAMPLE BY with
 * FILL (the filled rows follow from every key and bucket seen) or ALIGN TO FIRST OBSERVATION (the
 * buckets start at the first row read). Only deterministic conjuncts move, and into a grouping
 * only ones that name a column (a constant conjunct over a GROUP BY without keys would remove its
 * one row over no input).
 */
import type { PlanNode } from '../plan-node.js'
import { sinkFilter } from './push-filters-into-joins.js'
import { conjunctsOf, mapChildren } from './walk.js'

/** Applies the rule everywhere in the plan. */
export function pushFiltersIntoSubqueries(node: PlanNode): PlanNode {
  const n = mapChildren(node, pushFiltersIntoSubqueries)
  if (n.kind !== 'filter' || n.projection !== undefined) return n
  switch (n.input.kind) {
    case 'project': case 'sort': case 'aggregate': case 'sample_by': case 'distinct': case 'setop':
      return sinkFilter(n.input, conjunctsOf(n.predicate))
    // the subquery's own WHERE (or HAVING) left above a node nothing passes: merged, then sunk
    case 'filter':
      return n.input.projection === undefined ? sinkFilter(n.input, conjunctsOf(n.predicate)) : n
    default:
      return n
  }
}
