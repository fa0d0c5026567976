/**
 * Whether a set of grants (a principal's own and its groups') holds a required permission, and
 * what to name when it does not. DATABASE ADMIN holds everything; a database-level grant covers
 * every table and column; a table-level grant covers its columns; a SELECT or UPDATE grant on any
 * column of a table also covers its designated timestamp (origin `I`).
 */
import type { RequiredPermission } from '../../statement-info.js'
import { DATABASE_ADMIN, IMPLYING_TIMESTAMP, isTablePermission as isTableLevel } from './permission-names.js'
import type { Grant, TableLookup } from './grants.js'

const eq = (a: string | undefined, b: string): boolean => a !== undefined && a.toLowerCase() === b.toLowerCase()

/** True when `grants` hold `permission` (with the grant option when `withOption`) at the database level. */
export function holdsDatabase(grants: readonly Grant[], permission: string, withOption = false): boolean {
  return grants.some((g) => (g.permission === DATABASE_ADMIN || (g.permission === permission && g.table === undefined)) && (!withOption || g.grantOption))
}

/** True when `grants` hold `permission` on the whole of `table`. */
export function holdsTable(grants: readonly Grant[], permission: string, table: string, withOption = false): boolean {
  return holdsDatabase(grants, permission, withOption) || grants.some((g) => g.permission === permission && eq(g.table, table) && g.column === undefined && (!withOption || g.grantOption))
}

/** True when `grants` hold `permission` on `column` of `table` (the designated timestamp implied). */
export function holdsColumn(grants: readonly Grant[], permission: string, table: string, column: string, tables: TableLookup, withOption = false): boolean {
  if (holdsTable(grants, permission, table, withOption)) return true
  const onTable = grants.filter((g) => g.permission === permission && eq(g.table, table) && g.column !== undefined && (!withOption || g.grantOption))
  if (onTable.some((g) => eq(g.column, column))) return true
  if (onTable.length > 0 && !withOption && IMPLYING_TIMESTAMP.has(permission)) {
    const ts = tables.find(table)?.timestamp
    return ts !== undefined && ts.toLowerCase() === column.toLowerCase()
  }
  return false
}

/**
 * What `grants` lack of `required`, as QuestDB names it in `Access denied for <user> [...]`:
 * `CREATE TABLE`, `SELECT on trades`, `SELECT on trades(price)`; undefined when they hold it.
 */
export function missing(grants: readonly Grant[], required: RequiredPermission, tables: TableLookup): string | undefined {
  const { permission, table, columns } = required
  if (table === undefined) return holdsDatabase(grants, permission) ? undefined : permission
  if (columns === undefined) return holdsTable(grants, permission, table) ? undefined : `${permission} on ${table}`
  // an empty list (count(*), CREATE TABLE LIKE): the permission on any one column of the table will do
  if (columns.length === 0) return holdsTable(grants, permission, table) || grants.some((g) => g.permission === permission && eq(g.table, table)) ? undefined : `${permission} on ${table}`
  for (const c of columns) if (!holdsColumn(grants, permission, table, c, tables)) return `${permission} on ${table}(${c})`
  return undefined
}

/** True when `grants` hold anything on `table` (or on all tables): the table is visible. */
export function seesTable(grants: readonly Grant[], table: string): boolean {
  return grants.some((g) => g.permission === DATABASE_ADMIN || eq(g.table, table) || (g.table === undefined && isTableLevel(g.permission)))
}

