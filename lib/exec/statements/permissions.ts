/**
 * The permissions a statement needs, with QuestDB Enterprise's names, derived from the statement
 * and its bound plan (the binder knows which columns of which table every name means):
 *
 * - a query: `SELECT` on every table it reads, listing the columns read (`select *` lists every
 *   column; joins, subqueries, CTEs, set operations and time-series clauses included). A table
 *   read for none of its columns (`count(*)`) lists none: `columns: []` means SELECT on any one
 *   column will do, as QuestDB's `authorizeSelectOnAnyColumn`.
 * - `INSERT` on the table (INSERT is granted per table, so without a column list); INSERT ...
 *   SELECT also needs the query's SELECTs.
 * - `UPDATE` on the table with the columns set, and `SELECT` of the columns the SET values and
 *   WHERE read (of the target and of the FROM / JOIN tables).
 * - `CREATE TABLE`; CREATE TABLE AS also needs its query's SELECTs; CREATE TABLE LIKE t, SELECT on
 *   any column of t. `DROP TABLE` / `TRUNCATE TABLE` per table (DROP ALL TABLES: every table that
 *   exists), `RENAME TABLE`, and the ALTER TABLE family by action: `ADD COLUMN`, `DROP COLUMN`,
 *   `RENAME COLUMN`, `ALTER COLUMN TYPE`, `ADD INDEX`, `DROP INDEX`, `ALTER COLUMN CACHE` (these
 *   with their columns), `DROP PARTITION`, `DEDUP ENABLE` / `DEDUP DISABLE`, `SET TABLE PARAM`
 *   (also SET TTL), `SET TABLE TYPE`.
 * - EXPLAIN: what the explained statement needs.
 * - Metadata (SHOW TABLES / COLUMNS / PARTITIONS / CREATE TABLE, `tables()`, `table_columns(t)`,
 *   `table_partitions(t)`, pg_catalog): no permission; a table the principal may not see
 *   (`AccessControl.canSee`) is filtered out of listings and answers as not existing.
 * - SET, BEGIN / COMMIT / ROLLBACK, SHOW of session parameters: none. Unsupported statements:
 *   none (they fail with 0A000 anyway).
 * - Access-control statements: {@link aclStatementPermissions}.
 *
 * A statement that does not bind (an unknown column, a type error) gets the coarser permissions
 * its text names — SELECT on every table it mentions, all columns — so that its error is only
 * reported to a principal that may read those tables.
 */
import type { Statement } from '../../sql/ast.js'
import type { Catalog } from '../../storage/catalog.js'
import type { Table } from '../../storage/table.js'
import type { FunctionContext } from '../../functions/registry-types.js'
import type { RequiredPermission } from '../../statement-info.js'
import { bindQuery, type BindContext } from '../../plan/bind-query.js'
import { type TablesRead, tablesRead } from '../../plan/tables-read.js'
import { aclStatementPermissions } from '../../security/acl/statement-permissions.js'
import { ExecContext } from '../context.js'
import { evalConstant } from '../evaluate.js'
import { catalogView } from './meta.js'
import { targetColumns } from './dml.js'
import { SqlError } from '../../errors.js'

/**
 * What `stmt` requires of the principal that runs it. `fn` is the function context table
 * functions bind in (a neutral one when absent).
 */
export function requiredPermissions(stmt: Statement, catalog: Catalog, fn?: FunctionContext): RequiredPermission[] {
  const context = fn ?? neutralContext(catalog)
  // the binder's function context is the statement's ExecContext (lib/statements.ts)
  const bc: BindContext = { catalog, paramTypes: [], ctes: new Map(), fn: context, constant: (e) => evalConstant(e, context as ExecContext) }
  try {
    return dedupe(permissionsOf(stmt, bc))
  } catch (e) {
    if (!(e instanceof SqlError)) throw e
    return dedupe(coarsePermissions(stmt, catalog))
  }
}

function neutralContext(catalog: Catalog): FunctionContext {
  return new ExecContext(0, () => 0, '', catalogView(catalog), '', [], undefined, undefined)
}

function permissionsOf(stmt: Statement, bc: BindContext): RequiredPermission[] {
  const { catalog } = bc
  switch (stmt.kind) {
    case 'select': case 'setop': case 'with': return queryPermissions(stmt, bc)
    case 'explain': return permissionsOf(stmt.statement, bc)
    case 'copy_to': return queryPermissions(stmt.query, bc)
    case 'insert': {
      const table = catalog.get(stmt.table, stmt.tablePos)
      targetColumns(table, stmt) // an unknown or repeated column fails here (the coarse permissions then apply)
      // INSERT is granted per table (QuestDB: database or table level): no column list
      const ins: RequiredPermission = { permission: 'INSERT', table: table.meta.name }
      if (stmt.source.kind === 'values') {
        // VALUES rows are constants unless one holds a subquery: bind only then
        if (!mentionsQuery(stmt.source.rows)) return [ins]
        return [ins, ...queryPermissions({ kind: 'select', pos: stmt.pos, distinct: false, columns: stmt.source.rows.flat().map((expr) => ({ expr })), joins: [] }, bc)]
      }
      const query = stmt.ctes === undefined ? stmt.source.query : { kind: 'with' as const, pos: stmt.pos, ctes: stmt.ctes, body: stmt.source.query }
      return [ins, ...queryPermissions(query, bc)]
    }
    case 'update': {
      const table = catalog.get(stmt.table, stmt.tablePos)
      const set = stmt.set.map((a) => table.meta.columns.find((c) => c.name.toLowerCase() === a.column.toLowerCase())?.name ?? a.column)
      // what the SET values and WHERE read, as the SELECT that UPDATE runs
      const reads = queryPermissions({
        kind: 'select', pos: stmt.pos, distinct: false,
        columns: stmt.set.map((a) => ({ expr: a.value })),
        from: { kind: 'table', pos: stmt.tablePos, name: stmt.table, ...(stmt.alias === undefined ? {} : { alias: stmt.alias }) },
        joins: [...(stmt.from === undefined ? [] : [{ pos: stmt.from.pos, type: 'cross' as const, table: stmt.from }]), ...stmt.joins],
        ...(stmt.where === undefined ? {} : { where: stmt.where }),
      }, bc)
      return [{ permission: 'UPDATE', table: table.meta.name, columns: set }, ...reads]
    }
    case 'create_table': return [{ permission: 'CREATE TABLE' }]
    case 'create_table_as': return [{ permission: 'CREATE TABLE' }, ...queryPermissions(stmt.query, bc)]
    case 'create_table_like': {
      const like = catalog.find(stmt.like)
      return [{ permission: 'CREATE TABLE' }, ...(like === undefined ? [] : [{ permission: 'SELECT', table: like.meta.name, columns: [] }])]
    }
    case 'drop_table': {
      const names = stmt.all ? catalog.names() : stmt.names.map((n) => catalog.find(n.name)?.meta.name ?? n.name)
      return names.map((table) => ({ permission: 'DROP TABLE', table }))
    }
    case 'truncate_table': return stmt.names.map((n) => ({ permission: 'TRUNCATE TABLE', table: catalog.find(n.name)?.meta.name ?? n.name }))
    case 'rename_table': return [{ permission: 'RENAME TABLE', table: catalog.find(stmt.from)?.meta.name ?? stmt.from }]
    case 'alter_table': return [alterPermission(stmt, catalog.find(stmt.table))]
    // the query is checked as a SELECT of the creator's (the definer's rights the view keeps)
    case 'create_view': {
      const old = catalog.findView(stmt.name)
      const own: RequiredPermission[] = stmt.alter || (old !== undefined && stmt.orReplace) ? [{ permission: 'ALTER VIEW', table: old?.name ?? stmt.name }] : [{ permission: 'CREATE VIEW' }]
      return [...own, ...queryPermissions(stmt.query, bc)]
    }
    case 'drop_view': return [{ permission: 'DROP VIEW', table: catalog.findView(stmt.name)?.name ?? stmt.name }]
    // checked with the system's rights, not the caller's SELECTs (QuestDB's compile-view page)
    case 'compile_view': return [{ permission: 'COMPILE VIEW', table: catalog.findView(stmt.name)?.name ?? stmt.name }]
    case 'mat_view': {
      const table = catalog.matViews.find(stmt.name)?.name ?? stmt.name
      switch (stmt.op) {
        // the query is checked as a SELECT of the creator's, as CREATE VIEW's
        case 'create': return [{ permission: 'CREATE MATERIALIZED VIEW' }, ...queryPermissions(stmt.query, bc)]
        case 'refresh': return [{ permission: 'REFRESH MATERIALIZED VIEW', table }]
        case 'drop': return [{ permission: 'DROP MATERIALIZED VIEW', table }]
        case 'alter': return [{ permission: stmt.action.kind === 'set_ttl' ? 'SET TABLE PARAM' : 'REFRESH MATERIALIZED VIEW', table }]
      }
    }
    // CANCEL QUERY: SQL ENGINE ADMIN for another user's statement, checked when it runs (it depends on whose it is)
    case 'show': case 'transaction': case 'set': case 'unsupported': case 'cancel_query': return []
    case 'acl': return aclStatementPermissions(stmt)
  }
}

/** What a query statement (the source of INSERT, CREATE TABLE AS, ...) needs. */
function queryPermissions(q: Parameters<typeof bindQuery>[0], bc: BindContext): RequiredPermission[] {
  // a view is read with its definer's rights (QuestDB Enterprise): SELECT on the view, none on what it reads
  const viewsRead = new Set<string>()
  const plan = bindQuery(q, { ...bc, viewsRead })
  return [...selects(tablesRead(plan)), ...[...viewsRead].map((table) => ({ permission: 'SELECT', table }))]
}

function alterPermission(stmt: Extract<Statement, { kind: 'alter_table' }>, t: Table | undefined): RequiredPermission {
  const table = t?.meta.name ?? stmt.table
  const col = (name: string): string => t?.meta.columns.find((c) => c.name.toLowerCase() === name.toLowerCase())?.name ?? name
  const a = stmt.action
  switch (a.kind) {
    case 'add_column': return { permission: 'ADD COLUMN', table }
    case 'drop_column': return { permission: 'DROP COLUMN', table, columns: a.names.map((n) => col(n.name)) }
    case 'rename_column': return { permission: 'RENAME COLUMN', table, columns: [col(a.from)] }
    case 'alter_column_type': return { permission: 'ALTER COLUMN TYPE', table, columns: [col(a.column)] }
    case 'drop_partition': return { permission: 'DROP PARTITION', table }
    case 'dedup': return { permission: a.enable ? 'DEDUP ENABLE' : 'DEDUP DISABLE', table }
    case 'set_ttl': case 'set_param': return { permission: 'SET TABLE PARAM', table }
    case 'set_type_wal': return { permission: 'SET TABLE TYPE', table }
    case 'column_index': return { permission: a.add ? 'ADD INDEX' : 'DROP INDEX', table, columns: [col(a.column)] }
    case 'column_cache': return { permission: 'ALTER COLUMN CACHE', table, columns: [col(a.column)] }
    // no Enterprise name for it: converting a partition's storage format counts as changing the table's type
    case 'convert_partition': return { permission: 'SET TABLE TYPE', table }
  }
}

/** SELECT on each table read, with its columns in table order. */
function selects(read: TablesRead): RequiredPermission[] {
  return [...read].map(([t, cols]) => ({
    permission: 'SELECT', table: t.meta.name,
    columns: [...cols].sort((a, b) => a - b).map((i) => t.meta.columns[i]!.name),
  }))
}

/** One entry per permission and table, columns merged (two reads of one table are one SELECT). */
function dedupe(perms: readonly RequiredPermission[]): RequiredPermission[] {
  const out: RequiredPermission[] = []
  const byKey = new Map<string, number>()
  for (const p of perms) {
    const key = `${p.permission}\u0000${p.table ?? ''}`
    const at = byKey.get(key)
    if (at === undefined) { byKey.set(key, out.length); out.push(p); continue }
    const prev = out[at]!
    // absent columns (the whole table) wins over a list
    if (prev.columns === undefined || p.columns === undefined) { out[at] = { permission: p.permission, ...(p.table === undefined ? {} : { table: p.table }) }; continue }
    const merged = [...new Set([...prev.columns, ...p.columns])]
    out[at] = { ...prev, columns: merged }
  }
  return out
}

/** True when an expression tree holds a subquery (found without recursion). */
function mentionsQuery(node: unknown): boolean {
  const stack: unknown[] = [node]
  while (stack.length > 0) {
    const n = stack.pop()
    if (n === null || typeof n !== 'object') continue
    if (Array.isArray(n)) { for (const x of n) stack.push(x); continue }
    const o = n as Record<string, unknown>
    if (o['kind'] === 'subquery' || o['kind'] === 'exists' || o['kind'] === 'select') return true
    for (const k in o) stack.push(o[k])
  }
  return false
}

/**
 * Permissions from the text alone, for a statement that does not bind: the statement's own
 * permission where its kind names one without binding, and SELECT on the whole of every existing
 * table the text mentions in a FROM or JOIN.
 */
function coarsePermissions(stmt: Statement, catalog: Catalog): RequiredPermission[] {
  const own: RequiredPermission[] = (() => {
    switch (stmt.kind) {
      case 'insert': return [{ permission: 'INSERT', table: catalog.find(stmt.table)?.meta.name ?? stmt.table }]
      case 'update': return [{ permission: 'UPDATE', table: catalog.find(stmt.table)?.meta.name ?? stmt.table }]
      case 'create_table_as': return [{ permission: 'CREATE TABLE' }]
      case 'explain': return coarsePermissions(stmt.statement, catalog)
      default: return []
    }
  })()
  const reads: RequiredPermission[] = []
  const stack: unknown[] = [stmt.kind === 'update' ? { ...stmt, table: undefined } : stmt]
  while (stack.length > 0) {
    const n = stack.pop()
    if (n === null || typeof n !== 'object') continue
    if (Array.isArray(n)) { for (const x of n) stack.push(x); continue }
    const o = n as Record<string, unknown>
    if (o['kind'] === 'table' && typeof o['name'] === 'string') {
      const t = catalog.find(o['name'])
      if (t !== undefined) reads.push({ permission: 'SELECT', table: t.meta.name })
    }
    for (const k in o) stack.push(o[k])
  }
  // UPDATE reads its own table too
  if (stmt.kind === 'update') { const t = catalog.find(stmt.table); if (t !== undefined) reads.push({ permission: 'SELECT', table: t.meta.name }) }
  return [...own, ...reads]
}
