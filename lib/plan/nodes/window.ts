/** Window functions: the input's columns plus one column per window call (issue: time-series SQL). */
import type { NodeBase, PlanNode } from '../plan-node.js'

export interface WindowNode extends NodeBase {
  readonly kind: 'window'
  readonly input: PlanNode
}
