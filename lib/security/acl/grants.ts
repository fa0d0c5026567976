/**
 * Grants of one principal and how GRANT and REVOKE change them. A grant is a permission at one
 * level: the database (`table` absent: every table for table permissions), a table, or a
 * column. Tables and columns are kept as written and compared case-insensitively.
 */

/** One granted permission. */
export interface Grant {
  readonly permission: string
  /** absent: database level (for table permissions: all tables) */
  readonly table?: string
  /** present: column level */
  readonly column?: string
  readonly grantOption: boolean
}

/** A GRANT/REVOKE target after parsing: the database, all tables, or tables with optional columns. */
export type GrantTarget =
  | { readonly kind: 'database' }
  | { readonly kind: 'tables'; readonly tables: readonly { readonly table: string; readonly columns?: readonly string[] }[] }

/** What the executor knows of tables: existing names and their columns. */
export interface TableLookup {
  /** the table's name as the catalog spells it, its columns and designated timestamp, or undefined */
  find(name: string): { readonly name: string; readonly columns: readonly string[]; readonly timestamp: string | undefined } | undefined
  /** every table's name */
  names(): readonly string[]
}

const eq = (a: string | undefined, b: string | undefined): boolean => (a === undefined ? b === undefined : b !== undefined && a.toLowerCase() === b.toLowerCase())

/** True when `g` is exactly at `table`/`column`. */
function at(g: Grant, permission: string, table: string | undefined, column: string | undefined): boolean {
  return g.permission === permission && eq(g.table, table) && eq(g.column, column)
}

/** True when a grant of `permission` at `table`/`column` would cover `g` (same or lower level). */
function covers(permission: string, table: string | undefined, column: string | undefined, g: Grant): boolean {
  if (g.permission !== permission) return false
  if (table === undefined) return true
  if (!eq(g.table, table)) return false
  return column === undefined || eq(g.column, column)
}

/**
 * Adds `permission` at `table`/`column`: an equal grant gets the new grant option (the latest
 * GRANT decides it), grants it makes redundant (lower levels, no grant option beyond it) go.
 */
export function addGrant(list: Grant[], permission: string, table: string | undefined, column: string | undefined, grantOption: boolean): Grant[] {
  const kept = list.filter((g) => at(g, permission, table, column) || !(covers(permission, table, column, g) && (grantOption || !g.grantOption)))
  const i = kept.findIndex((g) => at(g, permission, table, column))
  // a new object: stored lists (and their indexes, check.ts) never change in place
  if (i >= 0) { kept[i] = { ...kept[i]!, grantOption }; return kept }
  kept.push(table === undefined ? { permission, grantOption } : column === undefined ? { permission, table, grantOption } : { permission, table, column, grantOption })
  return kept
}

/**
 * Removes `permission` at `table`/`column` and below. A grant at a higher level is re-adjusted
 * (as QuestDB does): replaced by explicit grants on the objects that remain, those that exist
 * now — so tables or columns created later are not covered.
 */
export function removeGrant(list: Grant[], permission: string, table: string | undefined, column: string | undefined, tables: TableLookup): Grant[] {
  let out = list.filter((g) => !covers(permission, table, column, g))
  if (table === undefined) return out
  // a database-level grant: explicit grants on every other table (and on this one's other columns)
  const db = out.find((g) => g.permission === permission && g.table === undefined)
  if (db !== undefined) {
    out = out.filter((g) => g !== db)
    for (const name of tables.names()) if (!eq(name, table)) out = addGrant(out, permission, name, undefined, db.grantOption)
    if (column !== undefined) out = replaceByColumns(out, permission, table, column, db.grantOption, tables)
  }
  const tbl = column === undefined ? undefined : out.find((g) => g.permission === permission && eq(g.table, table) && g.column === undefined)
  if (tbl !== undefined) out = replaceByColumns(out.filter((g) => g !== tbl), permission, table, column!, tbl.grantOption, tables)
  return out
}

function replaceByColumns(list: Grant[], permission: string, table: string, except: string, grantOption: boolean, tables: TableLookup): Grant[] {
  const t = tables.find(table)
  let out = list
  if (t !== undefined) for (const c of t.columns) if (!eq(c, except)) out = addGrant(out, permission, t.name, c, grantOption)
  return out
}
