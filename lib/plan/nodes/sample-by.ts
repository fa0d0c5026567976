/**
 * SAMPLE BY: a GROUP BY whose first key is the designated timestamp's bucket (issue: time-series SQL).
 * Output layout is the same as an aggregate node's: keys, then aggregates.
 */
import type { BoundAggregate, BoundExpr, NodeBase, PlanNode } from '../plan-node.js'

export interface SampleByNode extends NodeBase {
  readonly kind: 'sample_by'
  readonly input: PlanNode
  /** the select list's non-aggregate expressions (the bucket timestamp among them, see `timestampKey`) */
  readonly keys: readonly BoundExpr[]
  readonly aggregates: readonly BoundAggregate[]
}
