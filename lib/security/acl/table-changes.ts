/**
 * Grants over a table's life: owner grants when it is created (to the creator, or to the
 * `OWNED BY` principal), column owner grants when ALTER TABLE ADD COLUMN adds columns (every
 * column permission on each new column, with the grant option, to the adder or to the `OWNED BY`
 * principal), grants that follow RENAME TABLE, grants that go with
 * `DROP TABLE ... CASCADE PERMISSIONS` (a plain DROP TABLE keeps them, as QuestDB Enterprise
 * does, so a table created again under the name gets them back).
 *
 * The table change and the grant change live in two files (the table's directory and `_acl`), so
 * they are ordered with a write-ahead *intent*: before the table changes, the intended grant
 * change is saved in `_acl` ({@link beginTableChange}); after it, {@link settleTableChange}
 * looks at the tables, applies the grant change when the table change happened, and removes the
 * intent, in one save. A crash anywhere leaves one of: no intent (nothing done, or all done), or
 * an intent whose table change did or did not happen — which the next open settles the same way
 * ({@link settleAll}). So a table and its grants never disagree after a restart.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { Statement } from '../../sql/ast.js'
import type { Principal } from '../../session.js'
import type { AccessControl } from './access-control.js'
import { type Grant, addGrant } from './grants.js'
import { expandAll } from './permission-names.js'
import { keyOf } from './principals.js'

/** A grant change waiting for its table change, saved in `_acl` until settled. */
export type TableIntent =
  | { readonly id: number; readonly op: 'create'; readonly table: string; readonly owner: string }
  | { readonly id: number; readonly op: 'add_columns'; readonly table: string; readonly columns: readonly string[]; readonly owner: string }
  | { readonly id: number; readonly op: 'rename'; readonly from: string; readonly to: string }
  | { readonly id: number; readonly op: 'drop'; readonly tables: readonly string[] }

/** Where a fault test may stop the process: the intent is durable / the table change is done. */
export type TableChangePhase = 'recorded' | 'changed'

const eq = (a: string | undefined, b: string): boolean => a !== undefined && a.toLowerCase() === b.toLowerCase()

/**
 * The grant change `stmt` (run by `principal`) implies, checked, and saved as an intent before the
 * table changes; undefined when there is nothing to do. Refuses (before anything changes) an
 * `OWNED BY` naming nobody, and an external user creating a table without `OWNED BY`.
 */
export function beginTableChange(acl: AccessControl, stmt: Statement, principal: Principal): TableIntent | undefined {
  const intent = plan(acl, stmt, principal)
  if (intent === undefined) return undefined
  acl.mutate(() => { acl.catalog.intents.push(intent) })
  acl.faultHook?.('recorded')
  return intent
}

function plan(acl: AccessControl, stmt: Statement, principal: Principal): TableIntent | undefined {
  const id = acl.catalog.nextIntentId()
  switch (stmt.kind) {
    case 'create_table': case 'create_table_as': case 'create_table_like': {
      if (acl.tables.find(stmt.name) !== undefined) return undefined
      const owner = ownerOf(acl, stmt.owner, principal, 'a table', 'CREATE TABLE')
      return owner === undefined ? undefined : { id, op: 'create', table: stmt.name, owner }
    }
    case 'create_view': {
      // the creator owns a new view as a new table (every table permission, with the grant option)
      if (stmt.alter || acl.tables.find(stmt.name) !== undefined) return undefined
      const owner = ownerOf(acl, undefined, principal, 'a view', 'CREATE VIEW')
      return owner === undefined ? undefined : { id, op: 'create', table: stmt.name, owner }
    }
    case 'mat_view': {
      // the creator owns a new materialized view as a new table
      if (stmt.op !== 'create' || acl.tables.find(stmt.name) !== undefined) return undefined
      const owner = ownerOf(acl, undefined, principal, 'a materialized view', 'CREATE MATERIALIZED VIEW')
      return owner === undefined ? undefined : { id, op: 'create', table: stmt.name, owner }
    }
    case 'alter_table': {
      const a = stmt.action
      if (a.kind !== 'add_column') return undefined
      const t = acl.tables.find(stmt.table)
      if (t === undefined) return undefined
      // only the columns this statement adds (IF NOT EXISTS leaves existing ones, and their grants, alone)
      const columns = a.columns.map((c) => c.name).filter((c) => !t.columns.some((x) => eq(x, c)))
      if (columns.length === 0) return undefined
      const owner = ownerOf(acl, a.owner, principal, 'a column', 'ALTER TABLE ... ADD COLUMN')
      return owner === undefined ? undefined : { id, op: 'add_columns', table: t.name, columns, owner }
    }
    case 'rename_table': {
      const from = acl.tables.find(stmt.from)
      if (from === undefined || !anyGrantOn(acl, [from.name])) return undefined
      return { id, op: 'rename', from: from.name, to: stmt.to }
    }
    case 'drop_table': {
      if (stmt.cascadePermissions !== true) return undefined
      const tables = stmt.names.map((n) => acl.tables.find(n.name)?.name).filter((n): n is string => n !== undefined)
      return anyGrantOn(acl, tables) ? { id, op: 'drop', tables } : undefined
    }
    default: return undefined
  }
}

/** The principal key that gets the owner grants of a new table, or undefined for none. */
function ownerOf(acl: AccessControl, owner: { name: string; pos: number } | undefined, principal: Principal, what: string, statement: string): string | undefined {
  if (owner !== undefined) {
    // the built-in admin holds everything already (SHOW CREATE TABLE prints OWNED BY 'admin')
    if (keyOf(owner.name) === keyOf(acl.adminName)) return undefined
    if (acl.catalog.find(owner.name) === undefined) throw new SqlError(SqlState.UNDEFINED_OBJECT, `user, group or service account does not exist [name=${owner.name}]`, owner.pos)
    return keyOf(owner.name)
  }
  if (!acl.enabled) return undefined
  const kind = principal.kind ?? (principal.admin ? 'admin' : 'user')
  if (kind === 'external') {
    throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `an external user cannot own ${what}: ${statement} ... OWNED BY <user, group or service account>`)
  }
  if (kind !== 'user' && kind !== 'service-account') return undefined
  return acl.catalog.account(principal.name) === undefined ? undefined : keyOf(principal.name)
}

/** True when `list` holds `permission` on all of `table` (at the database or table level) with the grant option. */
function coveredWithOption(list: readonly Grant[], permission: string, table: string): boolean {
  return list.some((g) => g.permission === permission && g.column === undefined && g.grantOption && (g.table === undefined || eq(g.table, table)))
}

function anyGrantOn(acl: AccessControl, tables: readonly string[]): boolean {
  for (const list of acl.catalog.grants.values()) for (const g of list) if (tables.some((t) => eq(g.table, t))) return true
  return false
}

/**
 * Settles `intent` after its statement ran (whether it succeeded or failed): applies the grant
 * change when the table change happened, and removes the intent, in one save.
 */
export function settleTableChange(acl: AccessControl, intent: TableIntent): void {
  acl.faultHook?.('changed')
  acl.mutate(() => settle(acl, intent))
}

/** Settles every intent left by a crash (on open, before the catalog is used). */
export function settleAll(acl: AccessControl): boolean {
  const pending = [...acl.catalog.intents]
  for (const i of pending) settle(acl, i)
  return pending.length > 0
}

function settle(acl: AccessControl, intent: TableIntent): void {
  const cat = acl.catalog
  const at = cat.intents.findIndex((x) => x.id === intent.id)
  if (at < 0) return
  cat.intents.splice(at, 1)
  switch (intent.op) {
    case 'create': {
      const t = acl.tables.find(intent.table)
      if (t === undefined) return
      let list = [...cat.grantsOf(intent.owner)]
      for (const p of expandAll('table')) list = addGrant(list, p, t.name, undefined, true)
      cat.setGrants(intent.owner, list)
      return
    }
    case 'add_columns': {
      const t = acl.tables.find(intent.table)
      if (t === undefined) return
      // the columns that were added (ADD COLUMN stops at the first failure, keeping those before it)
      const added = intent.columns.map((c) => t.columns.find((x) => eq(x, c))).filter((c): c is string => c !== undefined)
      let list = [...cat.grantsOf(intent.owner)]
      for (const p of expandAll('column')) {
        for (const c of added) if (!coveredWithOption(list, p, t.name)) list = addGrant(list, p, t.name, c, true)
      }
      cat.setGrants(intent.owner, list)
      return
    }
    case 'rename': {
      const to = acl.tables.find(intent.to)
      // done when the new name exists and the old one is gone (or only its spelling changed)
      if (to === undefined || (acl.tables.find(intent.from) !== undefined && !eq(intent.from, intent.to))) return
      for (const [key, list] of [...cat.grants]) {
        if (!list.some((g) => eq(g.table, intent.from))) continue
        let out: Grant[] = list.filter((g) => !eq(g.table, intent.from))
        for (const g of list) if (eq(g.table, intent.from)) out = addGrant(out, g.permission, to.name, g.column, g.grantOption)
        cat.setGrants(key, out)
      }
      return
    }
    case 'drop': {
      const gone = intent.tables.filter((t) => acl.tables.find(t) === undefined)
      if (gone.length === 0) return
      for (const [key, list] of [...cat.grants]) {
        if (list.some((g) => gone.some((t) => eq(g.table, t)))) cat.setGrants(key, list.filter((g) => !gone.some((t) => eq(g.table, t))))
      }
    }
  }
}
