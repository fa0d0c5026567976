/** ASOF / LT / SPLICE JOIN over the two designated timestamps (issue: time-series SQL). */
import type { BoundExpr, NodeBase, PlanNode } from '../plan-node.js'

/**
 * A merge join of two inputs in designated-timestamp order. Output = left columns then right
 * columns. `leftKeys[i]` (over the left input) equals `rightKeys[i]` (over the right input);
 * both sides of a pair have the same type, or are both text (SYMBOL/STRING/VARCHAR, compared by
 * value). No keys: a pure time match.
 */
export interface TimeJoinNode extends NodeBase {
  readonly kind: 'time_join'
  readonly type: 'asof' | 'lt' | 'splice'
  readonly left: PlanNode
  readonly right: PlanNode
  readonly leftKeys: readonly BoundExpr[]
  readonly rightKeys: readonly BoundExpr[]
  /** ASOF/LT TOLERANCE in microseconds (a match needs left.ts - right.ts <= tolerance) */
  readonly tolerance: number | undefined
  /**
   * nanoseconds past `tolerance`'s microseconds (0-999) of a TOLERANCE in `n`: TIMESTAMP_NS sides
   * compare to the nanosecond (`500n` is 0 µs + 500); absent: 0
   */
  readonly toleranceSub?: number
}
