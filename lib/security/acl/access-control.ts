/**
 * The access-control model: users, groups with external aliases, service accounts, grants,
 * and the checks every statement passes (issue #13 §2–§4). The statements that change it run
 * in `execute.ts`; this class is what the engine facade, the adapters and the OIDC guard call.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { Principal } from '../../session.js'
import type { RequiredPermission } from '../../statement-info.js'
import { AclCatalog, type AclSnapshot } from './acl-catalog.js'
import type { TableLookup } from './grants.js'
import { type Held, holdsDatabase, missing, seesTable } from './check.js'
import { checkPassword, makeVerifier, DEFAULT_ITERATIONS } from './passwords.js'
import { tokenHash, TOKEN_PREFIX } from './tokens.js'
import { verifyJwkSignature } from './jwk.js'
import { type Account, keyOf } from './principals.js'
import { DATABASE_ADMIN } from './permission-names.js'
import { type AclStorage, decodeSnapshot, encodeSnapshot } from './persistence.js'
import { type TableChangePhase, settleAll } from './table-changes.js'

/** Endpoints a principal must be allowed to use: the REST API and console (ILP over HTTP too), pgwire, ILP over TCP. */
export type Endpoint = 'HTTP' | 'PGWIRE' | 'ILP'

/** Options of access control (`Database.open({ acl })`; server keys `acl.*`). */
export interface AclOptions {
  /** check principals and permissions (`acl.enabled`), default false */
  readonly enabled?: boolean
  /** the built-in admin (`acl.admin.user` / `acl.admin.password` / `acl.admin.user.enabled`) */
  readonly admin?: { readonly user?: string; readonly password?: string; readonly enabled?: boolean }
  /** PBKDF2 iterations of stored password verifiers (`acl.password.hash.iteration.count`), default 4096 */
  readonly passwordHashIterations?: number
  /** longest user, group or service-account name (`acl.entity.name.max.length`), default 255 */
  readonly entityNameMaxLength?: number
}

/** What a SCRAM-SHA-256 login checks against: PostgreSQL's stored secret. */
export interface PasswordVerifier {
  readonly salt: Buffer
  readonly iterations: number
  readonly storedKey: Buffer
  readonly serverKey: Buffer
}

/** What access control reads of the rest of the engine: the tables, and the clock. */
export interface AclEnvironment {
  readonly tables: TableLookup
  /** microseconds since the epoch */
  readonly clock: () => number
}

/** How soon a REFRESH token's extension is saved (ms); saves in between are coalesced. */
export const REFRESH_SAVE_DELAY_MS = 1000

const NO_TABLES: TableLookup = { find: () => undefined, names: () => [] }

/** The access-control catalog of one database and its checks. */
export class AccessControl {
  readonly enabled: boolean
  /** users, groups, service accounts and grants */
  readonly catalog = new AclCatalog()
  readonly adminEnabled: boolean
  readonly iterations: number
  readonly nameMaxLength: number
  readonly tables: TableLookup
  readonly clock: () => number
  private readonly adminUser: string
  private readonly adminPassword: string
  private adminVerifier: Promise<PasswordVerifier> | undefined
  /** compared against when the user is unknown, so that the answer takes as long */
  private dummyVerifier: Promise<PasswordVerifier> | undefined
  private storage: AclStorage | undefined
  private saveTimer: ReturnType<typeof setTimeout> | undefined
  /**
   * For fault tests only: called when a table change's grant intent is durable ('recorded') and
   * when the table change is done, before the intent is settled ('changed') — a crash test kills
   * the process there (table-changes.ts).
   */
  faultHook: ((phase: TableChangePhase) => void) | undefined

  constructor(options: AclOptions = {}, env: Partial<AclEnvironment> = {}) {
    this.enabled = options.enabled ?? false
    this.adminUser = options.admin?.user ?? 'admin'
    this.adminPassword = options.admin?.password ?? 'quest'
    this.adminEnabled = options.admin?.enabled ?? true
    this.iterations = options.passwordHashIterations ?? DEFAULT_ITERATIONS
    this.nameMaxLength = options.entityNameMaxLength ?? 255
    this.tables = env.tables ?? NO_TABLES
    this.clock = env.clock ?? (() => Date.now() * 1000)
    if (!Number.isInteger(this.iterations) || this.iterations < 1) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid acl.password.hash.iteration.count [value=${this.iterations}]`)
  }

  /** The built-in admin's name. */
  get adminName(): string {
    return this.adminUser
  }

  /**
   * Loads the catalog from `storage` and saves every later change there. Refuses a disabled
   * built-in admin when no enabled user holds DATABASE ADMIN (nobody could administer the database).
   */
  attach(storage: AclStorage | undefined): void {
    this.storage = storage
    const bytes = storage?.read()
    if (bytes !== undefined) this.catalog.restore(decodeSnapshot(bytes))
    // grant changes a crash left between a table change and its grants: settled against the tables
    if (settleAll(this)) storage?.write(encodeSnapshot(this.catalog.snapshot()))
    if (this.enabled && !this.adminEnabled && !this.anotherAdminExists()) {
      throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'acl.admin.user.enabled=false needs another enabled user holding DATABASE ADMIN', -1,
        { hint: 'GRANT DATABASE ADMIN TO a user (as the built-in admin) before disabling the built-in admin' })
    }
  }

  private anotherAdminExists(): boolean {
    for (const e of this.catalog.entities.values()) {
      if (e.kind === 'user' && e.enabled && holdsDatabase(this.grantsOfAccount(e), DATABASE_ADMIN)) return true
    }
    return false
  }

  /**
   * Runs `change` on the catalog and saves the result; when `change` or the save fails, the
   * catalog is put back as it was, so a failed statement changes nothing.
   */
  mutate<T>(change: () => T): T {
    const before = encodeSnapshot(this.catalog.snapshot())
    try {
      const r = change()
      this.storage?.write(encodeSnapshot(this.catalog.snapshot()))
      return r
    } catch (e) {
      this.catalog.restore(decodeSnapshot(before))
      throw e
    }
  }

  /**
   * Saves the catalog soon: REFRESH token extensions, at most one save per
   * {@link REFRESH_SAVE_DELAY_MS}, so a crash loses at most that much of an extension (the token
   * then expires at its last saved time, never later than its uses allow).
   */
  private scheduleSave(): void {
    if (this.storage === undefined || this.saveTimer !== undefined) return
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined
      try { this.storage?.write(encodeSnapshot(this.catalog.snapshot())) } catch { /* the next use or change saves it */ }
    }, REFRESH_SAVE_DELAY_MS)
    this.saveTimer.unref?.()
  }

  /** Saves what a pending {@link scheduleSave} would (on close). */
  flush(): void {
    if (this.saveTimer === undefined) return
    clearTimeout(this.saveTimer)
    this.saveTimer = undefined
    this.storage?.write(encodeSnapshot(this.catalog.snapshot()))
  }

  /** A principal is the built-in admin (root: every permission, no grants). */
  isRoot(p: Principal): boolean {
    return (p.kind ?? (p.admin ? 'admin' : 'user')) === 'admin'
  }

  /** The principal of a stored account. */
  principalOf(a: Account): Principal {
    return { name: a.name, groups: a.groups.map((g) => this.catalog.entities.get(g)?.name ?? g), admin: false, kind: a.kind }
  }

  private adminPrincipal(): Principal {
    return { name: this.adminUser, groups: [], admin: true, kind: 'admin' }
  }

  private verifierOfAdmin(): Promise<PasswordVerifier> {
    return (this.adminVerifier ??= makeVerifier(this.adminPassword, this.iterations))
  }

  /**
   * The principal whose password this is, or null: unknown user, wrong password, disabled user
   * or a user without a password all answer null, after the same work (one PBKDF2 derivation).
   */
  async authenticate(user: string, password: string): Promise<Principal | null> {
    if (user === this.adminUser) {
      const ok = await checkPassword(await this.verifierOfAdmin(), password)
      return ok && this.adminEnabled ? this.adminPrincipal() : null
    }
    const a = this.catalog.account(user)
    const v = a?.password ?? await (this.dummyVerifier ??= makeVerifier('\u0000no such user', this.iterations))
    const ok = await checkPassword(v, password)
    return ok && a !== undefined && a.enabled && a.password !== undefined && this.catalog.account(user) === a ? this.principalOf(a) : null
  }

  /**
   * The SCRAM verifier of `user`'s password, or undefined when the user is unknown, disabled or
   * has no password (pgwire then runs the exchange against a mock verifier and refuses).
   */
  async passwordVerifier(user: string): Promise<PasswordVerifier | undefined> {
    if (user === this.adminUser) return this.adminEnabled ? this.verifierOfAdmin() : undefined
    const a = this.catalog.account(user)
    return a !== undefined && a.enabled ? a.password : undefined
  }

  /**
   * The principal of `user` once pgwire has checked a SCRAM proof against its
   * {@link passwordVerifier}, or null when the user is unknown or disabled (added by the adapter
   * lane: SCRAM proves the password without handing it over, so there is no password to
   * {@link authenticate} with).
   */
  userPrincipal(user: string): Principal | null {
    if (user === this.adminUser) return this.adminEnabled ? this.adminPrincipal() : null
    const a = this.catalog.account(user)
    return a !== undefined && a.enabled && a.password !== undefined ? this.principalOf(a) : null
  }

  /** The principal of a REST token (`qt1…`), or null when unknown, expired or its user disabled. */
  async authenticateToken(token: string): Promise<Principal | null> {
    if (!token.startsWith(TOKEN_PREFIX)) return null
    const hash = tokenHash(token)
    const now = this.clock()
    for (const e of this.catalog.entities.values()) {
      if (e.kind === 'group') continue
      const t = e.tokens.find((x) => x.hash === hash)
      if (t === undefined) continue
      if (t.expires <= now || !e.enabled) return null
      // REFRESH: each use extends the token; saved within REFRESH_SAVE_DELAY_MS (coalesced)
      if (t.refresh) { t.expires = now + t.ttl; this.scheduleSave() }
      return this.principalOf(e)
    }
    return null
  }

  /**
   * The principal of an ILP/TCP challenge login (jwk.ts): `keyId` names a user or service account
   * with a JWK token, `signature` is its base64 SHA-256 ECDSA signature of `challenge`. Null when
   * the account is unknown, disabled or has no JWK token, or the signature does not verify.
   */
  authenticateJwk(keyId: string, challenge: Uint8Array, signature: string): Principal | null {
    const a = this.catalog.account(keyId)
    if (a === undefined || a.jwk === undefined || !a.enabled) return null
    return verifyJwkSignature(a.jwk, challenge, signature) ? this.principalOf(a) : null
  }

  /**
   * An external principal (built by the OIDC guard): never stored; its permissions are the union
   * of the grants of every group whose EXTERNAL ALIAS is in `externalGroups`, resolved from the
   * current grants at each statement.
   */
  externalPrincipal(subject: string, externalGroups: readonly string[]): Principal {
    return { name: subject, groups: [], admin: false, kind: 'external', externalGroups: [...externalGroups] }
  }

  /** The groups an external principal maps to (their keys), by EXTERNAL ALIAS, exact text. */
  externalGroupKeys(p: Principal): string[] {
    const out: string[] = []
    for (const g of p.externalGroups ?? []) {
      const k = this.catalog.aliases.get(g)
      if (k !== undefined && !out.includes(k)) out.push(k)
    }
    return out
  }

  /** A stored account's grant lists: its own, then its groups'. */
  grantsOfAccount(a: Account): Held {
    const own = this.catalog.grantsOf(keyOf(a.name))
    if (a.kind !== 'user' || a.groups.length === 0) return [own]
    return [own, ...a.groups.map((g) => this.catalog.grantsOf(g))]
  }

  /**
   * Everything `p` holds now, or 'root' for the built-in admin. Throws 42501 for a principal
   * that may not run statements any more: a dropped or disabled user, a disabled admin.
   */
  effectiveGrants(p: Principal): Held | 'root' {
    const kind = p.kind ?? (p.admin ? 'admin' : 'user')
    if (kind === 'admin') {
      if (!this.adminEnabled) throw accessDenied(p.name, 'user is disabled')
      return 'root'
    }
    if (kind === 'external') return this.externalGroupKeys(p).map((g) => this.catalog.grantsOf(g))
    const a = this.catalog.account(p.name)
    if (a === undefined || a.kind !== kind) throw accessDenied(p.name, `${kind === 'service-account' ? 'service account' : 'user'} does not exist`)
    if (!a.enabled) throw accessDenied(p.name, `${kind === 'service-account' ? 'service account' : 'user'} is disabled`)
    return this.grantsOfAccount(a)
  }

  /** Throws 42501 `Access denied for <user> [HTTP]` unless `principal` may use `endpoint`. */
  checkEndpoint(principal: Principal, endpoint: Endpoint): void {
    if (!this.enabled) return
    const g = this.effectiveGrants(principal)
    if (g !== 'root' && !holdsDatabase(g, endpoint)) throw accessDenied(principal.name, endpoint)
  }

  /**
   * Throws 42501 `Access denied for <user> [SELECT on t]` (the first permission missing, with its
   * object) unless `principal` holds every one of `required`; also refuses a disabled user.
   */
  authorize(principal: Principal, required: readonly RequiredPermission[]): void {
    if (!this.enabled) return
    const g = this.effectiveGrants(principal)
    if (g === 'root') return
    for (const r of required) {
      const what = missing(g, r, this.tables)
      if (what !== undefined) throw accessDenied(principal.name, what)
    }
  }

  /** Whether `principal` may see `table` in catalog listings (tables(), SHOW TABLES, pg_catalog). */
  canSee(principal: Principal, table: string): boolean {
    if (!this.enabled) return true
    let g: Held | 'root'
    try { g = this.effectiveGrants(principal) } catch { return false }
    return g === 'root' || seesTable(g, table)
  }

  /** The catalog's current snapshot (tests, SHOW). */
  snapshot(): AclSnapshot {
    return this.catalog.snapshot()
  }
}


/** 42501 with QuestDB's text: `Access denied for <user> [<what>]`. */
export function accessDenied(user: string, what: string, position?: number): SqlError {
  return new SqlError(SqlState.INSUFFICIENT_PRIVILEGE, `Access denied for ${user} [${what}]`, position)
}
