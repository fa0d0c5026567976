/**
 * The statement module behind the `Database` facade: binding a parsed statement (parameter
 * values and their types), caching what it binds to per schema version (parameter types, query
 * plans), the access check, the locks DDL takes, and running it (`exec/statements/run.ts`).
 */
import { SqlError, SqlState } from './errors.js'
import type { Statement } from './sql/ast.js'
import type { ColumnType } from './types/column-type.js'
import type { Scalar } from './types/vector.js'
import { fromJsValue } from './types/js-value.js'
import type { Catalog } from './storage/catalog.js'
import type { DurableStore } from './storage/durable/store.js'
import { mayAppend, waitForWrites } from './storage/durable/commit-wait.js'
import type { Table } from './storage/table.js'
import { bindQuery, type BindContext } from './plan/bind-query.js'
import type { OutputNaming } from './plan/naming.js'
import type { PlanNode } from './plan/plan-node.js'
import type { CatalogView } from './functions/registry-types.js'
import { ExecContext } from './exec/context.js'
import { optimize } from './plan/optimize/index.js'
import { findSubqueries } from './exec/subqueries.js'
import { evalConstant } from './exec/evaluate.js'
import { expandArrayParams } from './plan/array-params.js'
import { describe } from './exec/statements/describe.js'
import { visibleCatalog } from './exec/statements/meta.js'
import { type PlannedQuery, runStatement } from './exec/statements/run.js'
import type { Principal, Session } from './session.js'
import type { AccessControl } from './security/acl/access-control.js'
import { type TableIntent, beginTableChange, settleTableChange } from './security/acl/table-changes.js'
import type { IdentityCaches } from './security/identity-caches.js'
import type { RunningStatements } from './running.js'
import { requiredPermissions } from './exec/statements/permissions.js'
import type { StatementInfo } from './statement-info.js'
import { type Binder, LazyStatementInfo } from './exec/statements/info.js'
import { STATEMENT_TIMEOUT, parseStatementTimeout } from './exec/statement-timeout.js'
import type { Rnd } from './functions/rnd/rnd.js'
import type { QueryMemory } from './exec/memory.js'
import { type ExecOptions, type Execution, infoOf } from './result.js'
import { DoubleArray, arrayFromNested } from './types/array.js'
import { MatViewRefresher } from './exec/mat-view-refresh.js'
import { physical } from './exec/statements/physical.js'
import { collectAll } from './exec/statements/dml.js'
import { arrayType } from './types/array-type.js'
import type { ParquetFiles } from './parquet/files.js'

/** What a parsed statement binds to under one schema version. */
/** A principal's catalog view and table filter (access control on). */
interface Visibility {
  readonly canSee: (table: string) => boolean
  readonly view: CatalogView
}

interface StatementCache {
  readonly version: number
  /** the types inferred for its text parameters, per signature of the declared ones */
  readonly paramTypes: Map<string | number, ColumnType[]>
  /** its plan, for a query without parameters */
  plan: PlannedQuery | undefined
  /** its facts (parameters, result, tag, permissions) */
  info: StatementInfo | undefined
}

function planned(plan: PlanNode): PlannedQuery {
  return { plan, columns: infoOf(plan.output), types: plan.output.map((c) => c.type), subqueries: findSubqueries(plan) }
}

/** Statements that may change a table's shape (they invalidate cached parameter types and plans). */
const DDL_KINDS: ReadonlySet<Statement['kind']> = new Set<Statement['kind']>(['create_table', 'create_table_like', 'create_table_as', 'drop_table', 'truncate_table', 'rename_table', 'alter_table', 'create_view', 'drop_view', 'mat_view'])

/** What the statement module needs of its database. */
export interface StatementsEnv {
  readonly catalog: Catalog
  /** the engine's version, as `version()` reports it */
  readonly version: string
  /** the clock, in microseconds since the epoch */
  readonly clock: () => number
  /** the same clock in nanoseconds (`now_ns()`, `systimestamp_ns()`); absent: the microseconds widened */
  readonly clockNs?: () => bigint
  /** what meta functions see of the catalog */
  readonly catalogView: CatalogView
  /** makes a statement's random generator when it first draws */
  readonly rndFactory: () => Rnd
  /** the session of calls that name none */
  readonly defaultSession: Session
  /** the database's statement timeout (ms, 0 = none) */
  readonly queryTimeout: number
  /** the longest timeout a caller may ask for (ms); 0: no ceiling */
  readonly maxQueryTimeout: number
  readonly acl: AccessControl
  /** caches of external identities, emptied by `flush_identity_cache()` */
  readonly identityCaches: IdentityCaches
  /** Parquet files: read_parquet() and COPY ... TO under their roots */
  readonly files: ParquetFiles
  /** how unaliased result columns are named (`cairo.sql.column.alias.expression.enabled`) */
  readonly naming?: OutputNaming
  /** empties the database's cache of parsed statements (`flush_query_cache()`) */
  readonly flushQueryCache?: () => void
  /** the database's running statements (`query_activity()`, `CANCEL QUERY`) */
  readonly running?: RunningStatements
}

/** Whether `principal` holds database-level `permission` (no error). */
function holds(acl: AccessControl, principal: Principal, permission: string): boolean {
  try {
    acl.authorize(principal, [{ permission }])
    return true
  } catch {
    return false
  }
}

/** Binds, caches and runs the statements of one database. */
export class Statements {
  /** the data directory's store, once the database is open on one */
  store: DurableStore | undefined
  /** bumped after every statement that may change a table's shape; invalidates the cached parameter types and plans */
  private schemaVersion = 0
  /** what a parsed statement binds to, kept until the schema changes (see {@link Statements.cacheOf}) */
  private readonly statementCache = new WeakMap<Statement, StatementCache>()
  private readonly catalog: Catalog
  /** refreshes the materialized views, running their queries as the built-in admin */
  readonly refresher: MatViewRefresher

  constructor(private readonly env: StatementsEnv) {
    this.catalog = env.catalog
    this.refresher = new MatViewRefresher(env.catalog, () => this.store, async (q) => {
      const ctx = this.neutralContext()
      ctx.physical = (p) => physical(p, ctx)
      const bc: BindContext = { catalog: this.catalog, paramTypes: [], ctes: new Map(), fn: ctx, constant: (e) => evalConstant(e, ctx), params: [], naming: this.env.naming }
      return collectAll(physical(optimize(bindQuery(q, bc)), ctx), ctx)
    }, env.clock)
  }

  /**
   * A statement context for `principal`'s statement with parameter `values`. With access control
   * on, its catalog view (tables(), table_columns(), pg_catalog) shows only the tables the
   * principal may see.
   */
  private context(principal: Principal, values: Scalar[], options: ExecOptions): ExecContext {
    const { clock, catalogView, version, rndFactory, acl, identityCaches } = this.env
    const view = acl.enabled ? this.visibility(principal).view : catalogView
    const start = startOf(this.env.clockNs, clock)
    const ctx = new ExecContext(start.micros, clock, principal.name, view, version, values, options.signal, rndFactory)
    ctx.nowSub = start.sub
    if (this.env.clockNs !== undefined) ctx.clockNs = this.env.clockNs
    // flush_identity_cache(): cutting users off needs the permission to disable them
    ctx.flushIdentities = (subject) => {
      if (acl.enabled) acl.authorize(principal, [{ permission: 'DISABLE USER' }])
      return identityCaches.flush(subject)
    }
    ctx.parquet = this.env.files
    // flush_query_cache() needs SYSTEM ADMIN, as in QuestDB Enterprise
    const flush = this.env.flushQueryCache
    if (flush !== undefined) ctx.flushQueryCache = () => { acl.authorize(principal, [{ permission: 'SYSTEM ADMIN' }]); flush(); return true }
    const running = this.env.running
    if (running !== undefined) {
      // QuestDB Enterprise: SQL ENGINE ADMIN lists and cancels every user's statements; without
      // it a user sees and cancels only their own
      const admin = (): boolean => !acl.enabled || holds(acl, principal, 'SQL ENGINE ADMIN')
      ctx.queryActivity = () => (admin() ? running.activity() : running.activity().filter((q) => q.user === principal.name))
      ctx.cancelQuery = (id) => {
        const q = running.activity().find((x) => x.id === id)
        if (q === undefined) return false
        if (q.user !== principal.name) acl.authorize(principal, [{ permission: 'SQL ENGINE ADMIN' }])
        return running.cancel(id)
      }
    }
    return ctx
  }

  /**
   * Sets `ctx`'s timeout, counted from `options.receivedAt` when given (else from now); a timeout
   * above the ceiling (or none) is lowered to it.
   */
  private setDeadline(ctx: ExecContext, session: Session, options: ExecOptions): void {
    let timeout = options.timeout ?? sessionTimeout(session) ?? this.env.queryTimeout
    const max = this.env.maxQueryTimeout
    if (max > 0 && !(timeout > 0 && timeout <= max)) timeout = max
    ctx.setTimeout(timeout)
    if (options.receivedAt !== undefined && Number.isFinite(ctx.deadline)) ctx.deadline = options.receivedAt + timeout
  }

  /**
   * A context that paces a long parse of `session`'s statement: it yields to the event loop as
   * execution does and fails with 57014 when `options.signal` is cancelled or the statement's
   * timeout passes.
   */
  pacer(session: Session, options: ExecOptions): ExecContext {
    const ctx = this.context(session.principal, [], options)
    this.setDeadline(ctx, session, options)
    return ctx
  }

  /**
   * The facts of a parsed statement (see {@link StatementInfo}), worked out once per schema
   * version. Never throws for a statement that does not bind: its parameters are then STRING,
   * its columns undefined, its permissions those its text names.
   */
  info(stmt: Statement): StatementInfo {
    const entry = this.cacheOf(stmt)
    return (entry.info ??= new LazyStatementInfo(stmt, this.binder))
  }

  /**
   * What `principal` may see, made once per principal object (a connection's or a cached OIDC
   * identity's) rather than per statement: `canSee` reads the current grants at each call, so a
   * GRANT or REVOKE still applies to the next statement.
   */
  private visibility(principal: Principal): Visibility {
    let v = this.visible.get(principal)
    if (v === undefined) {
      const { acl, catalogView } = this.env
      const canSee = (t: string): boolean => acl.canSee(principal, t)
      v = { canSee, view: visibleCatalog(catalogView, canSee) }
      this.visible.set(principal, v)
    }
    return v
  }

  private readonly visible = new WeakMap<Principal, Visibility>()

  /** How {@link Statements.info} binds, in a neutral context (the admin's, no parameter values). */
  private readonly binder: Binder = {
    params: (stmt, count) => this.inferParamTypes(stmt, new Array<undefined>(count).fill(undefined), this.neutralContext()),
    columns: (stmt) => this.describe(stmt, []).columns,
    permissions: (stmt) => requiredPermissions(stmt, this.catalog, this.neutralContext()),
  }

  private neutralContext(): ExecContext {
    return this.context(this.env.defaultSession.principal, [], {})
  }

  /**
   * Describes a statement without running it: the type each `$n` takes (given ones kept,
   * undefined ones inferred from their use, STRING otherwise), for queries the result columns,
   * and the rest of its {@link StatementInfo}. Throws the statement's error when it does not bind.
   */
  describe(stmt: Statement, paramTypes: readonly (ColumnType | undefined)[]): StatementInfo {
    const fn = this.neutralContext()
    const d = describe(stmt, { catalog: this.catalog, paramTypes, ctes: new Map(), fn, constant: (e) => evalConstant(e, fn), naming: this.env.naming })
    const info = this.info(stmt)
    return {
      params: d.params, columns: d.columns === undefined ? undefined : infoOf(d.columns),
      returnsRows: info.returnsRows, commandTag: info.commandTag, writes: info.writes,
      get permissions() { return info.permissions },
    }
  }

  /**
   * Starts a statement: commits the writes before it when it may read them, binds and runs it,
   * and (unless `deferSync`) waits for its own writes to be durable.
   */
  async start(stmt: Statement, params: readonly unknown[], options: ExecOptions, memory: QueryMemory): Promise<Execution> {
    // before any work: the principal must hold what the statement needs (worked out once per statement and schema version)
    const { acl } = this.env
    if (acl.enabled) acl.authorize((options.session ?? this.env.defaultSession).principal, this.info(stmt).permissions)
    const store = this.store
    const session = options.session ?? this.env.defaultSession
    // a failed sync is the business of the writes' owners
    if (store?.uncommitted === true) await waitForWrites(store, stmt, this.deferred.get(session))?.catch(() => undefined)
    const before = store?.arrivals ?? 0
    const ex = await this.bindAndRun(stmt, params, options, memory)
    // a statement that appended (INSERT, COMMIT of a transaction) waits for its writes; a query does not wait for others'
    if (store?.uncommitted === true && store.arrivals > before && mayAppend(stmt)) {
      if (options.deferSync !== true) await store.commit()
      // not acknowledged yet: this session's next statements must see them (read your writes)
      else this.deferred.set(session, store.arrivals)
    }
    return ex
  }

  /** Per session, the last write it made with `deferSync` (an arrival number of the store's group commit, see {@link waitForWrites}). */
  private readonly deferred = new WeakMap<Session, number>()

  /** The arrival number of `session`'s last deferred write (see `DurableStore.commit`), if it made one. */
  deferredOf(session: Session): number | undefined {
    return this.deferred.get(session)
  }

  private async bindAndRun(stmt: Statement, params: readonly unknown[], options: ExecOptions, memory: QueryMemory): Promise<Execution> {
    ({ stmt, params } = expandArrayParams(stmt, params))
    const session = options.session ?? this.env.defaultSession
    // text parameters (pgwire sends them as strings) take the type their use asks for
    const values: Scalar[] = []
    const ctx = this.context(session.principal, values, options)
    ctx.memory = memory
    this.setDeadline(ctx, session, options)
    const typed = options.paramTypes
    const declared = params.map((p, i) => typed?.[i] ?? (typeof p === 'string' ? undefined : paramType(p)))
    const paramTypes: ColumnType[] = declared.some((t) => t === undefined) ? this.inferParamTypes(stmt, declared, ctx) : (declared as ColumnType[])
    params.forEach((p, i) => { values.push(fromJsValue(paramTypes[i] ?? 'STRING', p)) })
    const bc: BindContext = { catalog: this.catalog, paramTypes, ctes: new Map(), fn: ctx, constant: (e) => evalConstant(e, ctx), params: values, naming: this.env.naming }
    const { acl } = this.env
    const runEnv = { catalog: this.catalog, store: this.store, planOf: this.planOf, acl, files: this.env.files.roots, schemaChanged: () => { this.schemaVersion++ }, refresher: this.refresher, ...(acl.enabled ? { canSee: this.visibility(session.principal).canSee } : {}) }
    if (!DDL_KINDS.has(stmt.kind)) return runStatement(stmt, session, ctx, bc, runEnv)
    if (session.inTransaction) this.checkNoBufferedRows(stmt, session)
    // alone on the tables it changes: no INSERT or UPDATE of them is half done
    const releases = await lockAlone(this.ddlTargets(stmt))
    // appends staged after start()'s drain (while it awaited the sync) commit now, with nothing in
    // between, in the shape they were made for; a failed sync is their owners' to report
    try { this.store?.commitSync() } catch { /* reported to the writes' commits */ }
    // owner grants, grants following RENAME, CASCADE PERMISSIONS: saved as an intent first, settled after
    let intent: TableIntent | undefined
    let ok = false
    try {
      intent = beginTableChange(acl, stmt, session.principal)
      const ex = await runStatement(stmt, session, ctx, bc, runEnv)
      ok = true
      return ex
    } finally {
      try { if (intent !== undefined) settleTableChange(acl, intent) } catch (e) { if (ok) throw e }
      for (const r of releases) r()
      this.schemaVersion++
    }
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
      types = describe(stmt, { catalog: this.catalog, paramTypes: declared, ctes: new Map(), fn: ctx, constant: (e) => evalConstant(e, ctx), naming: this.env.naming }).params
      if (byKey.size >= 16) byKey.clear()
      byKey.set(key, types)
    }
    return types
  }

  /** The cache entry of a parsed statement, emptied when the schema version moved on. */
  private cacheOf(stmt: Statement): StatementCache {
    let entry = this.statementCache.get(stmt)
    if (entry === undefined || entry.version !== this.schemaVersion) this.statementCache.set(stmt, entry = { version: this.schemaVersion, paramTypes: new Map(), plan: undefined, info: undefined })
    return entry
  }

  /**
   * The optimized plan of a query. A query without parameters is planned once per schema
   * version and the plan reused (plans hold no per-execution state: snapshots, subquery values
   * and `now()` are taken when they run); one with parameters is planned for its values, which
   * table-function arguments may depend on.
   */
  private readonly planOf = (stmt: Extract<Statement, { kind: 'select' | 'setop' | 'with' }>, bc: BindContext): PlannedQuery => {
    if (bc.paramTypes.length > 0) return planned(optimize(bindQuery(stmt, bc)))
    const entry = this.cacheOf(stmt)
    return (entry.plan ??= planned(optimize(bindQuery(stmt, bc))))
  }
}

/** Takes the write locks of `tables` alone, in table-id order (so that two statements never wait for each other). */
async function lockAlone(tables: readonly Table[]): Promise<(() => void)[]> {
  const releases: (() => void)[] = []
  for (const t of [...new Set(tables)].sort((a, b) => a.meta.id - b.meta.id)) releases.push(await t.writers.exclusive())
  return releases
}

/** The session's `SET statement_timeout`, in milliseconds (0 = none), or undefined when it set none. */
function sessionTimeout(session: Session): number | undefined {
  const v = session.settings.get(STATEMENT_TIMEOUT)
  return v === undefined ? undefined : parseStatementTimeout(v)
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
      if (Array.isArray(v) || v instanceof Float64Array || v instanceof DoubleArray) { const a = arrayFromNested(v); if (a !== undefined) return arrayType(a.dims) }
      return 'NULL'
  }
}

/** A statement's start time: whole microseconds (`now()`) and the nanoseconds past them (`now_ns()`). */
function startOf(clockNs: (() => bigint) | undefined, clock: () => number): { micros: number; sub: number } {
  if (clockNs === undefined) return { micros: clock(), sub: 0 }
  const ns = clockNs()
  let q = ns / 1000n
  if (q * 1000n > ns) q -= 1n
  return { micros: Number(q), sub: Number(ns - q * 1000n) }
}
