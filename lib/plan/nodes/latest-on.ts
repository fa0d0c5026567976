/** LATEST ON ts PARTITION BY keys: the newest row per key (issue: time-series SQL). */
import type { BoundExpr, NodeBase, PlanNode } from '../plan-node.js'

/**
 * The latest row of each distinct `partitionBy` value, by the timestamp column `timestampColumn`
 * of the input (ties: the later row in input order wins). Output = the input's columns, one row
 * per key, in ascending order of that timestamp; `timestampIndex` is `timestampColumn`.
 */
export interface LatestOnNode extends NodeBase {
  readonly kind: 'latest_on'
  readonly input: PlanNode
  readonly partitionBy: readonly BoundExpr[]
  /** input column holding the LATEST ON timestamp */
  readonly timestampColumn: number
  /** true when that column is the input's designated timestamp (input rows are in its order) */
  readonly ordered: boolean
  /**
   * Set by rule `use-symbol-index` when the input is a bare table scan and the one key is an
   * indexed SYMBOL column: the latest row of each symbol is read from the index (the table column).
   */
  readonly symbolIndex?: number
}
