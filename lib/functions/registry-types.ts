/**
 * The shape of a function definition. Functions are data: one {@link FunctionDef} per function
 * (name, signatures, description, example, kernel), collected in one list of built-ins
 * (`builtins.ts`). The binder resolves a call against the signatures, inserts implicit casts so
 * that each argument arrives with exactly the declared type, and calls the kernel on vectors.
 *
 * Browser-safe: imports nothing from `node:*` (the console reads names, signatures and
 * descriptions for completion).
 */
import type { ColumnType } from '../types/column-type.js'
import type { Batch, Scalar, Vector } from '../types/vector.js'
import type { Rnd } from './rnd/rnd.js'

/**
 * A declared argument type: an exact type, or a class the kernel accepts as is.
 * - `ANY`: any type, passed through unconverted;
 * - `NUMERIC`: any of BYTE..DOUBLE, passed through unconverted;
 * - `TEXT`: STRING/VARCHAR/SYMBOL/CHAR, passed through unconverted;
 * - `TEMPORAL`: DATE or TIMESTAMP (and strings that parse as timestamps are cast to TIMESTAMP);
 * - `ARRAY`: a DOUBLE array of any dimension count, passed through unconverted.
 * - `DECIMAL`: any DECIMAL(p,s), and the integer types, passed through unconverted.
 * - `GEOHASH`: a GEOHASH of any precision, passed through unconverted.
 */
export type ArgType = ColumnType | 'ANY' | 'NUMERIC' | 'TEXT' | 'TEMPORAL' | 'ARRAY' | 'DECIMAL' | 'GEOHASH'

/** One overload. */
export interface Signature {
  readonly args: readonly ArgType[]
  /** when set, any number (>= 0) of further arguments of this type may follow */
  readonly variadic?: ArgType
  /** indexes of arguments that must be constants (QuestDB's lower-case signature letters) */
  readonly constant?: readonly number[]
  /**
   * the result type, fixed or computed from the (post-cast) argument types and, for scalar calls,
   * the values of constant arguments (`round(dec, 2)`'s scale)
   */
  readonly returns: ColumnType | ((args: readonly ColumnType[], constants?: readonly (Scalar | undefined)[]) => ColumnType)
  /** how docs/functions.md names a computed result type (default: `same as argument`) */
  readonly returnsDoc?: string
}

/** What a kernel can see of the query it runs in. */
export interface FunctionContext {
  /** `now()`: fixed for the whole statement, microseconds since the epoch */
  readonly now: number
  /** the clock, for `systimestamp()` (microseconds, may be fractional-free float) */
  clock(): number
  /** nanoseconds of the statement's start past `now` (0-999), for `now_ns()`; absent: 0 */
  readonly nowSub?: number
  /** when the engine started (microseconds since the epoch), for `pg_postmaster_start_time()`; absent: unknown (NULL) */
  readonly startedAt?: number
  /** the clock in nanoseconds, for `systimestamp_ns()`; absent: `clock()` widened */
  readonly clockNs?: (() => bigint) | undefined
  /** the random generator shared by `rnd_*` within a statement (seeded by `long_sequence(n, s0, s1)`) */
  readonly rnd: Rnd
  /** the session's user name (`current_user()`) */
  readonly user: string
  /** read-only view of the catalog, for meta functions */
  readonly catalog: CatalogView
  /** the engine version string, for `version()` */
  readonly version: string
  /** empties the external identity caches (an OIDC guard's), all or one subject's; undefined where there are none */
  readonly flushIdentities?: ((subject: string | undefined) => number) | undefined
  /** Parquet files under the import root, for `read_parquet()`; undefined where there is no file system */
  readonly parquet?: ParquetAccess | undefined
  /** `flush_query_cache()`: empties the cache of parsed statements; true when done; undefined where there is none */
  readonly flushQueryCache?: (() => boolean) | undefined
  /** `query_activity()`: the running statements the user may see; undefined where there is no registry */
  readonly queryActivity?: (() => readonly QueryActivity[]) | undefined
  /** `cancel_query(id)`: asks running statement `id` to stop; false when there is none (42501 without the permission) */
  readonly cancelQuery?: ((id: number) => boolean) | undefined
  /** the process's memory by tag, in bytes (`memory_metrics()`); undefined where it cannot be read */
  readonly memoryMetrics?: (() => readonly { readonly tag: string; readonly bytes: number }[]) | undefined
  /** the lowercase hex digest of `data` (`md5()`, `sha1()`, `sha256()`); undefined where there is no hash library */
  readonly digest?: ((algorithm: DigestAlgorithm, data: Uint8Array) => string) | undefined
}

/** The hash algorithms of QuestDB's hash functions. */
export type DigestAlgorithm = 'md5' | 'sha1' | 'sha256'

/** The schema of a Parquet file as a table function reports it. */
export interface ParquetSchema {
  readonly columns: readonly { readonly name: string; readonly type: ColumnType }[]
  /** index of the designated timestamp, or -1 */
  readonly timestampIndex: number
}

/** What `read_parquet()` may do with files (the Database provides it; see lib/parquet/files.ts). */
export interface ParquetAccess {
  /** the schema of `path` (relative to the import root); throws a SqlError at `pos` for a path outside it or a bad file */
  schema(path: string, pos: number): ParquetSchema
  /** the rows of `path`, only `scan.columns` when given, skipping row groups outside `scan.intervals` */
  read(path: string, pos: number, scan: TableScan): AsyncIterable<Batch>
}

/** What the optimizer pushed into a table function that can take it (see {@link TableFunctionDef.pushdown}). */
export interface TableScan {
  /** output column indexes to produce, in order; absent: all */
  readonly columns?: readonly number[] | undefined
  /** inclusive [lo, hi] designated-timestamp pairs the rows must fall in (a hint: rows outside may still come) */
  readonly intervals?: Float64Array | undefined
}

/** What a running statement is, as `query_activity()` lists it. */
export interface QueryActivity {
  readonly id: number
  /** the user that runs it */
  readonly user: string
  /** its SQL text ('' when it was given parsed) */
  readonly sql: string
  /** when it started, µs since the epoch */
  readonly start: number
  /** when its state last changed (its start, or its cancellation), µs */
  readonly stateChange: number
  readonly state: 'active' | 'cancelled'
  /** bytes it holds now in sort buffers, hash tables and the like (null while it only parses) */
  readonly memoryUsed: number | null
  /** bytes it may hold (null: no limit, or while it only parses) */
  readonly memoryLimit: number | null
}

/** What meta functions may read of the catalog. */
export interface CatalogView {
  tableNames(): string[]
  /** undefined when the table does not exist */
  table(name: string): TableInfo | undefined
  /** one row per partition of the table, in `SHOW PARTITIONS`' columns; undefined when the table does not exist */
  partitions(name: string): Scalar[][] | undefined
  /** the views, each checked now (`views()`); absent: none */
  views?(): ViewInfo[]
  /** the materialized views (`materialized_views()`); absent: none */
  matViews?(): MatViewInfo[]
}

/** A materialized view for `materialized_views()`: its definition and refresh state. */
export interface MatViewInfo {
  readonly id: number
  readonly name: string
  readonly baseTable: string
  readonly sql: string
  readonly refreshType: string
  readonly status: 'valid' | 'invalid' | 'refreshing'
  /** '' when valid */
  readonly invalidReason: string
  readonly lastRefreshStart: number | null
  readonly lastRefreshFinish: number | null
  /** the base table's commits the last refresh saw (-1: none yet), and now (-1: no base table) */
  readonly refreshTxn: number
  readonly baseTxn: number
  readonly timer: { readonly count: number; readonly unit: string; readonly start: number; readonly timeZone?: string } | undefined
  /** a period view's PERIOD: length, its unit, the period start, time zone and delay */
  readonly period?: { readonly count: number; readonly unit: string; readonly start: number; readonly timeZone?: string; readonly delay?: { readonly count: number; readonly unit: string } } | undefined
  /** a period view: the end of the periods refreshed so far (µs), null before any */
  readonly periodHi?: number | null
  /** `SET REFRESH LIMIT`: count and unit (`HOUR` ... `YEAR`) */
  readonly refreshLimit?: { readonly count: number; readonly unit: string } | undefined
}

/** A view for `views()`: its definition and whether its query binds now. */
export interface ViewInfo {
  readonly id: number
  readonly name: string
  readonly sql: string
  /** undefined when the view is valid, else why not (the error its query gives) */
  readonly invalidReason: string | undefined
  /** when the status last changed (µs since the epoch) */
  readonly since: number
  /** the designated timestamp of the view's output (`tables()`), undefined when it has none or is invalid */
  readonly timestamp?: string | undefined
  /** an invalid view's error's SQLSTATE */
  readonly invalidCode?: string | undefined
  /** the view's output columns (`table_columns('v')`), undefined when it is invalid */
  readonly columns?: readonly { readonly name: string; readonly type: ColumnType }[] | undefined
}

/** Description of a table for meta functions. */
export interface TableInfo {
  readonly id: number
  readonly name: string
  readonly columns: readonly { readonly name: string; readonly type: ColumnType; readonly indexed: boolean; readonly indexCapacity?: number; readonly symbolCapacity: number; readonly symbolCached: boolean; readonly symbolTableSize: number }[]
  /** index in columns, or -1 */
  readonly timestampIndex: number
  readonly partitionBy: string
  readonly wal: boolean
  readonly dedupKeys: readonly string[]
  readonly ttl: { readonly count: number; readonly unit: string } | undefined
  readonly rowCount: number
  readonly maxUncommittedRows: number
  readonly o3MaxLag: number
  readonly createSql: string
  /** commits that changed the rows since the database opened (`wal_tables()`); absent: 0 */
  readonly txn?: number
  /** true for a materialized view's table (`tables()`' matView) */
  readonly matView?: boolean
}

/**
 * Per-call state created once per statement execution (for stateful functions such as
 * `timestamp_sequence` or `rnd_symbol(count, lo, hi, nullRate)` whose dictionary is made at init).
 */
export interface CallSite {
  /** argument types after implicit casts */
  readonly argTypes: readonly ColumnType[]
  /** the values of constant arguments (undefined for non-constant ones) */
  readonly constants: readonly (Scalar | undefined)[]
  /** the result type */
  readonly returns: ColumnType
  /** SQL-text position of each argument, for errors */
  readonly argPositions: readonly number[]
  /** position of the call itself */
  readonly pos: number
}

/** A vectorized kernel: computes `length` results from argument vectors (which may be constant). */
export type VectorKernel = (args: readonly Vector[], length: number, ctx: FunctionContext, state: unknown) => Vector

/** A row-wise kernel, for functions where vectorizing buys nothing; the engine loops for it. */
export type RowKernel = (args: readonly Scalar[], ctx: FunctionContext, state: unknown) => Scalar

interface FunctionDefBase {
  /** lower-case name */
  readonly name: string
  readonly aliases?: readonly string[]
  readonly signatures: readonly Signature[]
  /** one line, shown in completion and docs/functions.md */
  readonly description: string
  /** a SQL example, shown in docs/functions.md */
  readonly example: string
  /** family, for docs grouping: 'math', 'string', 'time', 'aggregate', 'rnd', 'meta', ... */
  readonly family: string
}

/** A scalar function: one value per row. */
export interface ScalarFunctionDef extends FunctionDefBase {
  readonly kind: 'scalar'
  /** vectorized kernel; preferred when present */
  readonly vector?: VectorKernel
  /** row-wise kernel, used when `vector` is absent */
  readonly row?: RowKernel
  /** when true (the default), a null argument gives a null result without calling `row` */
  readonly nullStrict?: boolean
  /** false for functions whose result changes per call (rnd_*, systimestamp); they are never constant-folded */
  readonly deterministic?: boolean
  /**
   * true for the clock readings (`systimestamp()`, `systimestamp_ns()`, `sysdate()`): per call
   * (so not deterministic), yet a designated-timestamp bound built on one is read once per
   * execution and narrows the scan (plan/optimize/runtime-bounds.ts)
   */
  readonly readsClock?: boolean
  /** creates per-execution state (see {@link CallSite}) */
  readonly init?: (site: CallSite, ctx: FunctionContext) => unknown
  /**
   * Checks the call's constant arguments when it is bound, as QuestDB's function factories do when
   * the statement compiles: an invalid constant (a time zone that does not exist) is refused with
   * its SqlError even when the query computes no row (an empty table, a false filter)
   */
  readonly check?: (site: CallSite) => void
}

/**
 * Accumulator of an aggregate over groups identified by dense ids 0..n-1. Group ids are assigned
 * by the group-by operator; the kernel keeps typed arrays indexed by group id and grows them in
 * {@link AggregateKernel.resize}.
 *
 * Parallel aggregation relies on two more promises: the state lives in the kernel's own fields,
 * as structured-cloneable values (typed arrays, arrays, Maps, Sets, strings, numbers, bigints;
 * no functions or class instances), so a worker thread's kernel travels by structured clone into
 * a fresh kernel of the same call site; and {@link AggregateKernel.merge} folds partial states
 * in row order (the merged-in kernel saw the later rows).
 */
export interface AggregateKernel {
  /** makes room for groups 0..count-1 (count only grows) */
  resize(count: number): void
  /** adds rows 0..length-1: row i belongs to group `groups[i]` */
  update(groups: Int32Array, args: readonly Vector[], length: number): void
  /** adds rows 0..length-1, all to group `group` (the non-keyed fast path) */
  updateOne(group: number, args: readonly Vector[], length: number): void
  /** folds `other`'s group `from[i]` into this kernel's group `to[i]`; `other` saw rows after this kernel's (parallel aggregation) */
  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void
  /** the results of groups 0..count-1 */
  result(count: number): Vector
  /**
   * Estimated bytes of the state this kernel holds beyond a fixed-width slot per group (the Sets
   * of count_distinct, the values of string_agg), for the statement's memory budget; absent when
   * there is none. Called once per batch, so it must be O(1).
   */
  heapBytes?(): number
}

/** An aggregate function. */
export interface AggregateFunctionDef extends FunctionDefBase {
  readonly kind: 'aggregate'
  /** creates an empty accumulator for one call site */
  readonly create: (site: CallSite) => AggregateKernel
}

/** A table function in FROM: `long_sequence(10)`, `tables()`, `generate_series(1, 5)`. */
export interface TableFunctionDef extends FunctionDefBase {
  readonly kind: 'table'
  /** the output schema for a call (may depend on argument types and constants) */
  readonly columns: (site: CallSite, ctx: FunctionContext) => readonly { readonly name: string; readonly type: ColumnType }[]
  /** index of the designated timestamp column in the output, or -1 */
  readonly timestampIndex?: (site: CallSite) => number
  /** produces the rows, batch by batch; every argument must be constant */
  readonly open: (site: CallSite, ctx: FunctionContext, scan?: TableScan) => Iterable<Batch> | AsyncIterable<Batch>
  /** true when `open` honours {@link TableScan}: the optimizer then pushes column pruning and timestamp intervals into it */
  readonly pushdown?: boolean
  /**
   * true when `columns` needs only the argument types and `open` reads the constants: arguments may
   * then be any expressions without columns (parameters, a LATERAL row's slots), evaluated when it runs
   */
  readonly runtimeArgs?: boolean
}

/** Any function definition. */
export type FunctionDef = ScalarFunctionDef | AggregateFunctionDef | TableFunctionDef
