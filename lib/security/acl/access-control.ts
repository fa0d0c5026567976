/**
 * The access-control model: users, groups with external aliases, service accounts, grants,
 * and the checks every statement passes (issue #13 §2–§4).
 *
 * CONTRACT (lead, 2026-11-23): the public methods of {@link AccessControl} and the types here
 * are what the engine facade, the adapters and the OIDC guard call. The bodies below are
 * placeholders (everything allowed; the built-in admin's password checked) until the
 * access-control engineer fills them in; keep the signatures.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { SqlError, SqlState } from '../../errors.js'
import type { Principal } from '../../session.js'
import type { RequiredPermission } from '../../statement-info.js'

/** Endpoints a principal must be allowed to use: the REST API and console, or pgwire. */
export type Endpoint = 'HTTP' | 'PGWIRE'

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

/** The access-control catalog of one database and its checks. */
export class AccessControl {
  readonly enabled: boolean
  private readonly adminUser: string
  private readonly adminPassword: string

  constructor(options: AclOptions = {}) {
    this.enabled = options.enabled ?? false
    this.adminUser = options.admin?.user ?? 'admin'
    this.adminPassword = options.admin?.password ?? 'quest'
  }

  /** The built-in admin's name. */
  get adminName(): string {
    return this.adminUser
  }

  /**
   * The principal whose password this is, or null: unknown user, wrong password, disabled user
   * or a user without a password all answer null, in the same time.
   */
  async authenticate(user: string, password: string): Promise<Principal | null> {
    const userOk = constantTimeEqual(user, this.adminUser)
    const passwordOk = constantTimeEqual(password, this.adminPassword)
    return userOk && passwordOk ? { name: this.adminUser, groups: [], admin: true, kind: 'admin' } : null
  }

  /**
   * The SCRAM verifier of `user`'s password, or undefined when the user is unknown, disabled or
   * has no password (pgwire then runs the exchange against a mock verifier and refuses).
   */
  async passwordVerifier(_user: string): Promise<PasswordVerifier | undefined> {
    return undefined
  }

  /**
   * The principal of `user` once pgwire has checked a SCRAM proof against its
   * {@link passwordVerifier}, or null when the user is unknown or disabled (added by the adapter
   * lane: SCRAM proves the password without handing it over, so there is no password to
   * {@link authenticate} with).
   */
  principalOf(user: string): Principal | null {
    return user === this.adminUser ? { name: this.adminUser, groups: [], admin: true, kind: 'admin' } : null
  }

  /** The principal of a REST token (`qt1…`), or null when unknown, expired or its user disabled. */
  async authenticateToken(_token: string): Promise<Principal | null> {
    return null
  }

  /**
   * An external principal (built by the OIDC guard): never stored; its permissions are the union
   * of the grants of every group whose EXTERNAL ALIAS is in `externalGroups`, resolved from the
   * current grants at each statement.
   */
  externalPrincipal(subject: string, externalGroups: readonly string[]): Principal {
    return { name: subject, groups: [], admin: false, kind: 'external', externalGroups: [...externalGroups] }
  }

  /** Throws 42501 `Access denied for <user> [HTTP]` unless `principal` may use `endpoint`. */
  checkEndpoint(_principal: Principal, _endpoint: Endpoint): void {
    // placeholder: everything allowed
  }

  /**
   * Throws 42501 `Access denied for <user> [SELECT on t]` (the first permission missing, with its
   * object) unless `principal` holds every one of `required`; also refuses a disabled user.
   */
  authorize(_principal: Principal, _required: readonly RequiredPermission[]): void {
    // placeholder: everything allowed
  }

  /** Whether `principal` may see `table` in catalog listings (tables(), SHOW TABLES, pg_catalog). */
  canSee(_principal: Principal, _table: string): boolean {
    return true
  }
}

/** 42501 with QuestDB's text: `Access denied for <user> [<what>]`. */
export function accessDenied(user: string, what: string, position?: number): SqlError {
  return new SqlError(SqlState.INSUFFICIENT_PRIVILEGE, `Access denied for ${user} [${what}]`, position)
}

function constantTimeEqual(a: string, b: string): boolean {
  const h = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest()
  return timingSafeEqual(h(a), h(b))
}
