/**
 * Physical nodes: operators the physical-planning step (plan/physical) chooses over the logical
 * plan the binder and optimizer made. EXPLAIN prints them; the executor runs them as chosen.
 */
import type { AggregateNode, BoundExpr, FilterNode, NodeBase, ScanNode } from '../plan-node.js'
import type { SampleByNode } from './sample-by.js'

/**
 * A GROUP BY or SAMPLE BY over a table scan (optionally filtered) split across threads: each
 * share aggregates one contiguous row range of each table part into partial groups (the
 * aggregate kernels' state), and the final step folds the partials together with
 * `AggregateKernel.merge`, in row order (so first/last and string_agg keep their order).
 * Output: `logical`'s.
 */
export interface ParallelAggregateNode extends NodeBase {
  readonly kind: 'parallel_aggregate'
  /** the aggregation as the binder made it (EXPLAIN prints its input; permissions follow it) */
  readonly logical: AggregateNode | SampleByNode
  /**
   * what every share runs: `logical` with its keys, aggregates and timestamp column over the
   * scan's columns (a pruning filter's projection undone), its input the scan under `filter`
   */
  readonly share: AggregateNode | SampleByNode
  /** the table scan whose rows the shares split */
  readonly scan: ScanNode
  /** the filter over the scan's columns, run by each share before aggregating */
  readonly filter: BoundExpr | undefined
  /** worker threads besides the thread running the statement */
  readonly workers: number
}

/**
 * A filter over a table scan split across threads: each share evaluates the predicate over one
 * contiguous row range (inside the scan's timestamp intervals) and hands back the row numbers
 * it keeps; this thread gathers those rows' columns and streams them in row order. Output:
 * `logical`'s (its projection applied).
 */
export interface ParallelFilterNode extends NodeBase {
  readonly kind: 'parallel_filter'
  /** the filter as the optimizer left it, over `scan` */
  readonly logical: FilterNode
  readonly scan: ScanNode
  /** worker threads besides the thread running the statement */
  readonly workers: number
}
