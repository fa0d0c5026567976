/**
 * Whether a principal's grants (its own list and its groups' lists) hold a required permission,
 * and what to name when they do not. DATABASE ADMIN holds everything; a database-level grant
 * covers every table and column; a table-level grant covers its columns; a SELECT or UPDATE
 * grant on any column of a table also covers its designated timestamp (origin `I`).
 *
 * Each stored grant list is indexed once (by permission, table, column; lists are replaced, not
 * changed, when grants change), so a check costs a few map lookups however many grants there are.
 */
import type { RequiredPermission } from '../../statement-info.js'
import { DATABASE_ADMIN, IMPLYING_TIMESTAMP, isTablePermission } from './permission-names.js'
import type { Grant, TableLookup } from './grants.js'

/** What a principal holds: the grant lists of itself and its groups. */
export type Held = readonly (readonly Grant[])[]

/** One permission's grants in one list: the grant option of each, by level. */
interface PermissionIndex {
  /** database level: its grant option, or undefined when not granted there */
  db: boolean | undefined
  /** by lower-case table: the table-level grant option and the columns' (lower-case) */
  readonly tables: Map<string, { table: boolean | undefined; readonly columns: Map<string, boolean> }>
}

interface ListIndex {
  readonly perms: Map<string, PermissionIndex>
  /** some table permission is granted on all tables */
  readonly allTables: boolean
}

const indexes = new WeakMap<readonly Grant[], ListIndex>()

function indexOf(list: readonly Grant[]): ListIndex {
  let ix = indexes.get(list)
  if (ix !== undefined) return ix
  ix = { perms: new Map(), allTables: list.some((g) => g.table === undefined && isTablePermission(g.permission)) }
  for (const g of list) {
    let p = ix.perms.get(g.permission)
    if (p === undefined) ix.perms.set(g.permission, p = { db: undefined, tables: new Map() })
    if (g.table === undefined) { p.db = (p.db ?? false) || g.grantOption; continue }
    const key = g.table.toLowerCase()
    let t = p.tables.get(key)
    if (t === undefined) p.tables.set(key, t = { table: undefined, columns: new Map() })
    if (g.column === undefined) t.table = (t.table ?? false) || g.grantOption
    else {
      const c = g.column.toLowerCase()
      t.columns.set(c, (t.columns.get(c) ?? false) || g.grantOption)
    }
  }
  indexes.set(list, ix)
  return ix
}

const ok = (option: boolean | undefined, withOption: boolean): boolean => option !== undefined && (!withOption || option)

/** True when `held` has `permission` (with the grant option when `withOption`) at the database level. */
export function holdsDatabase(held: Held, permission: string, withOption = false): boolean {
  return held.some((l) => {
    const ix = indexOf(l)
    return ok(ix.perms.get(DATABASE_ADMIN)?.db, withOption) || ok(ix.perms.get(permission)?.db, withOption)
  })
}

/** True when `held` has `permission` on the whole of `table`. */
export function holdsTable(held: Held, permission: string, table: string, withOption = false): boolean {
  if (holdsDatabase(held, permission, withOption)) return true
  const key = table.toLowerCase()
  return held.some((l) => ok(indexOf(l).perms.get(permission)?.tables.get(key)?.table, withOption))
}

/** True when `held` has `permission` on `column` of `table` (the designated timestamp implied). */
export function holdsColumn(held: Held, permission: string, table: string, column: string, tables: TableLookup, withOption = false): boolean {
  if (holdsTable(held, permission, table, withOption)) return true
  const key = table.toLowerCase()
  const col = column.toLowerCase()
  let anyColumn = false
  for (const l of held) {
    const t = indexOf(l).perms.get(permission)?.tables.get(key)
    if (t === undefined) continue
    if (ok(t.columns.get(col), withOption)) return true
    if (t.columns.size > 0) anyColumn = true
  }
  if (anyColumn && !withOption && IMPLYING_TIMESTAMP.has(permission)) {
    const ts = tables.find(table)?.timestamp
    return ts !== undefined && ts.toLowerCase() === col
  }
  return false
}

/**
 * What `held` lacks of `required`, as QuestDB names it in `Access denied for <user> [...]`:
 * `CREATE TABLE`, `SELECT on trades`, `SELECT on trades(price)`; undefined when it is held.
 */
export function missing(held: Held, required: RequiredPermission, tables: TableLookup): string | undefined {
  const { permission, table, columns } = required
  if (table === undefined) return holdsDatabase(held, permission) ? undefined : permission
  if (columns === undefined) return holdsTable(held, permission, table) ? undefined : `${permission} on ${table}`
  // an empty list (count(*), CREATE TABLE LIKE): the permission on any one column of the table will do
  if (columns.length === 0) return holdsTable(held, permission, table) || held.some((l) => indexOf(l).perms.get(permission)?.tables.has(table.toLowerCase()) === true) ? undefined : `${permission} on ${table}`
  for (const c of columns) if (!holdsColumn(held, permission, table, c, tables)) return `${permission} on ${table}(${c})`
  return undefined
}

/** True when `held` has anything on `table` (or a table permission on all tables): the table is visible. */
export function seesTable(held: Held, table: string): boolean {
  const key = table.toLowerCase()
  return held.some((l) => {
    const ix = indexOf(l)
    if (ix.allTables || ix.perms.get(DATABASE_ADMIN)?.db !== undefined) return true
    for (const p of ix.perms.values()) if (p.tables.has(key)) return true
    return false
  })
}
