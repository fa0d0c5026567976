/**
 * The abstract syntax tree produced by the parser.
 *
 * Every node has a `kind` (a discriminated union, dispatched exhaustively) and `pos`, the 0-based
 * offset in the SQL text of the token that best identifies the node in an error message
 * (the first token for most nodes; the operator for binary expressions; the function name for
 * calls). Identifiers keep the user's spelling; name resolution is case-insensitive.
 *
 * Browser-safe: imports nothing from `node:*`.
 */

// ---------------------------------------------------------------------------------------------
// Expressions

/** A literal value. Numbers keep their source text so that LONG literals stay exact. */
export type Literal =
  | { readonly kind: 'literal'; readonly pos: number; readonly type: 'int'; readonly text: string } // fits INT unless too large; `L` suffix stripped, see `long`
  | { readonly kind: 'literal'; readonly pos: number; readonly type: 'long'; readonly text: string } // an integer with an `L` suffix, or one that does not fit INT
  | { readonly kind: 'literal'; readonly pos: number; readonly type: 'double'; readonly text: string } // has a '.', or an exponent; also NaN / Infinity
  | { readonly kind: 'literal'; readonly pos: number; readonly type: 'decimal'; readonly text: string } // `m` suffix (`1.25m`, `5m`), suffix stripped
  | { readonly kind: 'literal'; readonly pos: number; readonly type: 'string'; readonly value: string } // quotes removed, '' unescaped
  | { readonly kind: 'literal'; readonly pos: number; readonly type: 'boolean'; readonly value: boolean }
  | { readonly kind: 'literal'; readonly pos: number; readonly type: 'null' }
  | { readonly kind: 'literal'; readonly pos: number; readonly type: 'char'; readonly value: string } // not produced by the parser today; reserved
  | { readonly kind: 'literal'; readonly pos: number; readonly type: 'long256'; readonly text: string } // 0x... hex literal
  | { readonly kind: 'literal'; readonly pos: number; readonly type: 'geohash'; readonly text: string } // #u33d, #u33d/18, ##0101

/** `name` or `qualifier.name` (`t.price`). */
export interface ColumnRef {
  readonly kind: 'column'
  readonly pos: number
  readonly table?: string
  readonly name: string
}

/** `*` or `t.*` in a select list or `count(*)`. */
export interface Star {
  readonly kind: 'star'
  readonly pos: number
  readonly table?: string
}

/** `$1`, `$2`, ... (1-based as written). */
export interface Param {
  readonly kind: 'param'
  readonly pos: number
  readonly index: number
}

/** A window specification: `OVER (...)` or `OVER w`. */
export interface WindowSpec {
  readonly pos: number
  /** name of a WINDOW clause this spec refers to or extends */
  readonly base?: string
  readonly partitionBy: readonly Expr[]
  readonly orderBy: readonly OrderItem[]
  readonly frame?: WindowFrame
}

/** A window frame: ROWS / RANGE / GROUPS BETWEEN start AND end. */
export interface WindowFrame {
  readonly units: 'rows' | 'range' | 'groups'
  readonly start: FrameBound
  readonly end: FrameBound
  readonly exclude?: 'current row' | 'no others'
}

/** One end of a window frame. */
export type FrameBound =
  | { readonly kind: 'unbounded preceding' }
  | { readonly kind: 'unbounded following' }
  | { readonly kind: 'current row' }
  | { readonly kind: 'preceding'; readonly offset: Expr; readonly unit?: string } // unit for RANGE with time offsets: 'microsecond', 'second', 'minute', ...
  | { readonly kind: 'following'; readonly offset: Expr; readonly unit?: string }

/** A function call, aggregate or window function. `count(*)` has `star: true` and no args. */
export interface Call {
  readonly kind: 'call'
  readonly pos: number
  /** the function name as written (lower-case it to look up) */
  readonly name: string
  readonly args: readonly Expr[]
  readonly distinct: boolean
  readonly star: boolean
  readonly ignoreNulls?: boolean
  readonly over?: WindowSpec
}

/** Binary operators; `pos` is the operator token. */
export type BinaryOp =
  | '+' | '-' | '*' | '/' | '%'
  | '=' | '!=' | '<' | '<=' | '>' | '>='
  | 'and' | 'or'
  | '||'
  | '&' | '|' | '^'
  | '<<' | '>>' | '<<=' | '>>='
  | '~' | '!~' // regex match / no match

/** A binary operator expression; `pos` is the operator token. */
export interface Binary {
  readonly kind: 'binary'
  readonly pos: number
  readonly op: BinaryOp
  readonly left: Expr
  readonly right: Expr
}

/** A unary operator expression (`-x`, `NOT x`, `~x`). */
export interface Unary {
  readonly kind: 'unary'
  readonly pos: number
  readonly op: '-' | 'not' | '~' | '+'
  readonly operand: Expr
}

/** `CAST(x AS type)` or `x::type`; `type` is the name as written (resolved by the binder). */
export interface Cast {
  readonly kind: 'cast'
  readonly pos: number
  readonly expr: Expr
  readonly type: string
  /** position of the type name */
  readonly typePos: number
  /** true for the `::` form (names the output column `cast`) */
  readonly shorthand: boolean
}

/** `CASE [x] WHEN ... THEN ... [ELSE ...] END`. */
export interface Case {
  readonly kind: 'case'
  readonly pos: number
  /** `CASE x WHEN ...` form */
  readonly operand?: Expr
  readonly whens: readonly { readonly when: Expr; readonly then: Expr }[]
  readonly else?: Expr
}

/** `x [NOT] IN (a, b, ...)`, `x IN (SELECT ...)`, or `ts IN '2024-01'` (list of one string). */
export interface InList {
  readonly kind: 'in'
  readonly pos: number
  readonly expr: Expr
  readonly list: readonly Expr[] | Query
  readonly not: boolean
}

/** `x [NOT] BETWEEN low AND high`. */
export interface Between {
  readonly kind: 'between'
  readonly pos: number
  readonly expr: Expr
  readonly low: Expr
  readonly high: Expr
  readonly not: boolean
}

/** `x [NOT] LIKE|ILIKE pattern`. */
export interface Like {
  readonly kind: 'like'
  readonly pos: number
  readonly expr: Expr
  readonly pattern: Expr
  readonly caseInsensitive: boolean
  readonly not: boolean
}

/** `x IS [NOT] NULL`. */
export interface IsNull {
  readonly kind: 'isnull'
  readonly pos: number
  readonly expr: Expr
  readonly not: boolean
}

/** A scalar subquery `(SELECT ...)` used as a value. */
export interface Subquery {
  readonly kind: 'subquery'
  readonly pos: number
  readonly query: Query
}

/** `[NOT] EXISTS (query)`. */
export interface Exists {
  readonly kind: 'exists'
  readonly pos: number
  readonly query: Query
  readonly not: boolean
}

/** `extract(unit FROM expr)`. */
export interface Extract {
  readonly kind: 'extract'
  readonly pos: number
  readonly unit: string
  readonly expr: Expr
}

/** Any expression. */
export type Expr =
  | Literal | ColumnRef | Star | Param | Call | Binary | Unary | Cast | Case
  | InList | Between | Like | IsNull | Subquery | Exists | Extract

// ---------------------------------------------------------------------------------------------
// Queries

export interface SelectItem {
  readonly expr: Expr
  readonly alias?: string
  /** position of the alias, when given */
  readonly aliasPos?: number
}

/** One ORDER BY term. */
export interface OrderItem {
  readonly expr: Expr
  readonly desc: boolean
  readonly nulls?: 'first' | 'last'
}

/**
 * A table reference in FROM: a table name, a function (`long_sequence(10)`), or a subquery;
 * `aliasPos` is where its alias is written, when it has one.
 */
export type TableRef =
  | { readonly kind: 'table'; readonly pos: number; readonly name: string; readonly alias?: string; readonly aliasPos?: number; readonly timestamp?: string; readonly columnAliases?: readonly string[] }
  /** `columnAliases`: `UNNEST(...) u(a, b)` renames the function's output columns */
  | { readonly kind: 'function'; readonly pos: number; readonly call: Call; readonly alias?: string; readonly aliasPos?: number; readonly timestamp?: string; readonly columnAliases?: readonly string[] }
  | { readonly kind: 'subquery'; readonly pos: number; readonly query: Query; readonly alias?: string; readonly aliasPos?: number; readonly timestamp?: string; readonly columnAliases?: readonly string[] }
  | Pivot

/** One value of a PIVOT `FOR col IN (...)` list, with its optional column name. */
export interface PivotValue {
  readonly expr: Expr
  readonly alias?: string
}

/** `col IN (v1 [AS a], ...)` or `col IN (SELECT ...)` of a PIVOT (the query is run before binding). */
export interface PivotFor {
  readonly pos: number
  /** the column or expression whose values become columns */
  readonly column: Expr
  readonly values?: readonly PivotValue[]
  readonly query?: Query
}

/** `source [WHERE ...] PIVOT (agg [AS a], ... FOR col IN (...) [col2 IN (...)] [GROUP BY k, ...])`. */
export interface Pivot {
  readonly kind: 'pivot'
  readonly pos: number
  readonly source: TableRef
  readonly where?: Expr
  readonly aggregates: readonly SelectItem[]
  readonly fors: readonly PivotFor[]
  readonly groupBy: readonly Expr[]
  /** DuckDB's `PIVOT t ON ...` without GROUP BY: the keys are the source columns not pivoted on nor aggregated */
  readonly groupByRest?: boolean
  readonly alias?: string
  readonly timestamp?: string
}

/** The join kinds of the dialect. */
export type JoinType = 'inner' | 'left' | 'right' | 'full' | 'cross' | 'asof' | 'lt' | 'splice'

/** A join of the FROM clause. */
export interface Join {
  readonly pos: number
  /** WINDOW / HORIZON joins carry their clause in `window` / `horizon` (plan/bind-window-join.ts, bind-horizon-join.ts) */
  readonly type: JoinType | 'window' | 'horizon'
  readonly table: TableRef
  /** `ON expr`; for ASOF/LT/SPLICE also `ON (a, b)` which the parser turns into `a = a AND b = b` column pairs via `using` */
  readonly on?: Expr
  /** `ON (col, ...)` shorthand (same column names on both sides) */
  readonly using?: readonly string[]
  /** ASOF/LT `TOLERANCE 1h` as written, e.g. '1h' */
  readonly tolerance?: { readonly value: string; readonly pos: number }
  /** `JOIN LATERAL (query)`: the query may name columns of the tables before it */
  readonly lateral?: boolean
  /**
   * written as a comma (`FROM a, b`): the item and the explicit joins after it form a group that a
   * RIGHT / FULL join binds within when its ON names nothing before the comma (plan/bind-comma-group.ts)
   */
  readonly comma?: boolean
  /** WINDOW JOIN's `RANGE BETWEEN lo AND hi [INCLUDE | EXCLUDE PREVAILING]` */
  readonly window?: WindowJoinRange
  /** HORIZON JOIN's `RANGE FROM .. TO .. STEP .. AS h` / `LIST (...) AS h` */
  readonly horizon?: HorizonSpec
}

/** WINDOW JOIN's RANGE clause: both bounds inclusive, relative to the left row's timestamp. */
export interface WindowJoinRange {
  readonly pos: number
  readonly lo: FrameBound & { readonly pos: number }
  readonly hi: FrameBound & { readonly pos: number }
  /** absent: INCLUDE PREVAILING, QuestDB's default */
  readonly prevailing?: 'include' | 'exclude'
}

/** One HORIZON offset as written: `1s`, `-5m`, `0`. */
export interface HorizonOffset { readonly text: string; readonly pos: number }

/** HORIZON JOIN's offsets and the alias of its pseudo-table (`h.offset`, `h.timestamp`). */
export type HorizonSpec =
  | { readonly kind: 'range'; readonly pos: number; readonly from: HorizonOffset; readonly to: HorizonOffset; readonly step: HorizonOffset; readonly alias: string; readonly aliasPos?: number }
  | { readonly kind: 'list'; readonly pos: number; readonly offsets: readonly HorizonOffset[]; readonly alias: string; readonly aliasPos?: number }

/** The SAMPLE BY clause. */
export interface SampleBy {
  readonly pos: number
  /** the stride as written, e.g. '1h', '15m', '1M' */
  readonly interval: string
  readonly intervalPos: number
  readonly from?: Expr
  readonly to?: Expr
  /** FILL values as written: NONE, NULL, PREV, LINEAR or a constant expression */
  readonly fill: readonly FillValue[]
  readonly align: SampleByAlign
}

/** One FILL(...) value. */
export type FillValue =
  | { readonly kind: 'none' | 'null' | 'prev' | 'linear'; readonly pos: number }
  | { readonly kind: 'value'; readonly pos: number; readonly value: Expr }

/** SAMPLE BY alignment. */
export type SampleByAlign =
  | { readonly kind: 'calendar'; readonly timeZone?: Expr; readonly offset?: Expr }
  | { readonly kind: 'first observation' }

/** LATEST ON ts PARTITION BY ... (or the legacy LATEST BY). */
export interface LatestOn {
  readonly pos: number
  /** `LATEST ON ts` (absent for the legacy `LATEST BY` form) */
  readonly timestamp?: string
  readonly partitionBy: readonly Expr[]
  /** true for the deprecated `LATEST BY cols` form written after FROM */
  readonly legacy: boolean
}

/** LIMIT n, LIMIT lo, hi; negative values as QuestDB (`LIMIT -5`). */
export interface Limit {
  readonly pos: number
  readonly lo: Expr
  readonly hi?: Expr
}

/** A WINDOW clause entry: `name AS (spec)`. */
export interface NamedWindow {
  readonly name: string
  readonly spec: WindowSpec
}

/** A SELECT block. */
export interface Select {
  readonly kind: 'select'
  readonly pos: number
  readonly distinct: boolean
  readonly columns: readonly SelectItem[]
  readonly from?: TableRef
  readonly joins: readonly Join[]
  readonly where?: Expr
  readonly latestOn?: LatestOn
  readonly sampleBy?: SampleBy
  readonly groupBy?: readonly Expr[]
  readonly windows?: readonly NamedWindow[]
  readonly orderBy?: readonly OrderItem[]
  readonly limit?: Limit
}

/** UNION [ALL] / EXCEPT [ALL] / INTERSECT [ALL]. ORDER BY / LIMIT after a set operation apply to it. */
export interface SetOp {
  readonly kind: 'setop'
  readonly pos: number
  readonly op: 'union' | 'except' | 'intersect'
  readonly all: boolean
  readonly left: Query
  readonly right: Query
  readonly orderBy?: readonly OrderItem[]
  readonly limit?: Limit
}

/** A common table expression `name AS (query)`. */
export interface Cte {
  readonly name: string
  readonly pos: number
  readonly query: Query
}

/** A query with an optional WITH clause. */
export interface With {
  readonly kind: 'with'
  readonly pos: number
  readonly ctes: readonly Cte[]
  readonly body: Query
}

/** Anything that yields rows. */
export type Query = Select | SetOp | With

// ---------------------------------------------------------------------------------------------
// Statements

export type PartitionUnit = 'NONE' | 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'YEAR'

/** A column definition in CREATE TABLE / ADD COLUMN. */
export interface ColumnDef {
  readonly name: string
  readonly pos: number
  /** type name as written (resolved by the binder; `typePos` for errors) */
  readonly type: string
  readonly typePos: number
  /** SYMBOL options */
  readonly symbolCapacity?: number
  readonly symbolCache?: boolean
  readonly indexed?: boolean
  /** `INDEX CAPACITY n`, rounded up to a power of 2 (checked: 4 to 8,388,608) */
  readonly indexCapacity?: number
}

/** Table options after the column list: `TIMESTAMP(ts) PARTITION BY DAY TTL 2 DAYS WAL DEDUP UPSERT KEYS(ts, s)`. */
export interface TableOptions {
  readonly timestamp?: { readonly name: string; readonly pos: number }
  readonly partitionBy?: PartitionUnit
  readonly partitionByPos?: number
  /** TTL as count + unit (HOUR, DAY, WEEK, MONTH, YEAR) */
  readonly ttl?: { readonly count: number; readonly unit: Exclude<PartitionUnit, 'NONE'>; readonly pos: number }
  /** true for WAL, false for BYPASS WAL, absent when not given */
  readonly wal?: boolean
  readonly dedupKeys?: readonly { readonly name: string; readonly pos: number }[]
  /** WITH maxUncommittedRows=..., o3MaxLag=... (accepted, kept as text) */
  readonly params?: readonly { readonly name: string; readonly value: string }[]
}

/** CREATE TABLE name (columns) options. */
export interface CreateTable {
  readonly kind: 'create_table'
  readonly pos: number
  readonly name: string
  readonly namePos: number
  readonly ifNotExists: boolean
  readonly columns: readonly ColumnDef[]
  readonly options: TableOptions
  /** `OWNED BY x` (QuestDB Enterprise): the owner grants go to x instead of the creator */
  readonly owner?: { readonly name: string; readonly pos: number }
}

/** CREATE TABLE name AS (query) options. */
export interface CreateTableAs {
  readonly kind: 'create_table_as'
  readonly pos: number
  readonly name: string
  readonly namePos: number
  readonly ifNotExists: boolean
  readonly query: Query
  /** `, CAST(col AS type)` clauses after the query */
  readonly casts: readonly { readonly column: string; readonly type: string; readonly pos: number }[]
  readonly options: TableOptions
  /** `OWNED BY x` (QuestDB Enterprise): the owner grants go to x instead of the creator */
  readonly owner?: { readonly name: string; readonly pos: number }
}

/** `CREATE TABLE new (LIKE src)`. */
export interface CreateTableLike {
  readonly kind: 'create_table_like'
  readonly pos: number
  readonly name: string
  readonly namePos: number
  readonly ifNotExists: boolean
  readonly like: string
  readonly likePos: number
  /** `OWNED BY x` (QuestDB Enterprise): the owner grants go to x instead of the creator */
  readonly owner?: { readonly name: string; readonly pos: number }
}

/** DROP TABLE / DROP ALL TABLES. */
export interface DropTable {
  readonly kind: 'drop_table'
  readonly pos: number
  /** empty with `all: true` for DROP ALL TABLES */
  readonly names: readonly { readonly name: string; readonly pos: number }[]
  readonly ifExists: boolean
  readonly all: boolean
  /** `CASCADE PERMISSIONS` (QuestDB Enterprise): every principal's grants on the tables go too */
  readonly cascadePermissions?: boolean
}

/**
 * `CREATE [OR REPLACE] VIEW [IF NOT EXISTS] name AS (query)` and `ALTER VIEW name AS (query)`
 * (`alter`: the view must exist). `sql` is the query's text as written between the parentheses
 * (filled in by the parser from the tokens between `bodyStart` and `bodyEnd`).
 */
export interface CreateView {
  readonly kind: 'create_view'
  readonly pos: number
  readonly name: string
  readonly namePos: number
  readonly orReplace: boolean
  readonly ifNotExists: boolean
  readonly alter: boolean
  readonly query: Query
  /** offset of the query's first token (just after `(`) */
  readonly bodyStart: number
  /** offset of the closing `)` */
  readonly bodyEnd: number
  readonly sql: string
}

/** `DROP VIEW [IF EXISTS] name`. */
export interface DropView {
  readonly kind: 'drop_view'
  readonly pos: number
  readonly name: string
  readonly namePos: number
  readonly ifExists: boolean
}

/** `COMPILE VIEW name` (QuestDB 9): checks the view's query against the catalog now. */
export interface CompileView {
  readonly kind: 'compile_view'
  readonly pos: number
  readonly name: string
  readonly namePos: number
}

/**
 * How a materialized view refreshes (QuestDB 9): `IMMEDIATE` after every commit to its base
 * table, `MANUAL` on `REFRESH MATERIALIZED VIEW ... INCREMENTAL` only, `EVERY n unit` on a timer
 * (from `START`). `DEFERRED`: the first refresh waits for the first trigger instead of running
 * at CREATE.
 */
export interface MatViewRefresh {
  readonly kind: 'immediate' | 'manual' | 'every'
  readonly deferred: boolean
  /** `EVERY 1h`: the interval as written (count and unit letter) */
  readonly every?: { readonly count: number; readonly unit: string; readonly pos: number }
  /** `START 'timestamp'` of a timer refresh */
  readonly start?: { readonly value: string; readonly pos: number }
  /** `TIME ZONE 'name'` of a timer refresh (shown by SHOW CREATE and materialized_views()) */
  readonly timeZone?: { readonly value: string; readonly pos: number }
  /** `PERIOD (LENGTH n<unit> [TIME ZONE 'z'] [DELAY n<unit>])`: a bucket period is refreshed once complete */
  readonly period?: MatViewPeriod
}

/**
 * A period view's `PERIOD (LENGTH 1d [TIME ZONE 'Europe/London'] [DELAY 2h])` (QuestDB 9): the
 * base rows of a period are refreshed only once the period (on the zone's wall clock) has ended
 * and the delay has passed. Units `m`, `h`, `d`; the length at most 24 hours, the delay shorter.
 */
export interface MatViewPeriod {
  readonly pos: number
  /** absent for the compact `PERIOD (SAMPLE BY INTERVAL)`: the length and zone of the query's SAMPLE BY */
  readonly length?: { readonly count: number; readonly unit: 'm' | 'h' | 'd'; readonly pos: number }
  readonly timeZone?: { readonly value: string; readonly pos: number }
  readonly delay?: { readonly count: number; readonly unit: 'm' | 'h' | 'd'; readonly pos: number }
}

/**
 * `CREATE MATERIALIZED VIEW [IF NOT EXISTS] v [WITH BASE t] [REFRESH ...] AS (query)
 * [PARTITION BY unit [TTL n unit]]`, or the compact form `... AS query` (no options). `sql` is the
 * query's text (filled in by the parser, as CREATE VIEW's).
 */
export interface CreateMatView {
  readonly kind: 'mat_view'
  readonly op: 'create'
  readonly pos: number
  readonly name: string
  readonly namePos: number
  readonly ifNotExists: boolean
  readonly base?: { readonly name: string; readonly pos: number }
  readonly refresh: MatViewRefresh
  readonly query: Query
  /** offset of the query's first token */
  readonly queryPos: number
  readonly bodyStart: number
  readonly bodyEnd: number
  readonly sql: string
  readonly partitionBy?: PartitionUnit
  readonly partitionByPos?: number
  readonly ttl?: TableOptions['ttl']
}

/** `REFRESH MATERIALIZED VIEW v FULL | INCREMENTAL | RANGE FROM 'a' TO 'b'`. */
export interface RefreshMatView {
  readonly kind: 'mat_view'
  readonly op: 'refresh'
  readonly pos: number
  readonly name: string
  readonly namePos: number
  readonly mode: 'full' | 'incremental' | 'range'
  readonly from?: { readonly value: string; readonly pos: number }
  readonly to?: { readonly value: string; readonly pos: number }
}

/** `DROP MATERIALIZED VIEW [IF EXISTS] v`. */
export interface DropMatView {
  readonly kind: 'mat_view'
  readonly op: 'drop'
  readonly pos: number
  readonly name: string
  readonly namePos: number
  readonly ifExists: boolean
}

/** `ALTER MATERIALIZED VIEW v SET TTL n unit` / `SET REFRESH ...` / `SET REFRESH LIMIT n unit`. */
export interface AlterMatView {
  readonly kind: 'mat_view'
  readonly op: 'alter'
  readonly pos: number
  readonly name: string
  readonly namePos: number
  readonly action:
    | { readonly kind: 'set_ttl'; readonly pos: number; readonly count: number; readonly unit: Exclude<PartitionUnit, 'NONE'> }
    | { readonly kind: 'set_refresh'; readonly pos: number; readonly refresh: MatViewRefresh }
    /** `SET REFRESH LIMIT n unit`: refreshes ignore base rows older than now minus the limit (0 clears it) */
    | { readonly kind: 'set_refresh_limit'; readonly pos: number; readonly count: number; readonly unit: Exclude<PartitionUnit, 'NONE'> }
}

/** The materialized-view statements: one statement kind, told apart by `op`. */
export type MatViewStatement = CreateMatView | RefreshMatView | DropMatView | AlterMatView

/** TRUNCATE TABLE. */
export interface TruncateTable {
  readonly kind: 'truncate_table'
  readonly pos: number
  readonly names: readonly { readonly name: string; readonly pos: number }[]
  readonly ifExists: boolean
}

/** RENAME TABLE a TO b. */
export interface RenameTable {
  readonly kind: 'rename_table'
  readonly pos: number
  readonly from: string
  readonly fromPos: number
  readonly to: string
  readonly toPos: number
}

/** What an ALTER TABLE does. */
export type AlterAction =
  | {
    readonly kind: 'add_column'; readonly pos: number; readonly columns: readonly ColumnDef[]; readonly ifNotExists: boolean
    /** `OWNED BY x` (QuestDB Enterprise): the new columns' owner grants go to x instead of the adder */
    readonly owner?: { readonly name: string; readonly pos: number }
  }
  | { readonly kind: 'drop_column'; readonly pos: number; readonly names: readonly { readonly name: string; readonly pos: number }[] }
  | { readonly kind: 'rename_column'; readonly pos: number; readonly from: string; readonly fromPos: number; readonly to: string; readonly toPos: number }
  | { readonly kind: 'alter_column_type'; readonly pos: number; readonly column: string; readonly columnPos: number; readonly type: string; readonly typePos: number }
  | { readonly kind: 'drop_partition'; readonly pos: number; readonly list?: readonly { readonly value: string; readonly pos: number }[]; readonly where?: Expr }
  | { readonly kind: 'dedup'; readonly pos: number; readonly enable: boolean; readonly keys: readonly { readonly name: string; readonly pos: number }[] }
  | { readonly kind: 'set_ttl'; readonly pos: number; readonly count: number; readonly unit: Exclude<PartitionUnit, 'NONE'> }
  | { readonly kind: 'set_param'; readonly pos: number; readonly name: string; readonly value: string }
  | { readonly kind: 'set_type_wal'; readonly pos: number; readonly wal: boolean }
  | { readonly kind: 'column_index'; readonly pos: number; readonly column: string; readonly columnPos: number; readonly add: boolean; readonly capacity?: number }
  | { readonly kind: 'column_cache'; readonly pos: number; readonly column: string; readonly columnPos: number; readonly cache: boolean }
  | ConvertPartition

/** ALTER TABLE name action. */
export interface AlterTable {
  readonly kind: 'alter_table'
  readonly pos: number
  readonly table: string
  readonly tablePos: number
  readonly action: AlterAction
}

/** INSERT INTO ... VALUES / SELECT. */
export interface Insert {
  readonly kind: 'insert'
  readonly pos: number
  readonly table: string
  readonly tablePos: number
  readonly columns?: readonly { readonly name: string; readonly pos: number }[]
  /** VALUES rows, or a query */
  readonly source: { readonly kind: 'values'; readonly rows: readonly (readonly Expr[])[] } | { readonly kind: 'query'; readonly query: Query }
  readonly atomic: boolean
  /** WITH ... INSERT ... : CTEs visible to the source query */
  readonly ctes?: readonly Cte[]
}

/** UPDATE ... SET ... [FROM ...] [WHERE ...]. */
export interface Update {
  readonly kind: 'update'
  readonly pos: number
  readonly table: string
  readonly tablePos: number
  readonly alias?: string
  readonly set: readonly { readonly column: string; readonly pos: number; readonly value: Expr }[]
  readonly from?: TableRef
  readonly joins: readonly Join[]
  readonly where?: Expr
}

/** SHOW ... forms. */
export type Show =
  | { readonly kind: 'show'; readonly pos: number; readonly what: 'tables' }
  | { readonly kind: 'show'; readonly pos: number; readonly what: 'columns'; readonly table: string; readonly tablePos: number }
  | { readonly kind: 'show'; readonly pos: number; readonly what: 'partitions'; readonly table: string; readonly tablePos: number }
  | { readonly kind: 'show'; readonly pos: number; readonly what: 'create_table'; readonly table: string; readonly tablePos: number }
  | { readonly kind: 'show'; readonly pos: number; readonly what: 'create_view'; readonly table: string; readonly tablePos: number }
  | { readonly kind: 'show'; readonly pos: number; readonly what: 'create_mat_view'; readonly table: string; readonly tablePos: number }
  | { readonly kind: 'show'; readonly pos: number; readonly what: 'parameter'; readonly name: string } // SHOW server_version, SHOW TIME ZONE ('timezone'), SHOW transaction isolation level, ...
  | { readonly kind: 'show'; readonly pos: number; readonly what: 'parameters' }

/** EXPLAIN statement. */
export interface Explain {
  readonly kind: 'explain'
  readonly pos: number
  readonly statement: Statement
  readonly format?: 'text' | 'json'
}

/** BEGIN / COMMIT / ROLLBACK (with their synonyms START TRANSACTION, END, ABORT). */
export interface Transaction {
  readonly kind: 'transaction'
  readonly pos: number
  readonly action: 'begin' | 'commit' | 'rollback'
}

/** `SET name = value` / `SET name TO value` / `SET TIME ZONE ...` / `SET SESSION CHARACTERISTICS ...` (kept loose). */
export interface SetStatement {
  readonly kind: 'set'
  readonly pos: number
  readonly name: string
  /** the value as text; absent for `SET name TO DEFAULT` */
  readonly value?: string
}

/**
 * A statement the parser recognised but the engine does not support (DELETE, DECLARE ... CURSOR,
 * FETCH, MOVE, CLOSE, CREATE INDEX, ...). The binder turns it into a 0A000 error with a hint.
 */
export interface Unsupported {
  readonly kind: 'unsupported'
  readonly pos: number
  /** e.g. 'DELETE', 'DECLARE CURSOR', 'FETCH' */
  readonly feature: string
}

/**
 * `CANCEL QUERY id`: asks the running statement `id` (from `query_activity()`) to stop, as QuestDB
 * does; another user's statement needs SQL ENGINE ADMIN.
 */
export interface CancelQuery {
  readonly kind: 'cancel_query'
  readonly pos: number
  /** the query id (negative ones are refused when the statement runs, as QuestDB does) */
  readonly queryId: number
  readonly idPos: number
}

import type { AclStatement } from './ast-acl.js'
export type { AclStatement } from './ast-acl.js'
import type { ConvertPartition, CopyTo } from './ast-copy.js'
export type { ConvertPartition, CopyOption, CopyTo } from './ast-copy.js'

/** Any top-level statement. A query statement is the query itself. */
export type Statement =
  | Query
  | CreateTable | CreateTableAs | CreateTableLike | DropTable | TruncateTable | RenameTable | AlterTable
  | CreateView | DropView | CompileView
  | MatViewStatement
  | Insert | Update
  | Show | Explain | Transaction | SetStatement | Unsupported | CancelQuery
  | AclStatement
  | CopyTo

/** The kind tags of statements. */
export type StatementKind = Statement['kind']

/** The kind tags of expressions. */
export type ExprKind = Expr['kind']
