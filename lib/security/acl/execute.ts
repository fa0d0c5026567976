/**
 * Runs access-control statements against the catalog: checks names, existence and the
 * runner's rights first, then changes the catalog in one {@link AccessControl.mutate} (saved, or
 * undone when the save fails). SHOW statements are in `show.ts`.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { AclName, AclOn, AclStatement } from '../../sql/ast-acl.js'
import type { Session, Principal } from '../../session.js'
import { type AccessControl, accessDenied } from './access-control.js'
import { type Account, type Entity, checkEntityName, keyOf, kindText } from './principals.js'
import { makeVerifier } from './passwords.js'
import { newToken, parseTtl, tokenHash } from './tokens.js'
import { newJwk } from './jwk.js'
import { grantStatement, revokeStatement } from './execute-grant.js'
import { showStatement } from './show.js'
import { holdsDatabase } from './check.js'
import { DATABASE_ADMIN, ASSUME_SERVICE_ACCOUNT } from './permission-names.js'

/** What an access-control statement returned: rows for SHOW and CREATE TOKEN, else nothing. */
export interface AclResult {
  readonly command: string
  readonly columns?: readonly { readonly name: string; readonly type: 'STRING' | 'BOOLEAN' | 'TIMESTAMP' }[]
  readonly rows?: readonly (string | boolean | number | null)[][]
}

/** Runs `stmt` for `session` (its principal is checked when access control is on). */
export async function executeAcl(acl: AccessControl, stmt: AclStatement, session: Session): Promise<AclResult> {
  const done: AclResult = { command: stmt.action }
  switch (stmt.action) {
    case 'create_user': {
      if (skipExisting(acl, stmt.name, 'user', stmt.ifNotExists)) return done
      if (stmt.password === '') throw emptyPassword(stmt.passwordPos ?? stmt.pos)
      const v = stmt.password === undefined ? undefined : await makeVerifier(stmt.password, acl.iterations)
      if (skipExisting(acl, stmt.name, 'user', stmt.ifNotExists)) return done
      acl.mutate(() => { acl.catalog.addAccount('user', stmt.name.name, v) })
      return done
    }
    case 'create_group':
      if (skipExisting(acl, stmt.name, 'group', stmt.ifNotExists)) return done
      if (stmt.alias !== undefined) checkAliasFree(acl, stmt.alias)
      acl.mutate(() => {
        const g = acl.catalog.addGroup(stmt.name.name)
        if (stmt.alias !== undefined) acl.catalog.addAlias(g, stmt.alias.name)
      })
      return done
    case 'create_service_account': {
      if (skipExisting(acl, stmt.name, 'service-account', stmt.ifNotExists)) return done
      const runner = session.principal
      if (stmt.owner === undefined && runner.kind === 'external') {
        throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'an external user must name the owner: CREATE SERVICE ACCOUNT ... OWNED BY <user or group>', stmt.pos)
      }
      const owner = stmt.owner === undefined ? (acl.isRoot(runner) ? undefined : acl.catalog.account(runner.name)) : mustExist(acl, stmt.owner, 'user or group')
      if (owner?.kind === 'service-account') throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `a service account cannot own another [name=${owner.name}]`, stmt.owner?.pos ?? stmt.pos)
      acl.mutate(() => {
        acl.catalog.addAccount('service-account', stmt.name.name, undefined, owner === undefined ? undefined : keyOf(owner.name))
        // the owner may assume it, and pass that on (QuestDB's owner grant)
        if (owner !== undefined) setAssume(acl, keyOf(owner.name), keyOf(stmt.name.name), true)
      })
      return done
    }
    case 'drop_user': case 'drop_group': case 'drop_service_account': {
      const kind = stmt.action === 'drop_user' ? 'user' : stmt.action === 'drop_group' ? 'group' : 'service-account'
      notAdmin(acl, stmt.name)
      const e = acl.catalog.find(stmt.name.name)
      if (e === undefined || e.kind !== kind) {
        if (stmt.ifExists && e === undefined) return done
        throw doesNotExist(kindText(kind), stmt.name)
      }
      if (kind !== 'group' && keyOf(session.loginPrincipal.name) === keyOf(e.name) && !acl.isRoot(session.loginPrincipal)) {
        throw new SqlError(SqlState.OBJECT_IN_USE, `cannot drop the current ${kindText(kind)} [name=${e.name}]`, stmt.name.pos)
      }
      acl.mutate(() => { acl.catalog.drop(e.name) })
      return done
    }
    case 'alter_user': case 'alter_service_account':
      return alterAccount(acl, stmt, session)
    case 'alter_group': {
      const g = acl.catalog.group(stmt.name.name)
      if (g === undefined) throw doesNotExist('group', stmt.name)
      if (stmt.alter === 'add_alias') {
        if (g.aliases.includes(stmt.alias.name)) return done
        checkAliasFree(acl, stmt.alias)
        acl.mutate(() => { acl.catalog.addAlias(g, stmt.alias.name) })
      } else {
        if (!g.aliases.includes(stmt.alias.name)) throw new SqlError(SqlState.UNDEFINED_OBJECT, `external alias does not exist [group=${g.name}, alias=${stmt.alias.name}]`, stmt.alias.pos)
        acl.mutate(() => { acl.catalog.removeAlias(g, stmt.alias.name) })
      }
      return done
    }
    case 'add_user': case 'remove_user': {
      const u = acl.catalog.account(stmt.user.name)
      notAdmin(acl, stmt.user)
      if (u === undefined || u.kind !== 'user') throw doesNotExist('user', stmt.user)
      const keys = stmt.groups.map((n) => {
        if (acl.catalog.group(n.name) === undefined) throw doesNotExist('group', n)
        return keyOf(n.name)
      })
      acl.mutate(() => {
        if (stmt.action === 'add_user') { for (const k of keys) if (!u.groups.includes(k)) u.groups.push(k) } else u.groups = u.groups.filter((k) => !keys.includes(k))
      })
      return done
    }
    case 'assume_service_account': {
      const sa = acl.catalog.account(stmt.name.name)
      if (sa === undefined || sa.kind !== 'service-account') throw doesNotExist('service account', stmt.name)
      if (!sa.enabled) throw accessDenied(session.principal.name, `service account is disabled`, stmt.name.pos)
      if (acl.enabled && !mayAssume(acl, session.loginPrincipal, keyOf(sa.name))) throw accessDenied(session.loginPrincipal.name, `${ASSUME_SERVICE_ACCOUNT} ${sa.name}`, stmt.name.pos)
      session.assume(acl.principalOf(sa))
      return done
    }
    case 'exit_service_account': {
      const current = session.principal
      if (current === session.loginPrincipal) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'no service account is assumed', stmt.pos)
      if (stmt.name !== undefined && keyOf(stmt.name.name) !== keyOf(current.name)) {
        throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `service account is not assumed [name=${stmt.name.name}]`, stmt.name.pos)
      }
      session.assume(undefined)
      return done
    }
    case 'grant': return grantStatement(acl, stmt, session.principal)
    case 'revoke': return revokeStatement(acl, stmt, session.principal)
    case 'grant_assume': case 'revoke_assume': {
      const target = stmt.action === 'grant_assume' ? stmt.to : stmt.from
      notAdmin(acl, target, true)
      const sa = acl.catalog.account(stmt.account.name)
      if (sa === undefined || sa.kind !== 'service-account') throw doesNotExist('service account', stmt.account)
      const t = acl.catalog.find(target.name)
      if (t?.kind === 'service-account') throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `a service account cannot assume another [name=${t.name}]`, target.pos)
      if (acl.enabled && !acl.isRoot(session.principal) && !mayAssume(acl, session.principal, keyOf(sa.name), true)) {
        throw accessDenied(session.principal.name, `${ASSUME_SERVICE_ACCOUNT} ${sa.name} WITH GRANT OPTION`, stmt.account.pos)
      }
      acl.mutate(() => {
        if (stmt.action === 'grant_assume') setAssume(acl, keyOf(target.name), keyOf(sa.name), stmt.grantOption)
        else acl.catalog.assume.get(keyOf(target.name))?.delete(keyOf(sa.name))
      })
      return done
    }
    default: return showStatement(acl, stmt, session)
  }
}

/** ALTER USER / ALTER SERVICE ACCOUNT. */
async function alterAccount(acl: AccessControl, stmt: Extract<AclStatement, { action: 'alter_user' | 'alter_service_account' }>, session: Session): Promise<AclResult> {
  const kind = stmt.action === 'alter_user' ? 'user' : 'service-account'
  notAdmin(acl, stmt.name)
  const a = acl.catalog.account(stmt.name.name)
  if (a === undefined || a.kind !== kind) throw doesNotExist(kindText(kind), stmt.name)
  const ch = stmt.alter
  const self = keyOf(session.principal.name) === keyOf(a.name) && !acl.isRoot(session.principal)
  switch (ch.change) {
    case 'enable': acl.mutate(() => { a.enabled = true }); break
    case 'disable':
      if (self) throw new SqlError(SqlState.OBJECT_IN_USE, `cannot disable the current ${kindText(kind)} [name=${a.name}]`, stmt.name.pos)
      acl.mutate(() => { a.enabled = false })
      break
    case 'password': {
      if (ch.password === '') throw emptyPassword(ch.passwordPos)
      const v = await makeVerifier(ch.password, acl.iterations)
      acl.mutate(() => { a.password = v })
      break
    }
    case 'no_password': acl.mutate(() => { a.password = undefined }); break
    case 'create_token': {
      if (ch.tokenType === 'JWK') {
        // one per principal: a new one replaces the old; only the public key is kept
        if (acl.enabled && !self) requireDatabase(acl, session.principal, 'CREATE JWK', stmt.pos)
        const k = newJwk()
        acl.mutate(() => { a.jwk = k.publicKey })
        return {
          command: stmt.action,
          columns: [{ name: 'name', type: 'STRING' }, { name: 'public_key_x', type: 'STRING' }, { name: 'public_key_y', type: 'STRING' }, { name: 'private_key', type: 'STRING' }],
          rows: [[a.name, k.publicKey.x, k.publicKey.y, k.privateKey]],
        }
      }
      // one's own tokens need no permission; another's need CREATE REST TOKEN
      if (acl.enabled && !self) requireDatabase(acl, session.principal, 'CREATE REST TOKEN', stmt.pos)
      const ttl = parseTtl(ch.ttl, ch.ttlPos)
      const token = newToken()
      const expires = acl.clock() + ttl
      acl.mutate(() => { a.tokens.push({ hash: tokenHash(token), expires, ttl, refresh: ch.refresh }) })
      // name first, as the JWK form: QuestDB's console reads the token at dataset[0][1]
      return {
        command: stmt.action,
        columns: [{ name: 'name', type: 'STRING' }, { name: 'token', type: 'STRING' }, { name: 'expires_at', type: 'TIMESTAMP' }, { name: 'refresh', type: 'BOOLEAN' }],
        rows: [[a.name, token, expires, ch.refresh]],
      }
    }
    case 'drop_token': {
      if (ch.tokenType === 'JWK') {
        if (acl.enabled && !self) requireDatabase(acl, session.principal, 'DROP JWK', stmt.pos)
        if (a.jwk === undefined) throw new SqlError(SqlState.UNDEFINED_OBJECT, `JWK token does not exist [${kindText(kind)}=${a.name}]`, stmt.pos)
        acl.mutate(() => { delete a.jwk })
        break
      }
      if (acl.enabled && !self) requireDatabase(acl, session.principal, 'DROP REST TOKEN', stmt.pos)
      const hash = ch.token === undefined ? undefined : tokenHash(ch.token)
      if (hash !== undefined && !a.tokens.some((t) => t.hash === hash)) throw new SqlError(SqlState.UNDEFINED_OBJECT, `REST token does not exist [${kindText(kind)}=${a.name}]`, stmt.pos)
      acl.mutate(() => { a.tokens = hash === undefined ? [] : a.tokens.filter((t) => t.hash !== hash) })
      break
    }
  }
  return { command: stmt.action }
}

function requireDatabase(acl: AccessControl, p: Principal, permission: string, pos: number): void {
  const g = acl.effectiveGrants(p)
  if (g !== 'root' && !holdsDatabase(g, permission)) throw accessDenied(p.name, permission, pos)
}

/** True when `p` may assume the service account `sa` (directly, through a group, or as DATABASE ADMIN). */
function mayAssume(acl: AccessControl, p: Principal, sa: string, withOption = false): boolean {
  const g = acl.effectiveGrants(p)
  if (g === 'root' || holdsDatabase(g, DATABASE_ADMIN, withOption)) return true
  const keys = [keyOf(p.name)]
  if (p.kind === 'external') keys.push(...acl.externalGroupKeys(p))
  else {
    const a = acl.catalog.account(p.name)
    if (a?.kind === 'user') keys.push(...a.groups)
  }
  return keys.some((k) => {
    const o = acl.catalog.assume.get(k)?.get(sa)
    return o !== undefined && (!withOption || o)
  })
}

function setAssume(acl: AccessControl, principal: string, sa: string, grantOption: boolean): void {
  let m = acl.catalog.assume.get(principal)
  if (m === undefined) acl.catalog.assume.set(principal, m = new Map())
  m.set(sa, grantOption)
}

/**
 * For CREATE: true when an entity of `kind` named so exists and IF NOT EXISTS was given (nothing
 * to do; a password is never changed); throws when the name is taken (or invalid).
 */
function skipExisting(acl: AccessControl, name: AclName, kind: Entity['kind'], ifNotExists: boolean): boolean {
  checkEntityName(name.name, name.pos, acl.nameMaxLength)
  if (keyOf(name.name) === keyOf(acl.adminName)) {
    throw new SqlError(SqlState.DUPLICATE_OBJECT, `the name is taken by the built-in admin [name=${name.name}]`, name.pos)
  }
  const e = acl.catalog.find(name.name)
  if (e === undefined) return false
  if (e.kind === kind && ifNotExists) return true
  throw new SqlError(SqlState.DUPLICATE_OBJECT, e.kind === kind ? `${kindText(kind)} already exists [name=${e.name}]` : `the name is taken by a ${kindText(e.kind)} [name=${e.name}]`, name.pos)
}

function checkAliasFree(acl: AccessControl, alias: AclName): void {
  if (alias.name.length === 0) throw new SqlError(SqlState.INVALID_NAME, 'external alias cannot be empty', alias.pos)
  const owner = acl.catalog.aliases.get(alias.name)
  if (owner !== undefined) {
    throw new SqlError(SqlState.DUPLICATE_OBJECT, `external alias is already mapped to group ${acl.catalog.entities.get(owner)?.name ?? owner} [alias=${alias.name}]`, alias.pos)
  }
}

/** The entity named so, as a user or group (OWNED BY), or 42704. */
function mustExist(acl: AccessControl, name: AclName, what: string): Account | Entity {
  const e = acl.catalog.find(name.name)
  if (e === undefined) throw doesNotExist(what, name)
  return e
}

/** Refuses the built-in admin as the object of a statement. */
export function notAdmin(acl: AccessControl, name: AclName, grant = false): void {
  if (keyOf(name.name) !== keyOf(acl.adminName)) return
  throw new SqlError(SqlState.INSUFFICIENT_PRIVILEGE, grant ? `the built-in admin's permissions cannot be changed [name=${name.name}]` : `the built-in admin cannot be changed with SQL [name=${name.name}]; see acl.admin.*`, name.pos)
}

/** 42704 `<what> does not exist [name=x]`. */
export function doesNotExist(what: string, name: AclName): SqlError {
  return new SqlError(SqlState.UNDEFINED_OBJECT, `${what} does not exist [name=${name.name}]`, name.pos)
}

function emptyPassword(pos: number): SqlError {
  return new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'empty password; use WITH NO PASSWORD to remove a password', pos)
}

export type { AclOn }
