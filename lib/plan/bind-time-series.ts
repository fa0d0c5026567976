/**
 * Binding hooks for the time-series extensions. The select binder calls these; each is
 * implemented in its own file.
 */
import type { Select } from '../sql/ast.js'
import type { BoundAggregate, BoundExpr, PlanNode } from './plan-node.js'
import type { Scope } from './scope.js'
import type { BindContext } from './bind-query.js'

/** What the SAMPLE BY binder receives: the aggregation as bound by the select binder. */
export interface SampleByArgs {
  readonly select: Select
  readonly source: PlanNode
  readonly scope: Scope
  /** non-aggregate select expressions (QuestDB's implicit keys), bound over `source` */
  readonly keys: readonly BoundExpr[]
  readonly aggregates: readonly BoundAggregate[]
  readonly bc: BindContext
  /** set for a nanosecond stride over a TIMESTAMP_NS designated timestamp (already checked) */
  readonly nanoseconds?: boolean
}

/** Binds SAMPLE BY into a node whose output is keys then aggregates. */
export { bindSampleBy } from './bind-sample-by.js'

export { bindLatestOn } from './bind-latest-on.js'

export { bindTimeJoin } from './bind-time-join.js'

export type { WindowCall } from './nodes/window.js'
export { bindWindowCall, windowNode } from './bind-window.js'
