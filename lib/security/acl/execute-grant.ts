/**
 * GRANT and REVOKE: permission names checked against QuestDB's list and the level they are
 * granted at, the target principal (never the built-in admin, never oneself), the runner's
 * grant option on each permission and object, then one change of the catalog.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { AclName, AclOn, AclStatement, AclTableTarget } from '../../sql/ast-acl.js'
import type { Principal } from '../../session.js'
import { type AccessControl, accessDenied } from './access-control.js'
import { holdsColumn, holdsDatabase, holdsTable } from './check.js'
import { type Grant, addGrant, removeGrant } from './grants.js'
import { ALL, ASSUME_SERVICE_ACCOUNT, DATABASE_ADMIN, expandAll, isColumnPermission, isTablePermission, permissionName } from './permission-names.js'
import { keyOf } from './principals.js'
import { doesNotExist, notAdmin, type AclResult } from './execute.js'

/** One permission at one object: the database (no table), a table, or a column. */
interface Item {
  readonly permission: string
  readonly table?: string
  readonly column?: string
}

type GrantStmt = Extract<AclStatement, { action: 'grant' }>
type RevokeStmt = Extract<AclStatement, { action: 'revoke' }>

/** GRANT p[, p] [ON ...] TO principal [WITH GRANT OPTION] [WITH VERIFICATION]. */
export function grantStatement(acl: AccessControl, stmt: GrantStmt, runner: Principal): AclResult {
  const target = checkTarget(acl, stmt.to, runner, 'grant')
  const e = acl.catalog.find(stmt.to.name)
  if (stmt.verification && e === undefined) throw doesNotExist('user, group or service account', stmt.to)
  const items = itemsOf(acl, stmt.permissions, stmt.on, stmt.verification)
  checkGrantOption(acl, runner, items)
  acl.mutate(() => {
    let list: Grant[] = [...acl.catalog.grantsOf(target)]
    for (const it of items) list = addGrant(list, it.permission, it.table, it.column, stmt.grantOption)
    acl.catalog.setGrants(target, list)
  })
  return { command: 'grant' }
}

/** REVOKE p[, p] [ON ...] FROM principal. */
export function revokeStatement(acl: AccessControl, stmt: RevokeStmt, runner: Principal): AclResult {
  const target = checkTarget(acl, stmt.from, runner, 'revoke')
  const items = itemsOf(acl, stmt.permissions, stmt.on, false)
  checkGrantOption(acl, runner, items)
  acl.mutate(() => {
    let list: Grant[] = [...acl.catalog.grantsOf(target)]
    for (const it of items) list = removeGrant(list, it.permission, it.table, it.column, acl.tables)
    acl.catalog.setGrants(target, list)
  })
  return { command: 'revoke' }
}

function checkTarget(acl: AccessControl, to: { name: string; pos: number }, runner: Principal, verb: string): string {
  notAdmin(acl, to, true)
  if (!acl.isRoot(runner) && keyOf(runner.name) === keyOf(to.name)) {
    throw new SqlError(SqlState.INSUFFICIENT_PRIVILEGE, `cannot ${verb} permissions ${verb === 'grant' ? 'to' : 'from'} yourself [name=${to.name}]`, to.pos)
  }
  return keyOf(to.name)
}

/** Each permission at each object of the target, with `ALL` expanded at its level. */
function itemsOf(acl: AccessControl, permissions: GrantStmt['permissions'], on: AclOn, verify: boolean): Item[] {
  const items: Item[] = []
  for (const p of permissions) {
    const name = permissionName(p.name)
    if (name === undefined) {
      if (p.name.startsWith(ASSUME_SERVICE_ACCOUNT)) throw new SqlError(SqlState.SYNTAX_ERROR, `grant ${ASSUME_SERVICE_ACCOUNT} alone: GRANT ${ASSUME_SERVICE_ACCOUNT} sa TO principal`, p.pos)
      throw new SqlError(SqlState.UNDEFINED_OBJECT, `unknown permission [name=${p.name}]`, p.pos)
    }
    if (on.kind === 'database') {
      for (const n of name === ALL ? expandAll('database') : [name]) items.push({ permission: n })
      continue
    }
    if (name !== ALL && !isTablePermission(name)) {
      throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `${name} is a database permission, it cannot be granted on tables`, p.pos)
    }
    if (on.kind === 'all_tables') {
      for (const n of name === ALL ? expandAll('table') : [name]) items.push({ permission: n })
      continue
    }
    for (const t of on.tables) {
      const table = acl.tables.find(t.table.name)
      if (verify && table === undefined) throw new SqlError(SqlState.UNDEFINED_TABLE, `table does not exist [table=${t.table.name}]`, t.table.pos)
      const tableName = table?.name ?? t.table.name
      if (t.columns === undefined && t.wildcard === undefined) {
        for (const n of name === ALL ? expandAll('table') : [name]) items.push({ permission: n, table: tableName })
        continue
      }
      if (name !== ALL && !isColumnPermission(name)) {
        throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `${name} is a table permission, it cannot be granted on columns`, p.pos)
      }
      if (t.wildcard !== undefined) {
        for (const col of wildcardColumns(table, t.table, t.wildcard)) {
          for (const n of name === ALL ? expandAll('column') : [name]) items.push({ permission: n, table: tableName, column: col })
        }
        continue
      }
      for (const c of t.columns ?? []) {
        const col = table?.columns.find((x) => x.toLowerCase() === c.name.toLowerCase())
        if (table !== undefined && col === undefined && verify) throw new SqlError(SqlState.UNDEFINED_COLUMN, `Invalid column: ${c.name}`, c.pos)
        for (const n of name === ALL ? expandAll('column') : [name]) items.push({ permission: n, table: tableName, column: col ?? c.name })
      }
    }
  }
  return items
}

/**
 * `t(*)` / `t(* EXCLUDE (c, ...))` (QuestDB Enterprise): the columns the table has now, but the
 * excluded ones. The table must exist (no waiting grant), every excluded column must exist, and
 * the exclusions cannot cover every column.
 */
function wildcardColumns(table: ReturnType<AccessControl['tables']['find']>, name: AclName, wildcard: NonNullable<AclTableTarget['wildcard']>): string[] {
  if (table === undefined) throw new SqlError(SqlState.UNDEFINED_TABLE, `table does not exist [table=${name.name}]`, name.pos)
  const excluded = new Set<string>()
  for (const x of wildcard.exclude) {
    const col = table.columns.find((c) => c.toLowerCase() === x.name.toLowerCase())
    if (col === undefined) throw new SqlError(SqlState.UNDEFINED_COLUMN, `Invalid column: ${x.name}`, x.pos)
    excluded.add(col)
  }
  const cols = table.columns.filter((c) => !excluded.has(c))
  if (cols.length === 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `EXCLUDE cannot cover every column of the table [table=${table.name}]`, wildcard.exclude[0]?.pos ?? wildcard.pos)
  return cols
}

/** The runner must hold each permission at its object with the grant option (or be an admin). */
function checkGrantOption(acl: AccessControl, runner: Principal, items: readonly Item[]): void {
  if (!acl.enabled) return
  const g = acl.effectiveGrants(runner)
  if (g === 'root' || holdsDatabase(g, DATABASE_ADMIN, true)) return
  for (const it of items) {
    const ok = it.table === undefined ? holdsDatabase(g, it.permission, true)
      : it.column === undefined ? holdsTable(g, it.permission, it.table, true)
        : holdsColumn(g, it.permission, it.table, it.column, acl.tables, true)
    if (!ok) throw accessDenied(runner.name, `${it.permission}${it.table === undefined ? '' : ` on ${it.table}${it.column === undefined ? '' : `(${it.column})`}`} WITH GRANT OPTION`)
  }
}
