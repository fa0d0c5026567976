/**
 * Running one bound statement: queries start their operators, DDL changes the catalog (and
 * persists it, or puts it back), INSERT and UPDATE take their table's write lock, SHOW and
 * EXPLAIN answer with one batch, transactions and SET change the session.
 */
import { SqlError, SqlState, notSupported } from '../../errors.js'
import type { Statement } from '../../sql/ast.js'
import type { Catalog } from '../../storage/catalog.js'
import type { DurableStore } from '../../storage/durable/store.js'
import type { ColumnMeta, Table } from '../../storage/table.js'
import { bindQuery, type BindContext } from '../../plan/bind-query.js'
import type { BoundExpr, PlanNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import { runPlan } from '../operators/runner.js'
import { optimize } from '../../plan/optimize/index.js'
import { physical, runtimeBoundSubqueries } from './physical.js'
import { computeSubqueries } from '../subqueries.js'
import { alterTable, columnType, createTable, createTableLike, dropTable, renameTable, tableMeta, truncateTable, checkName, isNonPersisted, nonPersisted } from './ddl.js'
import { castVector } from '../../types/cast.js'
import type { ColumnType } from '../../types/column-type.js'
import { collectAll, insert } from './dml.js'
import { update } from './update.js'
import { explain, show } from './meta.js'
import type { Session } from '../../session.js'
import { STATEMENT_TIMEOUT, checkStatementTimeout } from '../statement-timeout.js'
import { type Execution, done, rowsExecution } from '../../result.js'
import type { ColumnInfo } from '../../statement-info.js'
import type { AccessControl } from '../../security/acl/access-control.js'
import { runAcl } from './acl.js'
import { copyTo } from './copy.js'
import { convertPartition } from './convert-partition.js'
import { bindViewOutput, compileView, createView, dropView, refuseView } from './views.js'
import type { FileRoots } from '../../parquet/files.js'
import type { MatViewRefresher } from '../mat-view-refresh.js'
import { afterStatement, refuseMatView, runMatView } from './mat-views.js'
import { tablesRead } from '../../plan/tables-read.js'

/** An optimized query plan with what every execution of it needs, worked out once. */
export interface PlannedQuery {
  readonly plan: PlanNode
  readonly columns: readonly ColumnInfo[]
  readonly types: readonly ColumnType[]
  /** its uncorrelated subqueries, computed before each run */
  readonly subqueries: readonly BoundExpr[]
}

/** What running a statement needs of the database. */
export interface RunEnv {
  readonly catalog: Catalog
  readonly store: DurableStore | undefined
  /** the optimized plan of a query (cached per schema version when it has no parameters) */
  planOf(stmt: Extract<Statement, { kind: 'select' | 'setop' | 'with' }>, bc: BindContext): PlannedQuery
  /** users, groups, grants: runs the access-control statements */
  readonly acl: AccessControl
  /** with access control on: whether the session's principal may see a table (SHOW lists only those) */
  readonly canSee?: (table: string) => boolean
  /** the import and export roots (read_parquet, COPY ... TO) */
  readonly files?: FileRoots
  /**
   * A DDL statement changed the catalog in memory (its files still syncing): plans cached for the
   * schema of before are not used from now on
   */
  readonly schemaChanged?: () => void
  /** refreshes the materialized views (absent: the database has none and can make none) */
  readonly refresher?: MatViewRefresher
}

/** Runs `stmt`, bound in `bc`, in `session`. */
export async function runStatement(stmt: Statement, session: Session, ctx: ExecContext, bc: BindContext, env: RunEnv): Promise<Execution> {
  const ex = await runOne(stmt, session, ctx, bc, env)
  // the materialized views over a table the statement dropped, truncated, renamed or updated become invalid
  if (env.refresher !== undefined) afterStatement(stmt, { ...env, refresher: env.refresher })
  return ex
}

async function runOne(stmt: Statement, session: Session, ctx: ExecContext, bc: BindContext, env: RunEnv): Promise<Execution> {
  ctx.physical = (p) => physical(p, ctx) // for the subqueries the statement computes
  switch (stmt.kind) {
    case 'select': case 'setop': case 'with': {
      const q = env.planOf(stmt, bc)
      // a materialized view read waits for its pending refresh: it shows every commit acknowledged before
      if (env.refresher !== undefined && env.catalog.matViews.size > 0) await env.refresher.settled([...tablesRead(q.plan).keys()].map((t) => t.meta.name))
      if (q.subqueries.length > 0) await computeSubqueries(q.subqueries, ctx)
      return { columns: q.columns, types: q.types, timestampIndex: q.plan.timestampIndex, command: 'select', affected: -1, batches: runPlan(physical(q.plan, ctx), ctx) }
    }
    case 'create_table': return ddlInBackground(env, () => createTable(stmt, env.catalog), done('create_table'))
    case 'create_table_like': return ddlInBackground(env, () => createTableLike(stmt, env.catalog), done('create_table'))
    case 'create_table_as': {
      if (env.catalog.find(stmt.name) !== undefined) {
        if (stmt.ifNotExists) return done('create_table')
        throw new SqlError(SqlState.DUPLICATE_TABLE, `table already exists [table=${stmt.name}]`, stmt.namePos)
      }
      const plan = optimize(bindQuery(stmt.query, bc))
      // a column no table can hold fails before the query runs
      for (const c of plan.output) {
        if (isNonPersisted(c.type) && !stmt.casts.some((x) => x.column.toLowerCase() === c.name.toLowerCase())) throw nonPersisted(c.type, stmt.pos, c.name)
      }
      const data = await collectAll(physical(plan, ctx), ctx)
      const columns: ColumnMeta[] = plan.output.map((c) => {
        checkName(c.name, stmt.pos, 'column', env.catalog.maxNameLength)
        const cast = stmt.casts.find((x) => x.column.toLowerCase() === c.name.toLowerCase())
        return { name: c.name, type: cast === undefined ? c.type : columnType(cast.type, cast.pos), indexed: false, symbolCapacity: 256, symbolCached: true }
      })
      const meta = tableMeta(stmt.name, stmt.namePos, columns, stmt.options, stmt.pos, env.catalog.maxNameLength)
      let t!: Table
      await ddlInBackground(env, () => { t = env.catalog.create(meta, stmt.namePos) }, done('create_table'))
      try {
        // in memory, a large result goes in a slice per turn of the event loop
        await t.appendInTurns(columns.map((c, i) => (data.vectors[i]!.type === c.type ? data.vectors[i]! : castVector(data.vectors[i]!, c.type))), data.length)
        await env.store?.commit()
      } catch (err) {
        // the rows were not committed: the table goes too (if that fails as well, it stays, empty, in the catalog and on disk alike)
        try { await ddlInBackground(env, () => { if (env.catalog.find(stmt.name) === t) env.catalog.drop(stmt.name) }, done('drop_table')) } catch { /* see above */ }
        throw err
      }
      return done('create_table', data.length)
    }
    case 'drop_table':
      for (const n of stmt.names) {
        // QuestDB's message and position (DROP VIEW drops a view)
        if (env.catalog.findView(n.name) !== undefined || env.catalog.matViews.find(n.name) !== undefined) throw new SqlError(SqlState.WRONG_OBJECT_TYPE, 'table name expected, got view or materialized view name', n.pos)
      }
      return ddlInBackground(env, () => dropTable(stmt, env.catalog), done('drop_table'))
    case 'truncate_table':
      for (const n of stmt.names) { refuseView(env, n.name, n.pos); refuseMatView(env, n.name, n.pos) }
      return ddlInBackground(env, () => truncateTable(stmt, env.catalog), done('truncate_table'))
    case 'rename_table':
      refuseView(env, stmt.from, stmt.fromPos)
      refuseMatView(env, stmt.from, stmt.fromPos)
      return ddlInBackground(env, () => renameTable(stmt, env.catalog), done('rename_table'))
    case 'create_view': return createView(stmt, bc, env, ctx.clock())
    case 'drop_view': return dropView(stmt, env)
    case 'compile_view': return compileView(stmt, bc, env, ctx.clock())
    case 'mat_view':
      if (env.refresher === undefined) throw notSupported('materialized views are disabled', stmt.pos)
      return runMatView(stmt, bc, { ...env, refresher: env.refresher }, ctx.clock())
    case 'alter_table':
      refuseView(env, stmt.table, stmt.tablePos)
      refuseMatView(env, stmt.table, stmt.tablePos)
      if (stmt.action.kind === 'convert_partition') return convertPartition(stmt, stmt.action, env.catalog, env.store)
      // ADD COLUMN: the table's rows in memory are written first, so the new column starts after them (a column top)
      return ddlInBackground(env, () => alterTable(stmt, env.catalog), done('alter_table'),
        () => { const t = stmt.action.kind === 'add_column' ? env.catalog.find(stmt.table) : undefined; return t === undefined ? [] : [t] })
    case 'insert': {
      refuseView(env, stmt.table, stmt.tablePos)
      refuseMatView(env, stmt.table, stmt.tablePos)
      const table = env.catalog.get(stmt.table, stmt.tablePos)
      const cteBc = stmt.ctes === undefined ? bc : withCtes(bc, stmt.ctes)
      if (session.inTransaction) return done('insert', await insert(stmt, table, cteBc, ctx, (t, v, n) => { session.pending.add(t, v, n) }))
      // writers share the table's lock; an UPDATE holds it alone
      const release = table.writers.tryShare() ?? await table.writers.share()
      try { return done('insert', await insert(stmt, table, cteBc, ctx)) } finally { release() }
    }
    case 'update': {
      refuseView(env, stmt.table, stmt.tablePos)
      refuseMatView(env, stmt.table, stmt.tablePos)
      const table = env.catalog.get(stmt.table, stmt.tablePos)
      // alone on the table: no append lands between the rows UPDATE reads and the rows it writes
      const release = await table.writers.exclusive()
      try {
        if (env.store?.uncommitted === true) await env.store.commit().catch(() => undefined)
        return done('update', await update(stmt, table, bc, ctx))
      } finally { release() }
    }
    case 'show': return rowsExecution(show(stmt, env.catalog, session, env.canSee, (name) => bindViewOutput(name, stmt.pos, bc, env.catalog)))
    case 'copy_to': return copyTo(stmt, bc, ctx, env.files)
    case 'explain': {
      const inner = stmt.statement
      if (inner.kind !== 'select' && inner.kind !== 'setop' && inner.kind !== 'with') throw notSupported('EXPLAIN supports queries only', stmt.pos)
      // the intervals a runtime bound gives are printed as a run scans them: its subqueries are computed first (as QuestDB does)
      const plan = optimize(bindQuery(inner, bc))
      const bounds = runtimeBoundSubqueries(plan)
      if (bounds.length > 0) await computeSubqueries(bounds, ctx)
      return rowsExecution(explain(physical(plan, ctx)))
    }
    case 'cancel_query': {
      // QuestDB's errors: a negative id, and an id no running statement has
      if (!Number.isSafeInteger(stmt.queryId) || stmt.queryId < 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'non-negative integer literal expected as query id', stmt.idPos)
      if (ctx.cancelQuery?.(stmt.queryId) !== true) throw new SqlError(SqlState.UNDEFINED_OBJECT, `query to cancel not found in registry [id=${stmt.queryId}]`, stmt.idPos)
      return done('cancel_query')
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
    case 'acl': { const r = await runAcl(env.acl, stmt, session); return r === undefined ? done(stmt.action) : rowsExecution(r) }
  }
}

/**
 * Runs a DDL change and persists it (creates, rewrites, drops table directories). When either
 * fails, the catalog is put back as it was and the files are made to match it again, so the
 * answer — an error — is what a restart sees too.
 */
function ddl(env: RunEnv, change: () => void, ex: Execution): Execution {
  const undo = env.catalog.savepoint()
  try {
    change()
    env.store?.sync()
  } catch (e) {
    undo()
    try { env.store?.sync() } catch { /* the files are repaired at the next DDL statement or open */ }
    throw e
  }
  return ex
}

/**
 * {@link ddl} with its file syncs off the main thread (`DurableStore.persistDdl`; `flushFirst`:
 * tables whose rows in memory are written before the change): queries are
 * answered while they run, and see the change (the plans cached before it are dropped at once:
 * {@link RunEnv.schemaChanged}). One DDL statement persists at a time; the caller holds the
 * write locks of the tables it changes alone, so no append or UPDATE lands in them meanwhile.
 * On failure the tables' rows and partitions, and the catalog, are put back as they were, and
 * the files are made to match them again (blocking: a failure is rare).
 */
export async function ddlInBackground(env: RunEnv, change: () => void, ex: Execution, flushFirst: () => readonly Table[] = () => []): Promise<Execution> {
  const store = env.store
  if (store === undefined) return ddl(env, change, ex)
  return store.oneDdlAtATime(async () => {
    const undo = env.catalog.savepoint()
    try {
      await store.persistDdl(() => { change(); env.schemaChanged?.() }, flushFirst())
    } catch (e) {
      undo()
      env.schemaChanged?.()
      try { store.sync() } catch { /* the files are repaired at the next DDL statement or open */ }
      throw e
    }
    return ex
  })
}

function withCtes(bc: BindContext, ctes: NonNullable<Extract<Statement, { kind: 'insert' }>['ctes']>): BindContext {
  const map = new Map(bc.ctes)
  for (const c of ctes) map.set(c.name.toLowerCase(), bindQuery(c.query, { ...bc, ctes: map }))
  return { ...bc, ctes: map }
}

function unsupported(feature: string, pos: number): SqlError {
  switch (feature.toUpperCase()) {
    case 'DELETE': return notSupported('DELETE is not supported; use UPDATE, TRUNCATE or DROP PARTITION', pos)
    case 'DECLARE CURSOR': case 'FETCH': case 'MOVE': case 'CLOSE':
      return notSupported(`${feature} is not supported: cursors are forward-only; read results as a stream`, pos)
    default: return notSupported(`${feature} is not supported`, pos)
  }
}
