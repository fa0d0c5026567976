/**
 * The `Database` facade: open/close, query/stream/prepare, bulk append, sessions.
 */
import { VIEWS_FILE, decodeViews } from './storage/views-file.js'
import { MAT_VIEWS_FILE } from './storage/mat-views.js'
import { resumeMatViews } from './exec/mat-view-refresh.js'
import { refuseMatView } from './exec/statements/mat-views.js'
import { SqlError, SqlState } from './errors.js'
import type { Statement } from './sql/ast.js'
import type { ParsedStatement } from './sql/parse.js'
import { parseScript, parseScriptAsync } from './sql/parse.js'
import { parseLimits, type ParseLimits } from './sql/limits.js'
import type { ColumnType } from './types/column-type.js'
import type { JsValue } from './types/js-value.js'
import { batchRows } from './types/js-rows.js'
import { Catalog } from './storage/catalog.js'
import { DurableStore } from './storage/durable/store.js'
import { catalogView } from './exec/statements/meta.js'
import { ADMIN, Session, type Principal } from './session.js'
import { AccessControl, type AclOptions, type Endpoint, type PasswordVerifier } from './security/acl/access-control.js'
import { IdentityCaches } from './security/identity-caches.js'
import type { StatementInfo } from './statement-info.js'
import { tableLookup } from './exec/statements/acl.js'
import { ACL_FILE } from './security/acl/persistence.js'
import { hasPivotSubquery, resolvePivotValues } from './plan/pivot-values.js'
import { Rnd } from './functions/rnd/rnd.js'
import { MemoryPool, QueryMemory, batchBytes } from './exec/memory.js'
import { defaultQueryMemory, resolveTotalQueryMemory } from './exec/memory-defaults.js'
import { nanoClockOf, wallClockMicros } from './exec/wall-clock.js'
import { EMPTY, type ExecOptions, type Execution, type QueryResult, type ResultBatch, resultBatch } from './result.js'
import { RunningStatements, asSqlError, releasing } from './running.js'
import { Statements } from './statements.js'
import { appendVectors, appendVectorsInTurns } from './append-vectors.js'
import { presentIntervals } from './present-intervals.js'
import { LineWriter, type LineWriterOptions } from './ilp/line-writer.js'
import type { Batch } from './types/vector.js'
import { ParquetFiles } from './parquet/files.js'
import { type ParquetExportResult, writeParquetFile } from './parquet/export.js'
import type { ParquetWriteOptions } from './parquet/writer.js'
import { DEFAULT_ALIAS_MAX_LENGTH } from './plan/naming.js'
import { PHYSICAL_TUNING } from './plan/physical/options.js'
import { warmWorkersFor } from './exec/parallel/warm.js'

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
   * Access control: users, groups, grants, checked on every statement (default: off, every
   * session runs as the built-in admin). See docs/security.md.
   */
  readonly acl?: AclOptions
  /**
   * The longest timeout a caller may ask for, in milliseconds: {@link ExecOptions.timeout} and a
   * session's `SET statement_timeout` above it (or 0, none) are lowered to it. The standalone
   * server sets it from `epochdb.query.timeout.max` (default: `query.timeout`). 0 or absent: no
   * ceiling.
   */
  readonly maxQueryTimeout?: number
  /**
   * The directory `read_parquet()` reads under (QuestDB's `cairo.sql.copy.root`); unset: read_parquet
   * is refused. Paths outside it (`..`, absolute elsewhere, symlinks out) are refused. See docs/parquet.md.
   */
  readonly copyRoot?: string
  /**
   * The directory `COPY ... TO` writes under (QuestDB's `cairo.sql.copy.export.root`); unset: COPY TO
   * is refused. {@link Database.exportParquet} writes wherever its caller says.
   */
  readonly exportRoot?: string
  /**
   * Names result columns without an alias after their expression text, as a QuestDB 9 server
   * does by default (`cairo.sql.column.alias.expression.enabled=true`): `x + 1`, `count()`,
   * `concat('a', 'b')`, duplicates `x_2`. Default false: QuestDB's short names (`column`,
   * `count`, `concat`, duplicates `count1`), which its sqllogictest suite is written for.
   * See docs/sql.md "Result column names".
   */
  readonly columnAliasExpression?: boolean
  /** The longest name {@link DatabaseOptions.columnAliasExpression} generates (`cairo.sql.column.alias.generated.max.size`, default 64). */
  readonly columnAliasMaxLength?: number
}

export type { ColumnInfo } from './statement-info.js'

export type { QueryResult, ResultBatch, Execution, ExecOptions } from './result.js'

const PARSE_CACHE_SIZE = 1000
/** Longer texts are parsed every time: a cache of big statements (bulk INSERTs) would hold their trees. */
const PARSE_CACHE_MAX_TEXT = 16 * 1024
/** Texts up to this long are parsed at once by {@link Database.parseAsync} (well under a millisecond). */
const ASYNC_PARSE_MIN_TEXT = 4096
/** Total characters of the cached texts (the trees are roughly proportional). */
const PARSE_CACHE_CHARS = 1024 * 1024

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
  /** the library API's session: the built-in admin, named by `acl.admin.user` */
  private readonly defaultSession: Session
  private readonly clock: () => number
  private readonly queryTimeout: number
  private readonly sharedRnd: Rnd | undefined
  private rndCounter = 0
  private closed = false
  /** what meta functions see of the catalog (a live view, made once) */
  private readonly catalogView = catalogView(this.catalog)
  /** makes a statement's random generator when it first draws */
  private readonly rndFactory = (): Rnd => this.statementRnd()
  /** caches of external identities (an OIDC guard registers its own); `flush_identity_cache()` empties them */
  readonly identityCaches = new IdentityCaches()
  /** binds, caches and runs statements (the statement module) */
  private readonly statements: Statements
  private store: DurableStore | undefined
  /** the memory all running statements share */
  private readonly memoryPool: MemoryPool
  /** bytes one statement may hold */
  private readonly queryMemoryLimit: number
  /** each running execution's memory, for {@link Database.collect} to charge the rows it gathers */
  private readonly executionMemory = new WeakMap<object, QueryMemory>()
  /** users, groups, grants and the checks every statement passes */
  private readonly acl: AccessControl

  private constructor(options: DatabaseOptions) {
    this.clock = options.clock ?? wallClockMicros
    this.parseLimits = parseLimits(options.parseLimits)
    const total = options.totalQueryMemoryLimit === 0 ? Infinity : options.totalQueryMemoryLimit ?? resolveTotalQueryMemory()
    this.memoryPool = new MemoryPool(total)
    this.queryMemoryLimit = options.queryMemoryLimit === 0 ? Infinity : Math.min(options.queryMemoryLimit ?? defaultQueryMemory(total), total)
    this.queryTimeout = options.queryTimeout ?? 0
    this.sharedRnd = options.randomSeed === undefined ? undefined : new Rnd(options.randomSeed[0], options.randomSeed[1])
    this.acl = new AccessControl(options.acl, { tables: tableLookup(this.catalog), clock: this.clock })
    this.defaultSession = new Session(this.adminPrincipal())
    this.statements = new Statements({
      catalog: this.catalog, version: VERSION, clock: this.clock, clockNs: nanoClockOf(options.clock), catalogView: this.catalogView, rndFactory: this.rndFactory, identityCaches: this.identityCaches,
      defaultSession: this.defaultSession, queryTimeout: this.queryTimeout, maxQueryTimeout: options.maxQueryTimeout ?? 0, acl: this.acl,
      files: new ParquetFiles({ copyRoot: options.copyRoot, exportRoot: options.exportRoot }),
      naming: { expression: options.columnAliasExpression === true, maxLength: options.columnAliasMaxLength ?? DEFAULT_ALIAS_MAX_LENGTH },
      flushQueryCache: () => { this.parseCache.clear(); this.parseCacheChars = 0 },
      running: this.running,
    })
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
    if (options.path !== undefined) db.store = db.statements.store = await DurableStore.open(options.path, db.catalog, { memoryBudget: options.memoryBudget, checkpointBytes: options.checkpointBytes, lockLease: options.lockLease })
    const store = db.store
    try {
      db.acl.attach(store && { read: () => store.readInternal(ACL_FILE), write: (b) => store.writeInternal(ACL_FILE, b) })
      if (store !== undefined) db.catalog.adoptViews(decodeViews(store.readInternal(VIEWS_FILE)))
      if (store !== undefined) resumeMatViews(db.catalog, db.statements.refresher, store.readInternal(MAT_VIEWS_FILE))
    } catch (e) { store?.close(); throw e }
    // the parallel workers start loading now if a table is already large enough for a parallel plan, else when one grows so
    let largest = 0
    for (const t of db.catalog.all()) {
      try { largest = Math.max(largest, t.rowCount) } catch { /* a damaged table: opening still succeeds, its queries report the damage */ }
    }
    warmWorkersFor(largest, PHYSICAL_TUNING.minRows)
    return db
  }

  /** A new session (per connection) for `principal`'s statements; without one, the built-in admin's (named by `acl.admin.user`). */
  session(principal?: Principal): Session {
    return new Session(principal ?? this.adminPrincipal())
  }

  private adminPrincipal(): Principal {
    return { ...ADMIN, name: this.acl.adminName }
  }

  /** True when access control is on ({@link DatabaseOptions.acl}): statements are checked against their session's principal. */
  get aclEnabled(): boolean {
    return this.acl.enabled
  }

  /**
   * The principal whose password this is, or null (unknown user, wrong password, disabled user:
   * the same answer in the same time). Adapters' default logins call it.
   */
  authenticate(user: string, password: string): Promise<Principal | null> {
    return this.acl.authenticate(user, password)
  }

  /** The SCRAM-SHA-256 verifier stored for `user`, or undefined (pgwire's SCRAM login). */
  passwordVerifier(user: string): Promise<PasswordVerifier | undefined> {
    return this.acl.passwordVerifier(user)
  }

  /** The principal of `user` after pgwire checked its SCRAM proof against {@link passwordVerifier}, or null (unknown or disabled). */
  userPrincipal(user: string): Principal | null {
    return this.acl.userPrincipal(user)
  }

  /** The principal of a REST token (`qt1…`, made by `ALTER USER u CREATE TOKEN TYPE REST`), or null. */
  authenticateToken(token: string): Promise<Principal | null> {
    return this.acl.authenticateToken(token)
  }

  /**
   * The principal of an ILP/TCP challenge login: `keyId` is a user or service account with a JWK
   * token (`ALTER USER u CREATE TOKEN TYPE JWK`), `signature` its base64 SHA-256 ECDSA signature
   * of `challenge` (made with `newJwkChallenge()`); null when any of it does not check.
   */
  authenticateJwk(keyId: string, challenge: Uint8Array, signature: string): Principal | null {
    return this.acl.authenticateJwk(keyId, challenge, signature)
  }

  /**
   * The principal of a user authenticated by an identity provider (the OIDC guard): its
   * permissions are those of the groups whose EXTERNAL ALIAS is in `externalGroups`, as granted
   * when each statement runs.
   */
  externalPrincipal(subject: string, externalGroups: readonly string[]): Principal {
    return this.acl.externalPrincipal(subject, externalGroups)
  }

  /** Throws 42501 `Access denied for <user> [HTTP]` unless `principal` may use the endpoint. */
  checkEndpoint(principal: Principal, endpoint: Endpoint): void {
    this.acl.checkEndpoint(principal, endpoint)
  }

  /** Parses `sql` into statements, once per distinct text. */
  parse(sql: string): Statement[] {
    let stmts = this.parseCache.get(sql)
    if (stmts === undefined) {
      stmts = this.texted(parseScript(sql, this.parseLimits))
      this.remember(sql, stmts)
    }
    return stmts
  }

  /** The statements of a parse, their texts kept for `query_activity()`. */
  private texted(parsed: readonly ParsedStatement[]): Statement[] {
    return parsed.map((p) => { this.statementTexts.set(p.statement, p.text); return p.statement })
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
    this.checkOpen()
    // listed by query_activity() (and cancellable) while it parses
    const run = this.running.track(options.signal, { user: (options.session ?? this.defaultSession).principal.name, sql })
    const pacer = this.statements.pacer(options.session ?? this.defaultSession, { ...options, signal: run.signal })
    let stmts: Statement[]
    try {
      stmts = this.texted(await parseScriptAsync(sql, this.parseLimits, () => pacer.maybeYield()))
    } catch (e) {
      throw this.running.shutdownError(asSqlError(e))
    } finally {
      run.done()
    }
    this.remember(sql, stmts)
    return stmts
  }

  /** The longest table or column name accepted (`cairo.max.file.name.length`; option {@link DatabaseOptions.maxNameLength}). */
  get maxNameLength(): number {
    return this.catalog.maxNameLength
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
   * arrays are converted value by value. With access control on, `options.session`'s principal
   * (default: the admin) needs INSERT on the table for the columns given, as an INSERT would.
   * On a data-directory database the rows are acknowledged (durable and visible to every query)
   * when the returned promise resolves; a query started before that sees none of them, so await
   * the append before reading what it wrote (docs/storage.md, "What a statement sees"). In memory
   * the rows are visible when it resolves: a large append is copied a slice per turn of the event
   * loop, so queries are answered meanwhile, and readers see all of its rows at once.
   */
  async append(table: string, columns: Readonly<Record<string, ArrayLike<unknown>>>, options: { readonly session?: Session } = {}): Promise<number> {
    this.checkOpen()
    const t = this.catalog.get(table)
    refuseMatView({ catalog: this.catalog }, t.meta.name, -1)
    if (this.acl.enabled) {
      const named = Object.keys(columns).map((k) => t.meta.columns.find((c) => c.name.toLowerCase() === k.toLowerCase())?.name ?? k)
      this.acl.authorize((options.session ?? this.defaultSession).principal, [{ permission: 'INSERT', table: t.meta.name, columns: named }])
    }
    let { vectors, length } = await appendVectorsInTurns(t, columns)
    const shaped = t.meta
    const release = t.writers.tryShare() ?? await t.writers.share()
    try {
      // DDL that held or awaited the lock first changed the columns: converted again, for them
      if (t.meta !== shaped) ({ vectors, length } = appendVectors(t, columns))
      // in memory, a large append goes in a slice per turn of the event loop (durable: its commit does)
      await t.appendInTurns(vectors, length)
    } finally { release() }
    await this.store?.commit()
    return length
  }

  /**
   * InfluxDB Line Protocol ingestion (the ILP adapters' engine; see docs/ilp.md): feed it bytes
   * with `write`, then `end()` (an HTTP request: all lines or none) or `commit()` now and then
   * (a TCP stream). Missing tables and columns are created as QuestDB's ILP does, with
   * `options.session`'s permissions (CREATE TABLE, ADD COLUMN, INSERT).
   *
   * @example
   * ```ts
   * const w = db.lineWriter({ precision: 'u' })
   * w.write(Buffer.from('trades,sym=BTC price=101.5,qty=2i 1700000000000000\n'))
   * await w.end() // 1
   * ```
   */
  lineWriter(options: LineWriterOptions & { readonly session?: Session } = {}): LineWriter {
    this.checkOpen()
    const session = options.session ?? this.defaultSession
    return new LineWriter({
      catalog: this.catalog, acl: this.acl, principal: session.principal, clock: this.clock, maxNameLength: this.catalog.maxNameLength,
      ddl: (sql) => this.query(sql, [], { session }), sync: () => this.sync(),
    }, options)
  }

  /**
   * Describes a statement without running it: its {@link StatementInfo}, with the type each `$n`
   * takes (given ones kept, undefined ones inferred from their use, STRING otherwise) and, for
   * queries, the result columns. Throws the statement's error (42P01, 42703, ...) when it does
   * not bind. pgwire's Describe message answers from this.
   *
   * @example
   * ```ts
   * const info = db.describe(db.parse('select v from t where sym = $1')[0]!)
   * info.params       // ['SYMBOL']
   * info.columns      // [{ name: 'v', type: 'DOUBLE' }]
   * info.permissions  // [{ permission: 'SELECT', table: 't', columns: ['sym', 'v'] }]
   * ```
   */
  describe(stmt: Statement, paramTypes: readonly (ColumnType | undefined)[] = []): StatementInfo {
    this.checkOpen()
    return this.statements.describe(stmt, paramTypes)
  }

  /**
   * The facts of a parsed statement (from {@link Database.parse}): parameter types, result
   * columns, whether it returns rows, its command tag, whether it writes, the permissions it
   * needs. Worked out once per statement and schema version (what binding tells, when first
   * read); the access check of every execution reads the same object. Unlike
   * {@link Database.describe} it never throws for a statement that does not bind: its parameters
   * are then STRING, its columns undefined, its permissions those its text names (its error
   * comes when it runs). Adapters read their statement facts here.
   */
  statementInfo(stmt: Statement): StatementInfo {
    return this.statements.info(stmt)
  }

  /**
   * Resolves once every write made so far is durable (and visible to queries). Writes of a
   * data-directory database are made durable by group commit: one WAL sync for all the writes
   * that arrive while the previous sync runs. Rejects with 58030 when the sync failed; the writes
   * it covered are then dropped. Statements await this themselves unless run with
   * {@link ExecOptions.deferSync}. Given a `session`, resolves once that session's writes are
   * durable, without waiting for other sessions' writes still committing.
   */
  async sync(session?: Session): Promise<void> {
    if (session === undefined) await this.store?.commit()
    else {
      const own = this.statements.deferredOf(session)
      if (own !== undefined) await this.store?.commit(own)
    }
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
   * a data directory is checkpointed (skipped on a full disk: the WAL keeps every row), its
   * Parquet partitions that writes turned into column files are converted back, and its lock
   * released.
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
    this.statements.refresher.close()
    if (options.cancel === true) await this.running.cancelAll(options.timeout ?? 5000)
    await this.store?.commit().catch(() => undefined)
    try { this.acl.flush() } catch { /* a REFRESH extension not saved: the token keeps its saved expiry */ }
    // converted partitions a checkpoint wrote as column files become Parquet again first (parquet-keep.ts)
    await this.store?.settleParquet().catch(() => undefined)
    this.store?.close()
  }

  /**
   * Writes the result of query `sql` as one Parquet file at `path` (replaced when it exists), row
   * group by row group, so memory stays flat whatever the size; the file appears complete or not
   * at all. Types map as docs/parquet.md says. Options: QuestDB's COPY options, camel-cased.
   *
   * @example
   * ```ts
   * const { rows } = await db.exportParquet('SELECT * FROM trades', '/data/trades.parquet', { compressionCodec: 'snappy' })
   * ```
   */
  async exportParquet(sql: string, path: string, options: ParquetWriteOptions & ExecOptions = {}): Promise<ParquetExportResult> {
    const stmts = await this.parseAsync(sql, options)
    if (stmts.length !== 1) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'exportParquet takes exactly one query', 0)
    const ex = await this.execute(stmts[0]!, [], options)
    if (ex.batches === EMPTY || ex.command !== 'select') throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'exportParquet takes a query that returns rows', 0)
    return writeParquetFile(ex, path, options)
  }

  /** Statements running now (started by {@link Database.execute} and not yet ended): for `close({ cancel: true })`. */
  private readonly running = new RunningStatements(() => this.clock())
  /** each parsed statement's text, as `query_activity()` shows it */
  private readonly statementTexts = new WeakMap<Statement, string>()

  private checkOpen(): void {
    if (this.closed) throw new SqlError(SqlState.ADMIN_SHUTDOWN, 'database is closed')
  }

  /** Collects an execution into a {@link QueryResult}. */
  private async collect(ex: Execution): Promise<QueryResult> {
    const rows: JsValue[][] = []
    const mem = this.executionMemory.get(ex)?.reservation('the query result (Database.query collects every row; use Database.stream for large results)')
    for await (const b of ex.batches) {
      mem?.grow(rowsBytes(b))
      for (const row of batchRows(ex.types, b)) rows.push(row)
    }
    return { columns: ex.columns, rows, rowCount: ex.affected >= 0 ? ex.affected : rows.length, timestampIndex: ex.timestampIndex, command: ex.command }
  }

  /**
   * Starts one parsed statement (from {@link Database.parse}) and returns its schema before any
   * row: adapters use it to send column descriptions, then stream `batches` with back-pressure.
   * Parameters are JS values for `$1..$n`.
   */
  async execute(stmt: Statement, params: readonly unknown[], options: ExecOptions = {}): Promise<Execution> {
    // PIVOT ... IN (SELECT ...): the values name the columns, so the subqueries run first
    if (hasPivotSubquery(stmt)) stmt = await resolvePivotValues(stmt, async (q) => (await this.collect(await this.execute(q, params, options))).rows)
    const memory = new QueryMemory(this.queryMemoryLimit, this.memoryPool)
    const run = this.running.track(options.signal, { user: (options.session ?? this.defaultSession).principal.name, sql: this.statementTexts.get(stmt) ?? '', memory })
    try {
      this.checkOpen()
      const ex = await this.statements.start(stmt, params, { ...options, signal: run.signal }, memory)
      if (ex.batches === EMPTY) { memory.releaseAll(); run.done(); return ex }
      const out = { columns: ex.columns, types: ex.types, timestampIndex: ex.timestampIndex, command: ex.command, affected: ex.affected, batches: this.running.tracked(releasing(presentIntervals(ex.batches, ex.types), memory), run) }
      this.executionMemory.set(out, memory)
      return out
    } catch (e) {
      memory.releaseAll()
      run.done()
      throw this.running.shutdownError(asSqlError(e))
    }
  }

}

/** Options of {@link Database.close}. */
export interface CloseOptions {
  /** cancel the statements still running (they fail with 57P01) and wait for them to end */
  readonly cancel?: boolean
  /** with `cancel`: the longest wait for them, in ms (default 5000) */
  readonly timeout?: number
}

/** A statement parsed once and run many times. */
export class PreparedStatement {
  /** @internal */
  constructor(private readonly db: Database, readonly statement: Statement) {}

  /**
   * The statement's facts ({@link Database.statementInfo}): parameter types, result columns,
   * command tag, whether it writes, the permissions it needs; current for the schema as it is.
   *
   * @example
   * ```ts
   * const ps = db.prepare('insert into t (ts, v) values ($1, $2)')
   * ps.info.params       // ['TIMESTAMP', 'DOUBLE']
   * ps.info.writes       // true
   * ps.info.permissions  // [{ permission: 'INSERT', table: 't' }]
   * ```
   */
  get info(): StatementInfo {
    return this.db.statementInfo(this.statement)
  }

  /** Runs the statement with `params` for `$1..$n`. */
  async query(params: readonly unknown[] = [], options: ExecOptions = {}): Promise<QueryResult> {
    const ex = await this.db.execute(this.statement, params, options)
    const rows: JsValue[][] = []
    for await (const b of ex.batches) for (const row of batchRows(ex.types, b)) rows.push(row)
    return { columns: ex.columns, rows, rowCount: ex.affected >= 0 ? ex.affected : rows.length, timestampIndex: ex.timestampIndex, command: ex.command }
  }

  /** Runs the statement and streams its result. */
  async *stream(params: readonly unknown[] = [], options: ExecOptions = {}): AsyncGenerator<ResultBatch> {
    const ex = await this.db.execute(this.statement, params, options)
    for await (const b of ex.batches) yield resultBatch(ex, b)
  }
}

/** Estimated bytes of a batch as rows of JS values: an array per row, a slot and a boxed value per cell, the strings. */
function rowsBytes(b: Batch): number {
  let strings = 0
  for (const v of b.vectors) if (v.kind === 'str' || v.kind === 'bin') strings += batchBytes({ length: b.length, vectors: [v] })
  return b.length * (32 + 24 * b.vectors.length) + strings
}
