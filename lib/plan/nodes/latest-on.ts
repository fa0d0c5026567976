/** LATEST ON ts PARTITION BY keys: the newest row per key (issue: time-series SQL). */
import type { BoundExpr, NodeBase, PlanNode } from '../plan-node.js'

export interface LatestOnNode extends NodeBase {
  readonly kind: 'latest_on'
  readonly input: PlanNode
  readonly partitionBy: readonly BoundExpr[]
}
