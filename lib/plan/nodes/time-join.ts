/** ASOF / LT / SPLICE JOIN over the two designated timestamps (issue: time-series SQL). */
import type { BoundExpr, NodeBase, PlanNode } from '../plan-node.js'

export interface TimeJoinNode extends NodeBase {
  readonly kind: 'time_join'
  readonly type: 'asof' | 'lt' | 'splice'
  readonly left: PlanNode
  readonly right: PlanNode
  readonly leftKeys: readonly BoundExpr[]
  readonly rightKeys: readonly BoundExpr[]
}
