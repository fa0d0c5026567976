/**
 * Binding hooks for the time-series extensions. The select binder calls these; each is
 * implemented in its own file.
 */
import { notSupported } from '../errors.js'
import type { Call, NamedWindow, Select } from '../sql/ast.js'
import type { ColumnType } from '../types/column-type.js'
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
}

/** Binds SAMPLE BY into a node whose output is keys then aggregates. */
export { bindSampleBy } from './bind-sample-by.js'

export { bindLatestOn } from './bind-latest-on.js'

export { bindTimeJoin } from './bind-time-join.js'

/** A window call bound over the select's input. */
export interface WindowCall {
  readonly type: ColumnType
}

/** Binds one `f(...) OVER (...)` call over `scope` (named windows from the WINDOW clause). */
export function bindWindowCall(call: Call, scope: Scope, bc: BindContext, windows: readonly NamedWindow[]): WindowCall {
  void scope; void bc; void windows
  throw notSupported('window functions are not supported yet', call.pos)
}

/** The node computing `calls` over `input`: output = input's columns, then one per call. */
export function windowNode(input: PlanNode, calls: readonly WindowCall[]): PlanNode {
  void calls
  return input
}
