/**
 * CREATE [OR REPLACE] VIEW, ALTER VIEW, DROP VIEW (QuestDB 9). A view is its query's text in the
 * catalog, sharing the tables' namespace; its query is checked when it is created (it must bind,
 * and may not read the view itself, directly or through other views), and the views are
 * persisted as a whole in the data directory's `_views` file (storage/views-file.ts), replaced
 * atomically, one DDL statement at a time.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { CompileView, CreateView, DropView } from '../../sql/ast.js'
import { bindQuery, type BindContext } from '../../plan/bind-query.js'
import { checkTableName } from '../../storage/names.js'
import { VIEWS_FILE, encodeViews } from '../../storage/views-file.js'
import { type Execution, done } from '../../result.js'
import type { ViewDef } from '../../storage/catalog.js'
import { atViewRef, viewQuery } from '../../plan/bind-view.js'
import type { PlanNode } from '../../plan/plan-node.js'
import type { Catalog, ViewStatus } from '../../storage/catalog.js'
import type { RunEnv } from './run.js'
import type { ColumnType } from '../../types/column-type.js'

/** CREATE [OR REPLACE] VIEW [IF NOT EXISTS] / ALTER VIEW. */
export async function createView(stmt: CreateView, bc: BindContext, env: RunEnv, now: number): Promise<Execution> {
  const tag = stmt.alter ? 'alter_view' : 'create_view'
  const { catalog } = env
  checkTableName(stmt.name, stmt.namePos, catalog.maxNameLength)
  const old = catalog.findView(stmt.name)
  if (stmt.alter && old === undefined) throw viewMissing(stmt.name, stmt.namePos, catalog.find(stmt.name) !== undefined)
  if (!stmt.alter && old !== undefined) {
    if (stmt.ifNotExists) return done(tag)
    if (!stmt.orReplace) throw new SqlError(SqlState.DUPLICATE_TABLE, `view already exists [view=${old.name}]`, stmt.namePos)
  }
  if (catalog.find(stmt.name) !== undefined) {
    if (stmt.ifNotExists) return done(tag)
    throw new SqlError(SqlState.DUPLICATE_TABLE, `table already exists [table=${stmt.name}]`, stmt.namePos)
  }
  // the query must bind now, with the view on the path so that reading itself is a cycle
  bindQuery(stmt.query, { ...bc, viewPath: [old?.name ?? stmt.name] })
  await persistViews(env, () => {
    const v = catalog.putView(stmt.name, stmt.sql, stmt.namePos)
    catalog.viewStatus.set(v.name.toLowerCase(), { valid: true, reason: '', since: now })
  })
  return done(tag)
}

/** DROP VIEW [IF EXISTS]. */
export async function dropView(stmt: DropView, env: RunEnv): Promise<Execution> {
  const { catalog } = env
  const v = catalog.findView(stmt.name)
  if (v === undefined) {
    const isTable = catalog.find(stmt.name) !== undefined
    if (stmt.ifExists && !isTable) return done('drop_view')
    throw viewMissing(stmt.name, stmt.namePos, isTable)
  }
  await persistViews(env, () => { catalog.dropView(v.name) })
  return done('drop_view')
}

/**
 * COMPILE VIEW v (QuestDB 9): binds the view's query now and records the outcome in its status
 * (`views()`); a query that no longer binds is answered with its error, at the view's name. Views
 * over this one need nothing: their status is worked out whenever it is read.
 */
export function compileView(stmt: CompileView, bc: BindContext, env: RunEnv, now: number): Execution {
  const { catalog } = env
  const v = catalog.findView(stmt.name)
  if (v === undefined) {
    // QuestDB's parser: a table is `view expected, got table`, anything else does not exist
    if (catalog.find(stmt.name) !== undefined) throw new SqlError(SqlState.WRONG_OBJECT_TYPE, 'view expected, got table', stmt.namePos)
    throw new SqlError(SqlState.UNDEFINED_TABLE, `view does not exist [view=${stmt.name}]`, stmt.namePos)
  }
  const key = v.name.toLowerCase()
  let failure: unknown
  try {
    bindQuery(viewQuery(v, { kind: 'table', pos: stmt.namePos, name: v.name }), { ...bc, viewPath: [v.name] })
  } catch (e) {
    if (!(e instanceof SqlError)) throw e
    failure = e
  }
  noteViewStatus(catalog, key, failure instanceof SqlError ? failure.message : undefined, now)
  if (failure !== undefined) throw atViewRef(failure, stmt.namePos)
  return done('compile_view')
}

/**
 * Records what checking view `key` (lower-cased name) found: valid when `reason` is undefined, else
 * invalid for `reason`. The status's `since` (micros) moves only when the status changes. Returns the
 * status in force.
 */
export function noteViewStatus(catalog: Catalog, key: string, reason: string | undefined, now: number): ViewStatus {
  const before = catalog.viewStatus.get(key)
  if (before !== undefined && before.valid === (reason === undefined) && before.reason === (reason ?? '')) return before
  const st = { valid: reason === undefined, reason: reason ?? '', since: now }
  catalog.viewStatus.set(key, st)
  return st
}

function viewMissing(name: string, pos: number, isTable: boolean): SqlError {
  return isTable
    ? new SqlError(SqlState.WRONG_OBJECT_TYPE, `view name expected, got table name [table=${name}]`, pos)
    : new SqlError(SqlState.UNDEFINED_TABLE, `view does not exist [view=${name}]`, pos)
}

/**
 * Changes the views (`change`, in memory) and writes the `_views` file; when the write fails the
 * catalog is put back, so what a restart sees is what the answer said. One DDL statement at a time
 * on a data directory.
 */
async function persistViews(env: RunEnv, change: () => void): Promise<void> {
  const run = (): void => {
    const undo = env.catalog.savepoint()
    try {
      change()
      env.store?.writeInternal(VIEWS_FILE, encodeViews(env.catalog.allViews()))
    } catch (e) {
      undo()
      throw e
    } finally {
      // plans of statements that read the view (or the name) are not reused
      env.schemaChanged?.()
    }
  }
  const store = env.store
  if (store === undefined) { run(); return }
  await store.oneDdlAtATime(async () => { run() })
}

/** 42809 `cannot modify view [view=v]` (QuestDB's message) when `name` is a view: INSERT, UPDATE, ALTER, TRUNCATE, RENAME, COPY into it. */
export function refuseView(env: Pick<RunEnv, 'catalog'>, name: string, pos: number): void {
  const v = env.catalog.findView(name)
  if (v !== undefined) throw new SqlError(SqlState.WRONG_OBJECT_TYPE, `cannot modify view [view=${v.name}]`, pos)
}

/** Why view `v` does not bind now (its error's message), or undefined when it is valid. */
export function viewProblem(v: ViewDef, bc: BindContext): string | undefined {
  return checkView(v, bc).reason
}

/**
 * View `v` checked now: why its query does not bind (undefined when it does) and, when it binds,
 * its output columns and its designated timestamp's name (undefined when the output has none).
 */
export function checkView(v: ViewDef, bc: BindContext): { readonly reason: string | undefined; readonly code?: string; readonly timestamp: string | undefined; readonly columns: readonly { readonly name: string; readonly type: ColumnType }[] | undefined } {
  try {
    const plan = bindQuery(viewQuery(v, { kind: 'table', pos: 0, name: v.name }), { ...bc, viewPath: [v.name] })
    return { reason: undefined, timestamp: plan.output[plan.timestampIndex]?.name, columns: plan.output.map((c) => ({ name: c.name, type: c.type })) }
  } catch (e) {
    if (e instanceof SqlError) return { reason: e.message, code: e.code, timestamp: undefined, columns: undefined }
    throw e
  }
}

/** The bound query of view `name` (its output columns), or undefined when there is no such view; the view's error at `pos` when it is invalid. */
export function bindViewOutput(name: string, pos: number, bc: BindContext, catalog: Catalog): PlanNode | undefined {
  const v = catalog.findView(name)
  if (v === undefined) return undefined
  try {
    return bindQuery(viewQuery(v, { kind: 'table', pos, name: v.name }), { ...bc, viewPath: [v.name] })
  } catch (e) {
    throw atViewRef(e, pos)
  }
}
