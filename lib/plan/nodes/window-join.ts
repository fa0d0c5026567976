/** WINDOW JOIN and HORIZON JOIN: QuestDB 9's time-series joins (plan/bind-window-join.ts, bind-horizon-join.ts). */
import type { BoundAggregate, BoundExpr, NodeBase, PlanNode } from '../plan-node.js'

/** An aggregate of a WINDOW JOIN: over right rows of the window, or a left value repeated once per such row. */
export interface WindowJoinAggregate extends BoundAggregate {
  /** 'right': `args` read the right input; 'left': `args` read the left input (`sum(t.price)`) */
  readonly side: 'left' | 'right'
}

/**
 * WINDOW JOIN: for each left row, the aggregates over the right rows whose timestamp lies in
 * `[left.ts + loNanos, left.ts + hiNanos]` (both inclusive) and whose keys equal the left row's;
 * with `includePrevailing`, also the key's last right row at or before the window start when no
 * row is exactly there. Output = left columns then one column per aggregate, in left order.
 * Chained WINDOW JOINs nest: the outer one's left is the inner one.
 */
export interface WindowJoinNode extends NodeBase {
  readonly kind: 'window_join'
  readonly left: PlanNode
  readonly right: PlanNode
  readonly leftKeys: readonly BoundExpr[]
  readonly rightKeys: readonly BoundExpr[]
  /** window start relative to the left row's timestamp, in nanoseconds (negative: PRECEDING) */
  readonly loNanos: number
  /** window end relative to the left row's timestamp, in nanoseconds (>= loNanos) */
  readonly hiNanos: number
  readonly includePrevailing: boolean
  readonly aggregates: readonly WindowJoinAggregate[]
}

/**
 * HORIZON JOIN: each left row once per offset, with the offset (LONG, in the left timestamp's
 * unit), the horizon timestamp `left.ts + offset` (the left timestamp's type) and the right row
 * an ASOF match at that timestamp picks (same keys; nulls when none). Output = left columns,
 * offset, timestamp, right columns; a GROUP BY over it (QuestDB's implicit one) aggregates.
 */
export interface HorizonJoinNode extends NodeBase {
  readonly kind: 'horizon_join'
  readonly left: PlanNode
  readonly right: PlanNode
  readonly leftKeys: readonly BoundExpr[]
  readonly rightKeys: readonly BoundExpr[]
  /** the offsets in nanoseconds, increasing */
  readonly offsetsNanos: readonly number[]
}
