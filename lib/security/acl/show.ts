/**
 * SHOW USERS, SHOW USER, SHOW GROUPS, SHOW SERVICE ACCOUNTS, SHOW SERVICE ACCOUNT and SHOW
 * PERMISSIONS, with QuestDB's column names. Anyone may see their own details; another
 * principal's need USER DETAILS, lists of every principal LIST USERS (statement-permissions.ts).
 */
import { SqlError, SqlState } from '../../errors.js'
import type { AclName, AclStatement } from '../../sql/ast-acl.js'
import type { Principal, Session } from '../../session.js'
import { type AccessControl, accessDenied } from './access-control.js'
import { holdsDatabase } from './check.js'
import type { Grant } from './grants.js'
import { IMPLYING_TIMESTAMP } from './permission-names.js'
import { type Account, keyOf } from './principals.js'
import type { AclResult } from './execute.js'

const NAME = [{ name: 'name', type: 'STRING' }] as const
const AUTH = [{ name: 'auth_type', type: 'STRING' }, { name: 'enabled', type: 'BOOLEAN' }] as const
/** SHOW PERMISSIONS' columns. */
export const PERMISSION_COLUMNS = [
  { name: 'permission', type: 'STRING' }, { name: 'table_name', type: 'STRING' }, { name: 'column_name', type: 'STRING' },
  { name: 'grant_option', type: 'BOOLEAN' }, { name: 'origin', type: 'STRING' },
] as const

/** Case-insensitive order (names are unique case-insensitively). */
const byName = (a: { name: string }, b: { name: string }): number => { const x = a.name.toLowerCase(); const y = b.name.toLowerCase(); return x < y ? -1 : x > y ? 1 : 0 }

/** Runs a SHOW statement of access control. */
export function showStatement(acl: AccessControl, stmt: AclStatement, session: Session): AclResult {
  const me = session.principal
  const cat = acl.catalog
  switch (stmt.action) {
    case 'show_users': {
      const users = [{ name: acl.adminName }, ...[...cat.entities.values()].filter((e) => e.kind === 'user')].sort(byName)
      return { command: stmt.action, columns: NAME, rows: users.map((u) => [u.name]) }
    }
    case 'show_user': case 'show_service_account': {
      const kind = stmt.action === 'show_user' ? 'user' : 'service-account'
      const name = stmt.name ?? { name: me.name, pos: stmt.pos }
      const admin = keyOf(name.name) === keyOf(acl.adminName) && kind === 'user'
      const a = cat.account(name.name)
      if (!admin && (a === undefined || a.kind !== kind)) throw notFound(kind === 'user' ? 'user' : 'service account', name)
      checkDetails(acl, me, name)
      if (admin || a === undefined) return { command: stmt.action, columns: AUTH, rows: authRows(true, false) }
      return { command: stmt.action, columns: AUTH, rows: authRows(a.password !== undefined, a.tokens.length > 0, a.jwk !== undefined) }
    }
    case 'show_groups': {
      if (stmt.name === undefined) {
        const groups = [...cat.entities.values()].flatMap((e) => (e.kind === 'group' ? [e] : [])).sort(byName)
        if (me.kind === 'external' && !acl.isRoot(me)) {
          // an external user without LIST USERS sees its own mapped groups
          const g = acl.effectiveGrants(me)
          if (g !== 'root' && !holdsDatabase(g, 'LIST USERS')) return { command: stmt.action, columns: NAME, rows: acl.externalGroupKeys(me).map((k) => [cat.entities.get(k)!.name]) }
        }
        return { command: stmt.action, columns: [...NAME, { name: 'external_alias', type: 'STRING' }], rows: groups.map((g) => [g.name, g.aliases.length === 0 ? null : g.aliases.join(',')]) }
      }
      checkDetails(acl, me, stmt.name)
      if (me.kind === 'external' && keyOf(me.name) === keyOf(stmt.name.name)) {
        return { command: stmt.action, columns: NAME, rows: acl.externalGroupKeys(me).map((k) => [cat.entities.get(k)!.name]) }
      }
      const a = cat.account(stmt.name.name)
      if (a === undefined || a.kind !== 'user') throw notFound('user', stmt.name)
      return { command: stmt.action, columns: NAME, rows: a.groups.map((k) => [cat.entities.get(k)?.name ?? k]) }
    }
    case 'show_service_accounts': {
      if (stmt.name === undefined) {
        const sas = [...cat.entities.values()].filter((e) => e.kind === 'service-account').sort(byName)
        return { command: stmt.action, columns: NAME, rows: sas.map((s) => [s.name]) }
      }
      checkDetails(acl, me, stmt.name)
      const e = cat.find(stmt.name.name)
      if (e === undefined || e.kind === 'service-account') throw notFound('user or group', stmt.name)
      const m = cat.assume.get(keyOf(e.name)) ?? new Map<string, boolean>()
      const rows = [...m].map(([k, opt]) => [cat.entities.get(k)?.name ?? k, opt] as [string, boolean]).sort((a, b) => byName({ name: a[0] }, { name: b[0] }))
      return { command: stmt.action, columns: [...NAME, { name: 'grant_option', type: 'BOOLEAN' }], rows }
    }
    case 'show_permissions': {
      const name = stmt.name ?? { name: me.name, pos: stmt.pos }
      checkDetails(acl, me, name)
      if (keyOf(name.name) === keyOf(acl.adminName) || (stmt.name === undefined && acl.isRoot(me))) return { command: stmt.action, columns: PERMISSION_COLUMNS, rows: [] }
      let grants: readonly Grant[]
      if (me.kind === 'external' && keyOf(me.name) === keyOf(name.name)) grants = acl.externalGroupKeys(me).flatMap((k) => [...cat.grantsOf(k)])
      else {
        const e = cat.find(name.name)
        if (e === undefined) throw notFound('user, group or service account', name)
        grants = cat.grantsOf(keyOf(e.name))
      }
      return { command: stmt.action, columns: PERMISSION_COLUMNS, rows: permissionRows(acl, grants) }
    }
    default: throw new SqlError(SqlState.INTERNAL_ERROR, `unknown access-control statement ${stmt.action}`, stmt.pos)
  }
}

/** SHOW PERMISSIONS rows: each grant (origin G), then the designated timestamps they imply (origin I). */
export function permissionRows(acl: AccessControl, grants: readonly Grant[]): (string | boolean | null)[][] {
  const rows: (string | boolean | null)[][] = grants.map((g) => [g.permission, g.table ?? null, g.column ?? null, g.grantOption, 'G'])
  // per permission and table: the columns granted (null: the whole table), in one pass
  const byTable = new Map<string, { permission: string; table: string; columns: Set<string> | null }>()
  for (const g of grants) {
    if (g.table === undefined || !IMPLYING_TIMESTAMP.has(g.permission)) continue
    const key = `${g.permission}\u0000${g.table.toLowerCase()}`
    let e = byTable.get(key)
    if (e === undefined) byTable.set(key, e = { permission: g.permission, table: g.table, columns: new Set() })
    if (g.column === undefined) e.columns = null
    else e.columns?.add(g.column.toLowerCase())
  }
  for (const e of byTable.values()) {
    if (e.columns === null) continue
    const ts = acl.tables.find(e.table)?.timestamp
    if (ts !== undefined && !e.columns.has(ts.toLowerCase())) rows.push([e.permission, e.table, ts, false, 'I'])
  }
  return rows
}

function authRows(password: boolean, rest: boolean, jwk = false): (string | boolean)[][] {
  return [['Password', password], ['JWK Token', jwk], ['REST Token', rest]]
}

/** Another principal's details need USER DETAILS; one's own do not. */
function checkDetails(acl: AccessControl, me: Principal, name: AclName): void {
  if (!acl.enabled || keyOf(me.name) === keyOf(name.name)) return
  const g = acl.effectiveGrants(me)
  if (g !== 'root' && !holdsDatabase(g, 'USER DETAILS')) throw accessDenied(me.name, 'USER DETAILS', name.pos)
}

function notFound(what: string, name: AclName): SqlError {
  return new SqlError(SqlState.UNDEFINED_OBJECT, `${what} does not exist [name=${name.name}]`, name.pos)
}

export type { Account }
