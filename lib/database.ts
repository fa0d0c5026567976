/**
 * The `Database` facade: open/close, query/stream/prepare, bulk append, sessions.
 */
import { SqlError, SqlState, notSupported } from './errors.js'
import type { Statement } from './sql/ast.js'
import { parseScriptAsync, parseStatements } from './sql/parse.js'
import { parseLimits, type ParseLimits } from './sql/limits.js'
import { type ColumnType, typeName } from './types/column-type.js'
import { type Batch, type Scalar, type SymbolTable, type Vector, VectorWriter, allocate, getScalar, vectorOf } from './types/vector.js'
import { type JsValue, fromJsValue, toJsValue } from './types/js-value.js'
import { Catalog } from './storage/catalog.js'
import { DurableStore } from './storage/durable/store.js'
import type { ColumnMeta, Table } from './storage/table.js'
import { bindQuery, type BindContext } from './plan/bind-query.js'
import type { BoundExpr, OutputColumn, PlanNode } from './plan/plan-node.js'
import { ExecContext, type CancelSignal } from './exec/context.js'
import { runPlan } from './exec/operators/runner.js'
import { optimize } from './plan/optimize/index.js'
import { computeSubqueries, findSubqueries } from './exec/subqueries.js'
import { expandArrayParams } from './plan/array-params.js'
import { alterTable, columnType, createTable, createTableLike, dropTable, renameTable, tableMeta, truncateTable, checkName } from './exec/statements/ddl.js'
import { castVector } from './types/cast.js'
import { collectAll, insert, update } from './exec/statements/dml.js'
import { catalogView, explain, show, type Rows } from './exec/statements/meta.js'
import { describe } from './exec/statements/describe.js'
import { Session } from './session.js'
import { STATEMENT_TIMEOUT, checkStatementTimeout, parseStatementTimeout } from './exec/statement-timeout.js'
import { Rnd } from './functions/rnd/rnd.js'
import { MemoryPool, QueryMemory, batchBytes } from './exec/memory.js'
import { defaultQueryMemory, resolveTotalQueryMemory } from './exec/memory-defaults.js'

/** The engine's version, as `version()` reports it. */
export const VERSION = 'PostgreSQL 12.3, EpochDB 0.1.0'

/** Options of {@link Database.open}. */
export interface DatabaseOptions {
  /** a data directory (created when missing, locked while open); omitted for an in-memory database */
  readonly path?: string
  /** bytes of table data a data-directory database keeps in memory before evicting clean tables (default 1 GiB) */
  readonly memoryBudget?: number
  /** WAL bytes after which a data-directory database checkpoints rows into partition files (default 64 MiB) */
  readonly checkpointBytes?: number
  /**
   * ms after the last heartbeat of the data directory's lock owner when a lock whose owner cannot
   * be proven dead (another PID namespace, boot or machine) is taken over (default 15 s); see docs/storage.md
   */
  readonly lockLease?: number
  /** the clock, in microseconds since the epoch; `now()` reads it once per statement */
  readonly clock?: () => number
  /**
   * Seeds for `rnd_*`. When given, one generator seeded with them serves every statement in
   * turn (as QuestDB's test harness does, so seeded scripts reproduce QuestDB's values); by
   * default each statement's generator is seeded from the clock, as QuestDB does in production.
   */
  readonly randomSeed?: readonly [bigint, bigint]
  /** the longest table or column name, in characters (QuestDB's `cairo.max.file.name.length`, default 127) */
  readonly maxNameLength?: number
  /**
   * What one statement text may be, checked before it is parsed: `maxLength` characters (54000),
   * `maxListItems` items in one list and `maxDepth` nesting depth (54001). Defaults:
   * {@link DEFAULT_PARSE_LIMITS} (2 Mi characters, 1,000,000 items, depth 1,000).
   */
  readonly parseLimits?: Partial<ParseLimits>
  /**
   * Bytes one statement may hold in sort buffers, hash tables, join build sides, window buffers,
   * set-operation state and materialised results; past it the statement fails with 53200
   * (`cairo.query.memory.limit.bytes` on the standalone server). Default: half of
   * {@link DatabaseOptions.totalQueryMemoryLimit}; 0 for no limit.
   */
  readonly queryMemoryLimit?: number
  /**
   * Bytes all running statements may hold together (the server-wide budget: `ram.usage.limit.bytes`
   * on the standalone server). Default: 90 % of physical memory, at most half of V8's heap limit
   * (`--max-old-space-size`), so that no mix of queries can end in a fatal "heap out of memory";
   * 0 for no limit.
   */
  readonly totalQueryMemoryLimit?: number
  /**
   * Milliseconds after which a statement is ended with 57014 ("canceling statement due to
   * statement timeout"); 0 or absent: no timeout. {@link ExecOptions.timeout} overrides it per
   * statement. The standalone server sets it from `query.timeout` (60 s by default).
   */
  readonly queryTimeout?: number
  /**
   * The longest timeout a caller may ask for, in milliseconds: {@link ExecOptions.timeout} and a
   * session's `SET statement_timeout` above it (or 0, none) are lowered to it. The standalone
   * server sets it from `epochdb.query.timeout.max` (default: `query.timeout`). 0 or absent: no
   * ceiling.
   */
  readonly maxQueryTimeout?: number
}

/** A result column: its name and QuestDB type name (`LONG`, `TIMESTAMP`, `IPv4`, ...). */
export interface ColumnInfo {
  readonly name: string
  readonly type: string
}

/** What a statement returned, all at once. */
export interface QueryResult {
  readonly columns: readonly ColumnInfo[]
  /**
   * The rows, as JS values: BOOLEAN boolean; BYTE/SHORT/INT/FLOAT/DOUBLE number; LONG bigint;
   * TIMESTAMP bigint microseconds since the epoch (lossless, unlike `Date`); DATE `Date`;
   * CHAR/STRING/VARCHAR/SYMBOL/UUID/LONG256 string; IPv4 dotted string; BINARY Uint8Array; null.
   */
  readonly rows: JsValue[][]
  /** rows returned, or rows affected for INSERT/UPDATE */
  readonly rowCount: number
  /** index of the designated timestamp column in `columns`, or -1 */
  readonly timestampIndex: number
  /** what ran: 'select' for queries, otherwise the statement kind ('insert', 'update', 'create_table', ...) */
  readonly command: string
}

/** One batch of a streamed result. Vectors are column-major; `row(i)` converts one row to JS values. */
export interface ResultBatch {
  readonly columns: readonly ColumnInfo[]
  readonly length: number
  /** the column vectors (engine representation; see `Vector`) */
  readonly vectors: readonly Vector[]
  /** row `i` as JS values */
  row(i: number): JsValue[]
}

/** A statement being executed: its schema is known before the first row. */
export interface Execution {
  readonly columns: readonly ColumnInfo[]
  /** engine types of the columns */
  readonly types: readonly ColumnType[]
  readonly timestampIndex: number
  readonly command: string
  /** rows affected (DML) or -1 for queries until streamed */
  readonly affected: number
  /** the result batches (empty for statements without rows) */
  readonly batches: AsyncIterable<Batch>
}

/** Options for one call. */
export interface ExecOptions {
  /** the session to run in (defaults to the database's admin session) */
  readonly session?: Session
  /** cancels the statement when `cancelled` becomes true */
  readonly signal?: CancelSignal
  /**
   * Milliseconds after which the statement is ended with 57014; 0: no timeout. Defaults to
   * {@link DatabaseOptions.queryTimeout}.
   */
  readonly timeout?: number
  /**
   * When the statement arrived (`Date.now()` ms): its timeout counts from then, so the time
   * {@link Database.parseAsync} took is included. Default: when execution starts.
   */
  readonly receivedAt?: number
  /**
   * Return from a write before it is durable: the caller promises to await {@link Database.sync}
   * before it acknowledges the write to anyone (pgwire does, once per pipelined batch, so a batch
   * of INSERTs shares one WAL sync). Without it, every write statement waits for its own
   * group commit.
   */
  readonly deferSync?: boolean
  /**
   * Engine types the caller declares for `$n` parameters (index 0 for `$1`), such as a driver's
   * parameter type OIDs: the value is converted to that type and the parameter has it wherever
   * it is used. A parameter without an entry takes its type from its JS value, or from its use
   * when the value is a string.
   */
  readonly paramTypes?: readonly (ColumnType | undefined)[]
}

const PARSE_CACHE_SIZE = 1000
/** Longer texts are parsed every time: a cache of big statements (bulk INSERTs) would hold their trees. */
const PARSE_CACHE_MAX_TEXT = 16 * 1024
/** Texts up to this long are parsed at once by {@link Database.parseAsync} (well under a millisecond). */
const ASYNC_PARSE_MIN_TEXT = 4096
/** Total characters of the cached texts (the trees are roughly proportional). */
const PARSE_CACHE_CHARS = 1024 * 1024

/** What a parsed statement binds to under one schema version. */
interface StatementCache {
  readonly version: number
  /** the types inferred for its text parameters, per signature of the declared ones */
  readonly paramTypes: Map<string | number, ColumnType[]>
  /** its plan, for a query without parameters */
  plan: PlannedQuery | undefined
}

/** An optimized query plan with what every execution of it needs, worked out once. */
interface PlannedQuery {
  readonly plan: PlanNode
  readonly columns: readonly ColumnInfo[]
  readonly types: readonly ColumnType[]
  /** its uncorrelated subqueries, computed before each run */
  readonly subqueries: readonly BoundExpr[]
}

function planned(plan: PlanNode): PlannedQuery {
  return { plan, columns: infoOf(plan.output), types: plan.output.map((c) => c.type), subqueries: findSubqueries(plan) }
}

/** Statements that may change a table's shape (they invalidate cached parameter types and plans). */
const DDL_KINDS: ReadonlySet<Statement['kind']> = new Set<Statement['kind']>(['create_table', 'create_table_like', 'create_table_as', 'drop_table', 'truncate_table', 'rename_table', 'alter_table'])

/**
 * An EpochDB database.
 *
 * @example
 * ```ts
 * const db = await Database.open()
 * await db.query("create table t (ts timestamp, sym symbol, v double) timestamp(ts) partition by day")
 * await db.query("insert into t values ('2024-01-01T00:00:00Z', 'a', 1.5)")
 * const r = await db.query('select sym, avg(v) from t')
 * console.log(r.rows) // [['a', 1.5]]
 * ```
 */
export class Database {
  private readonly catalog = new Catalog()
  private readonly parseCache = new Map<string, Statement[]>()
  private parseCacheChars = 0
  private readonly parseLimits: ParseLimits
  private readonly defaultSession = new Session()
  private readonly clock: () => number
  private readonly queryTimeout: number
  private readonly maxQueryTimeout: number
  private readonly sharedRnd: Rnd | undefined
  private rndCounter = 0
  private closed = false
  /** what meta functions see of the catalog (a live view, made once) */
  private readonly catalogView = catalogView(this.catalog)
  /** makes a statement's random generator when it first draws */
  private readonly rndFactory = (): Rnd => this.statementRnd()
  /** bumped after every statement that may change a table's shape; invalidates the cached parameter types and plans */
  private schemaVersion = 0
  /** what a parsed statement binds to, kept until the schema changes (see {@link Database.cacheOf}) */
  private readonly statementCache = new WeakMap<Statement, StatementCache>()
  private store: DurableStore | undefined
  /** the memory all running statements share */
  private readonly memoryPool: MemoryPool
  /** bytes one statement may hold */
  private readonly queryMemoryLimit: number
  /** each running execution's memory, for {@link Database.collect} to charge the rows it gathers */
  private readonly executionMemory = new WeakMap<object, QueryMemory>()

  private constructor(options: DatabaseOptions) {
    this.clock = options.clock ?? (() => Date.now() * 1000)
    this.parseLimits = parseLimits(options.parseLimits)
    const total = options.totalQueryMemoryLimit === 0 ? Infinity : options.totalQueryMemoryLimit ?? resolveTotalQueryMemory()
    this.memoryPool = new MemoryPool(total)
    this.queryMemoryLimit = options.queryMemoryLimit === 0 ? Infinity : Math.min(options.queryMemoryLimit ?? defaultQueryMemory(total), total)
    this.queryTimeout = options.queryTimeout ?? 0
    this.maxQueryTimeout = options.maxQueryTimeout ?? 0
    this.sharedRnd = options.randomSeed === undefined ? undefined : new Rnd(options.randomSeed[0], options.randomSeed[1])
  }

  /** The random generator for one statement (see {@link DatabaseOptions.randomSeed}). */
  private statementRnd(): Rnd {
    if (this.sharedRnd !== undefined) return this.sharedRnd
    const t = BigInt(Math.trunc(performance.now() * 1000)) ^ BigInt(Date.now()) << 20n
    return new Rnd(t, t ^ BigInt(++this.rndCounter) * 0x9e3779b97f4a7c15n)
  }

  /** Opens a database: in memory when `options.path` is absent. */
  static async open(options: DatabaseOptions = {}): Promise<Database> {
    const db = new Database(options)
    if (options.maxNameLength !== undefined) db.catalog.maxNameLength = options.maxNameLength
    if (options.path !== undefined) db.store = await DurableStore.open(options.path, db.catalog, { memoryBudget: options.memoryBudget, checkpointBytes: options.checkpointBytes, lockLease: options.lockLease })
    return db
  }

  /** The longest table or column name accepted (`cairo.max.file.name.length`; option {@link DatabaseOptions.maxNameLength}). */
  get maxNameLength(): number {
    return this.catalog.maxNameLength
  }

  /** A new session (per connection) for `principal`'s statements. */
  session(...args: ConstructorParameters<typeof Session>): Session {
    return new Session(...args)
  }

  /** Parses `sql` into statements, once per distinct text. */
  parse(sql: string): Statement[] {
    let stmts = this.parseCache.get(sql)
    if (stmts === undefined) {
      stmts = parseStatements(sql, this.parseLimits)
      this.remember(sql, stmts)
    }
    return stmts
  }

  /** Keeps a parse in the cache (texts up to {@link PARSE_CACHE_MAX_TEXT}). */
  private remember(sql: string, stmts: Statement[]): void {
    if (sql.length > PARSE_CACHE_MAX_TEXT) return
    while (this.parseCache.size >= PARSE_CACHE_SIZE || (this.parseCache.size > 0 && this.parseCacheChars + sql.length > PARSE_CACHE_CHARS)) {
      const oldest = this.parseCache.keys().next().value!
      this.parseCache.delete(oldest)
      this.parseCacheChars -= oldest.length
    }
    this.parseCache.set(sql, stmts)
    this.parseCacheChars += sql.length
  }

  /**
   * {@link Database.parse} for servers: a text longer than a few kilobytes is lexed and parsed in
   * slices, yielding to the event loop between them as execution does, so a statement of
   * hundreds of kilobytes (a 30,000-row INSERT) does not keep other clients waiting for seconds.
   * The parse stops with 57014 when `options.signal` is cancelled or the statement's timeout
   * (counted from `options.receivedAt`) passes, and with 57P01 when the database is closed with
   * `cancel`.
   */
  async parseAsync(sql: string, options: ExecOptions = {}): Promise<Statement[]> {
    if (sql.length <= ASYNC_PARSE_MIN_TEXT || this.parseCache.has(sql)) return this.parse(sql)
    const db = this
    const signal: CancelSignal = { get cancelled() { return db.cancelling || options.signal?.cancelled === true } }
    const pacer = this.context(options.session ?? this.defaultSession, { ...options, signal }, [])
    let stmts: Statement[]
    try {
      stmts = (await parseScriptAsync(sql, this.parseLimits, () => pacer.maybeYield())).map((p) => p.statement)
    } catch (e) {
      throw this.shutdownError(asSqlError(e))
    }
    this.remember(sql, stmts)
    return stmts
  }

  /** Runs every statement of `sql` and returns the last one's result, whole. */
  async query(sql: string, params: readonly unknown[] = [], options: ExecOptions = {}): Promise<QueryResult> {
    if (options.receivedAt === undefined) options = { ...options, receivedAt: Date.now() }
    const stmts = await this.parseAsync(sql, options)
    if (stmts.length === 0) throw new SqlError(SqlState.SYNTAX_ERROR, 'empty query', 0)
    let result: QueryResult | undefined
    for (const s of stmts) result = await this.collect(await this.execute(s, params, options))
    return result!
  }

  /**
   * Runs one statement and yields its result batch by batch, without materializing it.
   *
   * @example
   * ```ts
   * for await (const batch of db.stream('select * from t')) for (let i = 0; i < batch.length; i++) use(batch.row(i))
   * ```
   */
  async *stream(sql: string, params: readonly unknown[] = [], options: ExecOptions = {}): AsyncGenerator<ResultBatch> {
    if (options.receivedAt === undefined) options = { ...options, receivedAt: Date.now() }
    const stmts = await this.parseAsync(sql, options)
    if (stmts.length !== 1) throw new SqlError(SqlState.SYNTAX_ERROR, 'stream() takes exactly one statement', 0)
    const ex = await this.execute(stmts[0]!, params, options)
    for await (const b of ex.batches) yield resultBatch(ex, b)
  }

  /** Prepares a statement: parsed once, run many times with `$1..$n` parameters. */
  prepare(sql: string): PreparedStatement {
    const stmts = this.parse(sql)
    if (stmts.length !== 1) throw new SqlError(SqlState.SYNTAX_ERROR, 'prepare() takes exactly one statement', 0)
    return new PreparedStatement(this, stmts[0]!)
  }

  /**
   * Appends rows given column by column (the fast bulk path). Columns are matched by name;
   * missing columns get nulls. TIMESTAMP/LONG/DATE columns take a Float64Array (or BigInt64Array)
   * of microseconds/values, DOUBLE a Float64Array, SYMBOL/STRING an array of strings; other
   * arrays are converted value by value.
   */
  async append(table: string, columns: Readonly<Record<string, ArrayLike<unknown>>>): Promise<number> {
    this.checkOpen()
    const t = this.catalog.get(table)
    const names = Object.keys(columns)
    for (const n of names) if (!t.meta.columns.some((c) => c.name.toLowerCase() === n.toLowerCase())) throw new SqlError(SqlState.UNDEFINED_COLUMN, `Invalid column: ${n}`)
    const length = names.length === 0 ? 0 : columns[names[0]!]!.length
    const vectors = t.meta.columns.map((c, i) => {
      const key = names.find((n) => n.toLowerCase() === c.name.toLowerCase())
      if (key === undefined) return allocate(c.type, length, t.dictOf(i))
      const src = columns[key]!
      if (src.length !== length) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `column ${key} has ${src.length} values, expected ${length}`)
      return appendVector(c, src, length, t.dictOf(i))
    })
    if (t.meta.timestampIndex >= 0) {
      const ts = vectors[t.meta.timestampIndex]!
      for (let i = 0; i < length; i++) if (getScalar(ts, i) === null) throw new SqlError(SqlState.NOT_NULL_VIOLATION, 'designated timestamp column cannot be NULL')
    }
    const release = t.writers.tryShare() ?? await t.writers.share()
    try { t.append(vectors, length) } finally { release() }
    await this.store?.commit()
    return length
  }

  /**
   * Describes a statement without running it: the type each `$n` takes (given ones kept,
   * undefined ones inferred from their use, STRING otherwise) and, for queries, the result
   * columns. pgwire's Describe message answers from this.
   */
  describe(stmt: Statement, paramTypes: readonly (ColumnType | undefined)[] = []): { params: ColumnType[]; columns: ColumnInfo[] | undefined } {
    this.checkOpen()
    const ctx = new ExecContext(this.clock(), this.clock, this.defaultSession.principal.name, this.catalogView, VERSION, [], undefined, this.rndFactory)
    const d = describe(stmt, { catalog: this.catalog, paramTypes, ctes: new Map(), fn: ctx })
    return { params: d.params, columns: d.columns === undefined ? undefined : infoOf(d.columns) }
  }

  /**
   * Resolves once every write made so far is durable (and visible to queries). Writes of a
   * data-directory database are made durable by group commit: one WAL sync for all the writes
   * that arrive while the previous sync runs. Rejects with 58030 when the sync failed; the writes
   * it covered are then dropped. Statements await this themselves unless run with
   * {@link ExecOptions.deferSync}.
   */
  async sync(): Promise<void> {
    await this.store?.commit()
  }

  /**
   * The memory budgets in effect (bytes; `Infinity` for none) and what running statements hold
   * now (see {@link DatabaseOptions.queryMemoryLimit}).
   */
  get queryMemory(): { readonly perQuery: number; readonly total: number; readonly used: number } {
    return { perQuery: this.queryMemoryLimit, total: this.memoryPool.limit, used: this.memoryPool.used }
  }

  /** True while some writes wait for {@link Database.sync} (never for an in-memory database). */
  get hasUnsyncedWrites(): boolean {
    return this.store?.uncommitted === true
  }

  /**
   * Closes the database; later calls fail with 57P01. Writes already acknowledged are durable;
   * a data directory is checkpointed (skipped on a full disk: the WAL keeps every row) and its
   * lock released.
   *
   * With `cancel: true` (a server shutting down), every statement still running is cancelled
   * first and fails with 57P01 `admin_shutdown`; a write cancelled this way changed nothing. It
   * waits for them to end, at most `timeout` ms (default 5 s; a statement that has not reached a
   * cancellation point by then is left behind).
   *
   * @example
   * ```ts
   * process.once('SIGTERM', () => void db.close({ cancel: true }).then(() => process.exit(0)))
   * ```
   */
  async close(options: CloseOptions = {}): Promise<void> {
    if (this.closed) return
    this.closed = true
    if (options.cancel === true) {
      this.cancelling = true
      const timeout = new Promise<void>((r) => setTimeout(r, options.timeout ?? 5000).unref())
      await Promise.race([Promise.all([...this.running].map((r) => r.ended)), timeout])
    }
    await this.store?.commit().catch(() => undefined)
    this.store?.close()
  }

  /** Statements running now (started by {@link Database.execute} and not yet ended): for `close({ cancel: true })`. */
  private readonly running = new Set<RunningStatement>()
  /** set by `close({ cancel: true })`: every running statement is cancelled */
  private cancelling = false

  /** Registers a statement as running; its signal also fires when the database is closed with `cancel`. */
  private track(signal: CancelSignal | undefined): RunningStatement {
    let end!: () => void
    const ended = new Promise<void>((r) => { end = r })
    const db = this
    const run: RunningStatement = {
      signal: { get cancelled() { return db.cancelling || signal?.cancelled === true } },
      ended,
      done: () => { this.running.delete(run); end() },
    }
    this.running.add(run)
    return run
  }

  /** 57014 caused by `close({ cancel: true })` becomes 57P01 admin_shutdown. */
  private shutdownError(e: SqlError): SqlError {
    if (!this.cancelling || e.code !== SqlState.QUERY_CANCELED) return e
    return new SqlError(SqlState.ADMIN_SHUTDOWN, 'terminating statement due to administrator command: the server is shutting down; the statement did not commit', -1,
      { hint: 'run it again once the server is back' })
  }

  /** Streams `batches`, ending `run` when they end (or fail). */
  private async *tracked(batches: AsyncIterable<Batch>, run: RunningStatement): AsyncGenerator<Batch> {
    try {
      for await (const b of batches) yield b
    } catch (e) {
      throw this.shutdownError(asSqlError(e))
    } finally {
      run.done()
    }
  }


  /**
   * Runs a DDL change and persists it (creates, rewrites, drops table directories). When either
   * fails, the catalog is put back as it was and the files are made to match it again, so the
   * answer — an error — is what a restart sees too.
   */
  private ddl(change: () => void, ex: Execution): Execution {
    const undo = this.catalog.savepoint()
    try {
      change()
      this.store?.sync()
    } catch (e) {
      undo()
      try { this.store?.sync() } catch { /* the files are repaired at the next DDL statement or open */ }
      throw e
    }
    return ex
  }

  private checkOpen(): void {
    if (this.closed) throw new SqlError(SqlState.ADMIN_SHUTDOWN, 'database is closed')
  }

  /** Collects an execution into a {@link QueryResult}. */
  private async collect(ex: Execution): Promise<QueryResult> {
    const rows: JsValue[][] = []
    const mem = this.executionMemory.get(ex)?.reservation('the query result (Database.query collects every row; use Database.stream for large results)')
    for await (const b of ex.batches) {
      mem?.grow(rowsBytes(b))
      for (let i = 0; i < b.length; i++) rows.push(b.vectors.map((v, k) => toJsValue(ex.types[k]!, getScalar(v, i))))
    }
    return { columns: ex.columns, rows, rowCount: ex.affected >= 0 ? ex.affected : rows.length, timestampIndex: ex.timestampIndex, command: ex.command }
  }

  /**
   * Starts one parsed statement (from {@link Database.parse}) and returns its schema before any
   * row: adapters use it to send column descriptions, then stream `batches` with back-pressure.
   * Parameters are JS values for `$1..$n`.
   */
  async execute(stmt: Statement, params: readonly unknown[], options: ExecOptions = {}): Promise<Execution> {
    const run = this.track(options.signal)
    const memory = new QueryMemory(this.queryMemoryLimit, this.memoryPool)
    try {
      const ex = await this.start(stmt, params, { ...options, signal: run.signal }, memory)
      if (ex.batches === EMPTY) { memory.releaseAll(); run.done(); return ex }
      const out = { columns: ex.columns, types: ex.types, timestampIndex: ex.timestampIndex, command: ex.command, affected: ex.affected, batches: this.tracked(releasing(ex.batches, memory), run) }
      this.executionMemory.set(out, memory)
      return out
    } catch (e) {
      memory.releaseAll()
      run.done()
      throw this.shutdownError(asSqlError(e))
    }
  }

  private async start(stmt: Statement, params: readonly unknown[], options: ExecOptions, memory: QueryMemory): Promise<Execution> {
    this.checkOpen()
    const store = this.store
    // every statement but INSERT ... VALUES runs after the writes before it are committed (it may
    // read them, or rewrite their tables); a failed sync is the business of the writes' owners
    if (store?.uncommitted === true && !(stmt.kind === 'insert' && stmt.source.kind === 'values')) await store.commit().catch(() => undefined)
    const ex = await this.bindAndRun(stmt, params, options, memory)
    if (store?.uncommitted === true && options.deferSync !== true) await store.commit()
    return ex
  }

  private async bindAndRun(stmt: Statement, params: readonly unknown[], options: ExecOptions, memory: QueryMemory): Promise<Execution> {
    ({ stmt, params } = expandArrayParams(stmt, params))
    const session = options.session ?? this.defaultSession
    // text parameters (pgwire sends them as strings) take the type their use asks for
    const values: Scalar[] = []
    const ctx = this.context(session, options, values)
    ctx.memory = memory
    const typed = options.paramTypes
    const declared = params.map((p, i) => typed?.[i] ?? (typeof p === 'string' ? undefined : paramType(p)))
    const paramTypes: ColumnType[] = declared.some((t) => t === undefined) ? this.inferParamTypes(stmt, declared, ctx) : (declared as ColumnType[])
    params.forEach((p, i) => { values.push(fromJsValue(paramTypes[i] ?? 'STRING', p)) })
    const bc: BindContext = { catalog: this.catalog, paramTypes, ctes: new Map(), fn: ctx, params: values }
    if (!DDL_KINDS.has(stmt.kind)) return this.run(stmt, session, ctx, bc)
    if (session.inTransaction) this.checkNoBufferedRows(stmt, session)
    // alone on the tables it changes: no INSERT or UPDATE of them is half done
    const releases = await lockAlone(this.ddlTargets(stmt))
    // appends staged after start()'s drain (while it awaited the sync) commit now, with nothing in
    // between, in the shape they were made for; a failed sync is their owners' to report
    try { this.store?.commitSync() } catch { /* reported to the writes' commits */ }
    try {
      return await this.run(stmt, session, ctx, bc)
    } finally {
      for (const r of releases) r()
      this.schemaVersion++
    }
  }

  /** A statement's execution context, its timeout counted from `options.receivedAt` (or now). */
  private context(session: Session, options: ExecOptions, values: Scalar[]): ExecContext {
    const ctx = new ExecContext(this.clock(), this.clock, session.principal.name, this.catalogView, VERSION, values, options.signal, this.rndFactory)
    let timeout = options.timeout ?? sessionTimeout(session) ?? this.queryTimeout
    const max = this.maxQueryTimeout
    if (max > 0 && !(timeout > 0 && timeout <= max)) timeout = max
    ctx.setTimeout(timeout)
    if (options.receivedAt !== undefined && Number.isFinite(ctx.deadline)) ctx.deadline = options.receivedAt + timeout
    return ctx
  }

  /** The existing tables a DDL statement changes. */
  private ddlTargets(stmt: Statement): Table[] {
    const names = ((): string[] => {
      switch (stmt.kind) {
        case 'drop_table': return stmt.all ? this.catalog.names() : stmt.names.map((n) => n.name)
        case 'truncate_table': return stmt.names.map((n) => n.name)
        case 'rename_table': return [stmt.from]
        case 'alter_table': return [stmt.table]
        default: return []
      }
    })()
    return names.map((n) => this.catalog.find(n)).filter((t): t is Table => t !== undefined)
  }

  /**
   * DDL applies at once, but a transaction's INSERTs wait for COMMIT: changing or removing a
   * table the open transaction has inserted into would leave those rows without a table to go
   * to, so it is refused (25001) until COMMIT or ROLLBACK.
   */
  private checkNoBufferedRows(stmt: Statement, session: Session): void {
    const touched = session.pending.tables()
    if (touched.size === 0) return
    const named = (name: string, pos: number): void => {
      const t = this.catalog.find(name)
      if (t !== undefined && touched.has(t)) {
        throw new SqlError(SqlState.ACTIVE_SQL_TRANSACTION, `cannot change table ${t.meta.name} in a transaction that has inserted into it; COMMIT or ROLLBACK first`, pos)
      }
    }
    switch (stmt.kind) {
      case 'drop_table':
        if (stmt.all) for (const t of touched) named(t.meta.name, stmt.pos)
        for (const n of stmt.names) named(n.name, n.pos)
        return
      case 'truncate_table': for (const n of stmt.names) named(n.name, n.pos); return
      case 'rename_table': named(stmt.from, stmt.fromPos); return
      case 'alter_table': named(stmt.table, stmt.tablePos); return
      default:
    }
  }

  /**
   * The types of `$n` parameters given as text (undefined in `declared`), inferred from their use.
   * Cached per statement: a prepared statement run many times (pgwire's extended protocol sends
   * every parameter as text) binds its types once per schema version.
   */
  private inferParamTypes(stmt: Statement, declared: readonly (ColumnType | undefined)[], ctx: ExecContext): ColumnType[] {
    // all parameters as text (pgwire's usual case) is keyed by their count alone
    const key = declared.every((t) => t === undefined) ? declared.length : declared.join(',')
    const byKey = this.cacheOf(stmt).paramTypes
    let types = byKey.get(key)
    if (types === undefined) {
      types = describe(stmt, { catalog: this.catalog, paramTypes: declared, ctes: new Map(), fn: ctx }).params
      if (byKey.size >= 16) byKey.clear()
      byKey.set(key, types)
    }
    return types
  }

  /** The cache entry of a parsed statement, emptied when the schema version moved on. */
  private cacheOf(stmt: Statement): StatementCache {
    let entry = this.statementCache.get(stmt)
    if (entry === undefined || entry.version !== this.schemaVersion) this.statementCache.set(stmt, entry = { version: this.schemaVersion, paramTypes: new Map(), plan: undefined })
    return entry
  }

  /**
   * The optimized plan of a query. A query without parameters is planned once per schema
   * version and the plan reused (plans hold no per-execution state: snapshots, subquery values
   * and `now()` are taken when they run); one with parameters is planned for its values, which
   * table-function arguments may depend on.
   */
  private planOf(stmt: Extract<Statement, { kind: 'select' | 'setop' | 'with' }>, bc: BindContext): PlannedQuery {
    if (bc.paramTypes.length > 0) return planned(optimize(bindQuery(stmt, bc)))
    const entry = this.cacheOf(stmt)
    return (entry.plan ??= planned(optimize(bindQuery(stmt, bc))))
  }

  private async run(stmt: Statement, session: Session, ctx: ExecContext, bc: BindContext): Promise<Execution> {
    switch (stmt.kind) {
      case 'select': case 'setop': case 'with': {
        const q = this.planOf(stmt, bc)
        if (q.subqueries.length > 0) await computeSubqueries(q.subqueries, ctx)
        return { columns: q.columns, types: q.types, timestampIndex: q.plan.timestampIndex, command: 'select', affected: -1, batches: runPlan(q.plan, ctx) }
      }
      case 'create_table': return this.ddl(() => createTable(stmt, this.catalog), done('create_table'))
      case 'create_table_like': return this.ddl(() => createTableLike(stmt, this.catalog), done('create_table'))
      case 'create_table_as': {
        if (this.catalog.find(stmt.name) !== undefined) {
          if (stmt.ifNotExists) return done('create_table')
          throw new SqlError(SqlState.DUPLICATE_TABLE, `table already exists [table=${stmt.name}]`, stmt.namePos)
        }
        const plan = optimize(bindQuery(stmt.query, bc))
        const data = await collectAll(plan, ctx)
        const columns: ColumnMeta[] = plan.output.map((c) => {
          checkName(c.name, stmt.pos, 'column', this.catalog.maxNameLength)
          const cast = stmt.casts.find((x) => x.column.toLowerCase() === c.name.toLowerCase())
          return { name: c.name, type: cast === undefined ? c.type : columnType(cast.type, cast.pos), indexed: false, symbolCapacity: 256, symbolCached: true }
        })
        const meta = tableMeta(stmt.name, stmt.namePos, columns, stmt.options, stmt.pos, this.catalog.maxNameLength)
        let t!: Table
        this.ddl(() => { t = this.catalog.create(meta, stmt.namePos) }, done('create_table'))
        try {
          t.append(columns.map((c, i) => (data.vectors[i]!.type === c.type ? data.vectors[i]! : castVector(data.vectors[i]!, c.type))), data.length)
          await this.store?.commit()
        } catch (err) {
          // the rows were not committed: the table goes too (if that fails as well, it stays, empty, in the catalog and on disk alike)
          try { this.ddl(() => { if (this.catalog.find(stmt.name) === t) this.catalog.drop(stmt.name) }, done('drop_table')) } catch { /* see above */ }
          throw err
        }
        return done('create_table', data.length)
      }
      case 'drop_table': return this.ddl(() => dropTable(stmt, this.catalog), done('drop_table'))
      case 'truncate_table': return this.ddl(() => truncateTable(stmt, this.catalog), done('truncate_table'))
      case 'rename_table': return this.ddl(() => renameTable(stmt, this.catalog), done('rename_table'))
      case 'alter_table': return this.ddl(() => alterTable(stmt, this.catalog), done('alter_table'))
      case 'insert': {
        const table = this.catalog.get(stmt.table, stmt.tablePos)
        const cteBc = stmt.ctes === undefined ? bc : withCtes(bc, stmt.ctes)
        if (session.inTransaction) return done('insert', await insert(stmt, table, cteBc, ctx, (t, v, n) => { session.pending.add(t, v, n) }))
        // writers share the table's lock; an UPDATE holds it alone
        const release = table.writers.tryShare() ?? await table.writers.share()
        try { return done('insert', await insert(stmt, table, cteBc, ctx)) } finally { release() }
      }
      case 'update': {
        const table = this.catalog.get(stmt.table, stmt.tablePos)
        // alone on the table: no append lands between the rows UPDATE reads and the rows it writes
        const release = await table.writers.exclusive()
        try {
          if (this.store?.uncommitted === true) await this.store.commit().catch(() => undefined)
          return done('update', await update(stmt, table, bc, ctx))
        } finally { release() }
      }
      case 'show': return rowsExecution(show(stmt, this.catalog, session))
      case 'explain': {
        const inner = stmt.statement
        if (inner.kind !== 'select' && inner.kind !== 'setop' && inner.kind !== 'with') throw notSupported('EXPLAIN supports queries only', stmt.pos)
        return rowsExecution(explain(optimize(bindQuery(inner, bc))))
      }
      case 'transaction': {
        const writes = session.pending.take()
        session.inTransaction = stmt.action === 'begin'
        // each run of INSERTs into one table is one append (one WAL record, one merge)
        if (stmt.action === 'commit' && writes.length > 0) {
          const releases = []
          // in table-id order, as every statement that locks several tables: no two wait for each other
          for (const t of [...new Set(writes.map((w) => w.table))].sort((a, b) => a.meta.id - b.meta.id)) releases.push(t.writers.tryShare() ?? await t.writers.share())
          try { for (const w of writes) w.table.append(w.vectors, w.length) } finally { for (const r of releases) r() }
        }
        return done(stmt.action)
      }
      case 'set':
        if (stmt.name.toLowerCase() === STATEMENT_TIMEOUT && stmt.value !== undefined) checkStatementTimeout(stmt.value, stmt.pos)
        if (stmt.value === undefined) session.settings.delete(stmt.name.toLowerCase())
        else session.settings.set(stmt.name.toLowerCase(), stmt.value)
        return done('set')
      case 'unsupported': throw unsupported(stmt.feature, stmt.pos)
    }
  }
}

/** Takes the write locks of `tables` alone, in table-id order (so that two statements never wait for each other). */
async function lockAlone(tables: readonly Table[]): Promise<(() => void)[]> {
  const releases: (() => void)[] = []
  for (const t of [...new Set(tables)].sort((a, b) => a.meta.id - b.meta.id)) releases.push(await t.writers.exclusive())
  return releases
}

/** Options of {@link Database.close}. */
export interface CloseOptions {
  /** cancel the statements still running (they fail with 57P01) and wait for them to end */
  readonly cancel?: boolean
  /** with `cancel`: the longest wait for them, in ms (default 5000) */
  readonly timeout?: number
}

/** A statement between its start and its end (see {@link Database.close}). */
interface RunningStatement {
  readonly signal: CancelSignal
  readonly ended: Promise<void>
  readonly done: () => void
}

/** The session's `SET statement_timeout`, in milliseconds (0 = none), or undefined when it set none. */
function sessionTimeout(session: Session): number | undefined {
  const v = session.settings.get(STATEMENT_TIMEOUT)
  return v === undefined ? undefined : parseStatementTimeout(v)
}

/** A statement parsed once and run many times. */
export class PreparedStatement {
  /** @internal */
  constructor(private readonly db: Database, readonly statement: Statement) {}

  /** Runs the statement with `params` for `$1..$n`. */
  async query(params: readonly unknown[] = [], options: ExecOptions = {}): Promise<QueryResult> {
    const ex = await this.db.execute(this.statement, params, options)
    const rows: JsValue[][] = []
    for await (const b of ex.batches) for (let i = 0; i < b.length; i++) rows.push(b.vectors.map((v, k) => toJsValue(ex.types[k]!, getScalar(v, i))))
    return { columns: ex.columns, rows, rowCount: ex.affected >= 0 ? ex.affected : rows.length, timestampIndex: ex.timestampIndex, command: ex.command }
  }

  /** Runs the statement and streams its result. */
  async *stream(params: readonly unknown[] = [], options: ExecOptions = {}): AsyncGenerator<ResultBatch> {
    const ex = await this.db.execute(this.statement, params, options)
    for await (const b of ex.batches) yield resultBatch(ex, b)
  }
}

const EMPTY: AsyncIterable<Batch> = { [Symbol.asyncIterator]: async function* () {} }

/** Gives a statement's memory back to the pool if its batches are dropped without being read to the end. */
const unread = new FinalizationRegistry<QueryMemory>((memory) => memory.releaseAll())

/** `batches`, releasing the statement's memory when they end, fail or are closed early (or are dropped unread). */
function releasing(batches: AsyncIterable<Batch>, memory: QueryMemory): AsyncIterable<Batch> {
  const gen = (async function* () {
    try {
      yield* batches
    } finally {
      memory.releaseAll()
    }
  })()
  unread.register(gen, memory)
  return gen
}

/** Estimated bytes of a batch as rows of JS values: an array per row, a slot and a boxed value per cell, the strings. */
function rowsBytes(b: Batch): number {
  let strings = 0
  for (const v of b.vectors) if (v.kind === 'str' || v.kind === 'bin') strings += batchBytes({ length: b.length, vectors: [v] })
  return b.length * (32 + 24 * b.vectors.length) + strings
}

/**
 * Every failure reaching a user is a SqlError: anything else thrown inside the engine (a broken
 * invariant, a stack overflow) becomes XX000 with the original error as its cause.
 */
function asSqlError(e: unknown): SqlError {
  if (e instanceof SqlError) return e
  // A tree deeper than a recursive pass can walk (only past the parse limits' depth): the
  // statement is refused, the process is unharmed.
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return new SqlError(SqlState.STATEMENT_TOO_COMPLEX, 'statement is too complex: expressions are nested too deeply', -1, { cause: e, hint: 'simplify the statement, or lower parseLimits.maxDepth so that it is refused before parsing' })
  }
  const message = e instanceof Error ? e.message : String(e)
  return new SqlError(SqlState.INTERNAL_ERROR, `internal error: ${message}`, -1, { cause: e })
}

function withCtes(bc: BindContext, ctes: NonNullable<Extract<Statement, { kind: 'insert' }>['ctes']>): BindContext {
  const map = new Map(bc.ctes)
  for (const c of ctes) map.set(c.name.toLowerCase(), bindQuery(c.query, { ...bc, ctes: map }))
  return { ...bc, ctes: map }
}

function infoOf(output: readonly OutputColumn[]): ColumnInfo[] {
  return output.map((c) => ({ name: c.name, type: typeName(c.type) }))
}

/** The execution of a statement that returns no rows. */
function done(command: string, affected = 0): Execution {
  return { columns: [], types: [], timestampIndex: -1, command, affected, batches: EMPTY }
}


function rowsExecution(r: Rows): Execution {
  const b = r.batch
  return {
    columns: infoOf(r.output), types: r.output.map((c) => c.type), timestampIndex: -1, command: 'select', affected: -1,
    batches: { [Symbol.asyncIterator]: async function* () { if (b.length > 0) yield b } },
  }
}

function resultBatch(ex: Execution, b: Batch): ResultBatch {
  return {
    columns: ex.columns, length: b.length, vectors: b.vectors,
    row: (i) => b.vectors.map((v, k) => toJsValue(ex.types[k]!, getScalar(v, i))),
  }
}

/** The engine type of a JS parameter value. */
function paramType(v: unknown): ColumnType {
  switch (typeof v) {
    case 'bigint': return 'LONG'
    case 'number': return Number.isInteger(v) && Math.abs(v) <= 2147483647 ? 'INT' : Number.isInteger(v) ? 'LONG' : 'DOUBLE'
    case 'string': return 'STRING'
    case 'boolean': return 'BOOLEAN'
    default:
      if (v instanceof Date) return 'TIMESTAMP'
      if (v instanceof Uint8Array) return 'BINARY'
      return 'NULL'
  }
}

function unsupported(feature: string, pos: number): SqlError {
  switch (feature.toUpperCase()) {
    case 'DELETE': return notSupported('DELETE is not supported; use UPDATE, TRUNCATE or DROP PARTITION', pos)
    case 'DECLARE CURSOR': case 'FETCH': case 'MOVE': case 'CLOSE':
      return notSupported(`${feature} is not supported: cursors are forward-only; read results as a stream`, pos)
    default: return notSupported(`${feature} is not supported`, pos)
  }
}

/** Builds a vector for {@link Database.append} from user data. */
function appendVector(c: ColumnMeta, src: ArrayLike<unknown>, length: number, dict: SymbolTable | undefined): Vector {
  if ((c.type === 'DOUBLE' && src instanceof Float64Array) || (c.type === 'FLOAT' && src instanceof Float32Array) || (c.type === 'INT' && src instanceof Int32Array)) {
    return vectorOf(c.type, src, length)
  }
  if ((c.type === 'TIMESTAMP' || c.type === 'LONG' || c.type === 'DATE') && src instanceof Float64Array) {
    for (let i = 0; i < length; i++) if (!Number.isSafeInteger(src[i]!)) return convertEach(c.type, src, length, dict)
    return vectorOf(c.type, src, length)
  }
  if (c.type === 'SYMBOL' && dict !== undefined && Array.isArray(src)) {
    const keys = new Int32Array(length)
    const cache = new Map<string, number>()
    for (let i = 0; i < length; i++) {
      const s = src[i] as string | null | undefined
      if (s === null || s === undefined) { keys[i] = -1; continue }
      let k = cache.get(s)
      if (k === undefined) { k = dict.intern(String(s)); cache.set(s, k) }
      keys[i] = k
    }
    return vectorOf('SYMBOL', keys, length, dict)
  }
  return convertEach(c.type, src, length, dict)
}

function convertEach(type: ColumnType, src: ArrayLike<unknown>, length: number, dict: SymbolTable | undefined): Vector {
  const w = new VectorWriter(type, length, dict)
  for (let i = 0; i < length; i++) {
    const x = src[i]
    w.set(i, (type === 'TIMESTAMP' || type === 'LONG' || type === 'DATE') && typeof x === 'number' ? x : fromJsValue(type, x) as Scalar)
  }
  return w.finish()
}
