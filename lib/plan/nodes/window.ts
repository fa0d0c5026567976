/**
 * Window functions: the input's columns plus one column per window call (`f(...) OVER (...)`).
 *
 * Each call carries its own partitioning, ordering and frame, all bound over the input. The
 * operator (`lib/exec/operators/window.ts`) materializes the input once, sorts row indexes by
 * (partition, order keys) and computes each call per partition, writing results back in input
 * order: the output rows are the input rows, in the input's order.
 */
import type { ColumnType } from '../../types/column-type.js'
import type { SymbolTable } from '../../types/vector.js'
import type { BoundExpr, NodeBase, PlanNode, SortKey } from '../plan-node.js'

/** The window functions the operator knows. */
export type WindowFn =
  | 'row_number' | 'rank' | 'dense_rank' | 'percent_rank' | 'cume_dist' | 'ntile'
  | 'lag' | 'lead' | 'first_value' | 'last_value' | 'nth_value'
  | 'sum' | 'avg' | 'ksum' | 'count' | 'min' | 'max'

/**
 * A frame as offsets from the current row, QuestDB's `rowsLo`/`rowsHi`: `-n` for `n PRECEDING`,
 * `0` for `CURRENT ROW`, `+n` for `n FOLLOWING`, `-Infinity` / `+Infinity` for UNBOUNDED. For
 * `range` frames the offsets are in the order key's unit (microseconds for timestamps) and
 * `CURRENT ROW` takes in the current row's peers; `range` without ORDER BY makes every row of
 * the partition a peer.
 */
export interface BoundFrame {
  readonly units: 'rows' | 'range'
  readonly lo: number
  readonly hi: number
}

/** One bound window call. */
export interface WindowCall {
  /** result type */
  readonly type: ColumnType
  readonly fn: WindowFn
  /** the value argument (cast to the result type for value functions), when the function has one */
  readonly arg: BoundExpr | undefined
  /** lag/lead: the value when the offset row is outside the partition (cast to the result type) */
  readonly default: BoundExpr | undefined
  /** lag/lead offset, nth_value's n, ntile's bucket count */
  readonly n: number
  readonly ignoreNulls: boolean
  readonly partitionBy: readonly BoundExpr[]
  readonly orderBy: readonly SortKey[]
  readonly frame: BoundFrame
  /** structural key of PARTITION BY + ORDER BY: calls with equal keys share one sort */
  readonly sortKey: string
  /** position of the first ORDER BY expression (errors about RANGE) */
  readonly orderPos: number
  /** true when the frame is RANGE with offsets, which QuestDB allows only over the designated timestamp */
  readonly needsTimestampOrder: boolean
  /** symbol dictionary of the result, for SYMBOL value functions */
  readonly dict?: SymbolTable
}

/** Window functions: the input columns, then one column per window call. */
export interface WindowNode extends NodeBase {
  readonly kind: 'window'
  readonly input: PlanNode
  /** output = input's columns, then one column per call, in this order */
  readonly calls: readonly WindowCall[]
}
