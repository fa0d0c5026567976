/**
 * The typed plan the binder produces and the executor runs: bound expressions (names resolved to
 * column indexes, functions to definitions, every node typed) and plan nodes (relational
 * operators). Both are discriminated unions; the executor dispatches on `kind` exhaustively.
 */
import type { ColumnType } from '../types/column-type.js'
import type { Scalar, SymbolTable } from '../types/vector.js'
import type { AggregateFunctionDef, CallSite, ScalarFunctionDef, TableFunctionDef } from '../functions/registry-types.js'
import type { Table, TableMeta } from '../storage/table.js'
import type { JoinType } from '../sql/ast.js'
import type { SampleByNode } from './nodes/sample-by.js'
import type { LatestOnNode } from './nodes/latest-on.js'
import type { TimeJoinNode } from './nodes/time-join.js'
import type { HorizonJoinNode, WindowJoinNode } from './nodes/window-join.js'
import type { WindowNode } from './nodes/window.js'
import type { ParallelAggregateNode, ParallelFilterNode } from './nodes/parallel.js'
import type { LiteralList } from './literal-list.js'

export type { SampleByNode, LatestOnNode, TimeJoinNode, WindowNode, ParallelAggregateNode, ParallelFilterNode, WindowJoinNode, HorizonJoinNode }

// ---------------------------------------------------------------------------------------------
// Expressions

export type BoundExpr =
  | { readonly kind: 'column'; readonly type: ColumnType; readonly index: number; readonly dict?: SymbolTable }
  // `text`: a DOUBLE literal's source text, so that where a DECIMAL is expected it converts exactly, as
  // PostgreSQL's numeric literals do (psycopg2 inlines a Python Decimal as a bare `1.05`)
  | { readonly kind: 'const'; readonly type: ColumnType; readonly value: Scalar; readonly text?: string }
  | { readonly kind: 'param'; readonly type: ColumnType; readonly index: number; readonly untyped?: boolean } // untyped: STRING until its use says otherwise
  | { readonly kind: 'call'; readonly type: ColumnType; readonly def: ScalarFunctionDef; readonly site: CallSite; readonly args: readonly BoundExpr[] }
  | { readonly kind: 'cast'; readonly type: ColumnType; readonly expr: BoundExpr; readonly pos: number }
  | { readonly kind: 'case'; readonly type: ColumnType; readonly whens: readonly { readonly when: BoundExpr; readonly then: BoundExpr }[]; readonly else: BoundExpr }
  // `values`: a long list of literals is a LiteralList, converted when the statement runs
  | { readonly kind: 'in'; readonly type: 'BOOLEAN'; readonly expr: BoundExpr; readonly values: readonly Scalar[] | LiteralList; readonly not: boolean }
  // `param`: `ts IN $n` with a text parameter, whose value is an interval string parsed per execution (`intervals` unused)
  // `tick`: a TICK text with `$now`/`$today`..., parsed per execution against the statement's now() (`intervals` unused)
  | { readonly kind: 'in_intervals'; readonly type: 'BOOLEAN'; readonly expr: BoundExpr; readonly intervals: Float64Array; readonly not: boolean; readonly param?: { readonly index: number; readonly pos: number }; readonly tick?: { readonly text: string; readonly pos: number }; readonly nsIntervals?: Float64Array }
  | { readonly kind: 'isnull'; readonly type: 'BOOLEAN'; readonly expr: BoundExpr; readonly not: boolean }
  | { readonly kind: 'subquery'; readonly type: ColumnType; readonly plan: PlanNode; readonly pos: number }
  | { readonly kind: 'exists'; readonly type: 'BOOLEAN'; readonly plan: PlanNode; readonly not: boolean }
  | { readonly kind: 'in_query'; readonly type: 'BOOLEAN'; readonly expr: BoundExpr; readonly plan: PlanNode; readonly not: boolean }

// ---------------------------------------------------------------------------------------------
// Plan nodes

/** An output column of a plan node. */
export interface OutputColumn {
  readonly name: string
  readonly type: ColumnType
  /** symbol dictionary, when the column is a table's SYMBOL column passed through */
  readonly dict?: SymbolTable
  /** the table alias/name this column came from, for qualified references (`t.col`) */
  readonly table?: string
}

/** One aggregate computed by an aggregate node. */
export interface BoundAggregate {
  readonly def: AggregateFunctionDef
  readonly site: CallSite
  readonly args: readonly BoundExpr[]
}

/** One ORDER BY key of a sort node. */
export interface SortKey {
  readonly expr: BoundExpr
  readonly desc: boolean
  readonly nullsFirst: boolean
}

/**
 * A designated-timestamp conjunct whose bounds are constant for one execution but not known when
 * the plan is made: a comparison (`ts > value`, the column on the left; a flipped one is turned
 * round), a BETWEEN, or an `ts IN` test whose interval text is a parameter or a TICK with `$now`.
 * `ns`: the column is TIMESTAMP_NS (the range then covers the nanosecond bounds in microseconds).
 */
export type RuntimeBound =
  | { readonly op: '=' | '>' | '>=' | '<' | '<='; readonly value: BoundExpr; readonly ns: boolean }
  | { readonly op: 'between'; readonly lo: BoundExpr; readonly hi: BoundExpr; readonly ns: boolean }
  | { readonly op: 'in'; readonly test: Extract<BoundExpr, { kind: 'in_intervals' }>; readonly ns: boolean }

/** Fields every plan node has. */
export interface NodeBase {
  readonly output: readonly OutputColumn[]
  /** index of the designated timestamp in the output, or -1 */
  readonly timestampIndex: number
}

/** Reads a table snapshot (optionally only some timestamp ranges). */
export interface ScanNode extends NodeBase {
  readonly kind: 'scan'
  readonly table: Table
  /** read by a view's query: access control checks SELECT on the view, not on this table (definer model) */
  readonly inView?: boolean
  /**
   * The table metadata `columns` index into (scans of catalog tables): the scan refuses a
   * snapshot taken under other metadata (a DDL statement ran between planning and reading).
   */
  readonly meta?: TableMeta
  /** table column index of each output column */
  readonly columns: readonly number[]
  /**
   * Inclusive [lo, hi] pairs (sorted, disjoint) of designated-timestamp values to read; absent
   * means the whole table. Set by the `extract-timestamp-intervals` rule; the scan finds the row
   * ranges by binary search, so cost follows the rows in range.
   */
  readonly intervals?: Float64Array
  /**
   * Conjuncts on the designated timestamp whose bounds are known only when the statement runs
   * (`ts IN today()`, `ts > dateadd('h', -1, now())`, `ts > $1`, `ts IN '$today'`). Set by the
   * `extract-timestamp-intervals` rule, which leaves the conjuncts in the filter too; each
   * execution's physical step evaluates them ({@link RuntimeBound}) and narrows `intervals` (a
   * microsecond column's conjunct then leaves the filter), so a cached or prepared plan never
   * keeps an old now() or parameter. Unresolved, they prune nothing.
   */
  readonly runtimeBounds?: readonly RuntimeBound[]
  /**
   * Read only the rows whose SYMBOL column `column` (table column index, an indexed column) holds
   * one of `values`, found in the column's symbol index. Set by the `use-symbol-index` rule; the
   * filter above still checks every row it gets.
   */
  readonly symbolIndex?: { readonly column: number; readonly values: readonly (string | null)[] }
}

/** Rows of a table function such as long_sequence(). */
export interface TableFunctionNode extends NodeBase {
  readonly kind: 'table_function'
  readonly def: TableFunctionDef
  readonly site: CallSite
  /** for a function with `pushdown`: the function's output columns read (pruned), in order; absent: all */
  readonly columns?: readonly number[]
  /** for a function with `pushdown`: designated-timestamp intervals (a hint for skipping; the filter stays) */
  readonly intervals?: Float64Array
  /** for a function with `runtimeArgs` whose arguments are not all known when bound: evaluated when it runs */
  readonly args?: readonly BoundExpr[]
}

/** Rows of constant expressions (`VALUES`, or the single empty row of `SELECT 1`). */
export interface ValuesNode extends NodeBase {
  readonly kind: 'values'
  readonly rows: readonly (readonly BoundExpr[])[]
}

/** Keeps the rows where the predicate is true. */
export interface FilterNode extends NodeBase {
  readonly kind: 'filter'
  readonly input: PlanNode
  readonly predicate: BoundExpr
  /** input columns to pass on (by index), when not all of them; set by `prune-columns` */
  readonly projection?: readonly number[]
}

/** Computes the select list. */
export interface ProjectNode extends NodeBase {
  readonly kind: 'project'
  readonly input: PlanNode
  readonly exprs: readonly BoundExpr[]
}

/** GROUP BY (explicit or implicit): keys then aggregates. */
export interface AggregateNode extends NodeBase {
  readonly kind: 'aggregate'
  readonly input: PlanNode
  /** output = keys then aggregates */
  readonly keys: readonly BoundExpr[]
  readonly aggregates: readonly BoundAggregate[]
}

/** ORDER BY. */
export interface SortNode extends NodeBase {
  readonly kind: 'sort'
  readonly input: PlanNode
  readonly keys: readonly SortKey[]
}

/** QuestDB LIMIT: `lo` alone (n first, -n last) or `lo, hi` (rows (lo, hi], negatives from the end). */
export interface LimitNode extends NodeBase {
  readonly kind: 'limit'
  readonly input: PlanNode
  readonly lo: BoundExpr
  readonly hi: BoundExpr | undefined
}

/** SELECT DISTINCT. */
export interface DistinctNode extends NodeBase {
  readonly kind: 'distinct'
  readonly input: PlanNode
}

/** UNION / EXCEPT / INTERSECT. */
export interface SetOpNode extends NodeBase {
  readonly kind: 'setop'
  readonly op: 'union' | 'except' | 'intersect'
  readonly all: boolean
  readonly left: PlanNode
  readonly right: PlanNode
}

/** INNER / LEFT / RIGHT / FULL / CROSS join (a CROSS join is an INNER one without keys). RIGHT and FULL have no designated timestamp. */
export interface JoinNode extends NodeBase {
  readonly kind: 'join'
  readonly type: JoinType
  readonly left: PlanNode
  readonly right: PlanNode
  /** equi-join keys: left expression i equals right expression i (right expressions are over the right input) */
  readonly leftKeys: readonly BoundExpr[]
  readonly rightKeys: readonly BoundExpr[]
  /** remaining join condition over the joined row (left columns then right columns) */
  readonly residual: BoundExpr | undefined
  /** NULL keys match NULL keys, as `=` says NULL = NULL (every join bound from SQL, and decorrelated LATERAL joins); else they match nothing */
  readonly nullsEqual?: boolean
}

/**
 * `JOIN LATERAL (query)`: `right` runs once per left row, with the left columns it names
 * (`outerRefs`, over the left output) as parameters `paramBase`, `paramBase + 1`, ...;
 * LEFT keeps a left row without right rows (right columns NULL). `residual` filters joined rows.
 */
export interface LateralJoinNode extends NodeBase {
  readonly kind: 'lateral_join'
  readonly type: 'inner' | 'left'
  readonly left: PlanNode
  readonly right: PlanNode
  readonly outerRefs: readonly BoundExpr[]
  readonly paramBase: number
  readonly residual: BoundExpr | undefined
  /**
   * set for a correlated subquery (plan/bind-correlated.ts): each left row is kept once and one
   * column is added, the subquery's value for it, instead of joining with the right rows
   */
  readonly apply?: CorrelatedApply
  /**
   * set (with `apply`) when the optimizer decorrelated the subquery (optimize/decorrelate.ts):
   * `right` names no outer column any more and runs once; its rows are matched to each left row
   * by hash on `leftKeys` (over the left row) = `rightKeys` (over the right row), as NULL = NULL
   * is true; `outerRefs` is empty
   */
  readonly hash?: HashApply
}

/** How a decorrelated subquery (a {@link LateralJoinNode} with `hash`) is matched to left rows. */
export interface HashApply {
  readonly leftKeys: readonly BoundExpr[]
  readonly rightKeys: readonly BoundExpr[]
  /**
   * what a left row without matching right rows gets: the outcome of this plan (the subquery's
   * aggregate over no rows, e.g. `count(*)` 0); absent: the outcome of no rows
   */
  readonly empty?: PlanNode
  /** emit only the left rows whose computed value is true (a semi or anti join under a WHERE) */
  readonly semi?: boolean
}

/** What a correlated subquery computes per outer row. */
export type CorrelatedApply =
  /** the single value of its one column (NULL without rows; more than one row is an error at `pos`) */
  | { readonly mode: 'scalar'; readonly pos: number }
  /** whether it returns a row (`not`: whether it returns none) */
  | { readonly mode: 'exists'; readonly not: boolean }
  /** whether `probe` (over the left row) is among the values of its one column */
  | { readonly mode: 'in'; readonly probe: BoundExpr; readonly not: boolean }

/** Any plan node. */
export type PlanNode =
  | ScanNode | TableFunctionNode | ValuesNode | FilterNode | ProjectNode | AggregateNode
  | SortNode | LimitNode | DistinctNode | SetOpNode | JoinNode
  | SampleByNode | LatestOnNode | TimeJoinNode | WindowNode | LateralJoinNode | WindowJoinNode | HorizonJoinNode
  // physical nodes, chosen by plan/physical after the optimizer
  | ParallelAggregateNode | ParallelFilterNode
