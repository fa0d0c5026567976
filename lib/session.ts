/**
 * A session: the principal statements run as, and per-connection settings. The embedded API's
 * default session is the built-in admin; adapters open one session per connection or request.
 */

import { PendingWrites } from './storage/pending-writes.js'

/** Who runs a statement. Access control (a later issue) checks every statement against it. */
export interface Principal {
  /** user name, as `current_user()` returns it */
  readonly name: string
  /** database groups the user belongs to */
  readonly groups: readonly string[]
  /** true for the built-in admin, who may do everything */
  readonly admin: boolean
  /**
   * what kind of principal this is (absent: `admin` when `admin` is true, else `user`). An
   * `external` principal comes from an identity provider (the OIDC guard) and is never stored.
   */
  readonly kind?: 'admin' | 'user' | 'service-account' | 'external'
  /** for an external principal: the identity provider's groups, matched against EXTERNAL ALIASes */
  readonly externalGroups?: readonly string[]
  /** for an external principal: the provider's display name (request logs, the console) */
  readonly displayName?: string
}

/** The built-in admin principal (`pg.user`, default `admin`). */
export const ADMIN: Principal = { name: 'admin', groups: [], admin: true, kind: 'admin' }

/** Per-connection state. */
export class Session {
  /** `SET name = value` settings, by lower-case name */
  readonly settings = new Map<string, string>([
    ['timezone', 'UTC'],
    ['datestyle', 'ISO, MDY'],
    ['standard_conforming_strings', 'on'],
    ['transaction_isolation', 'read committed'],
    ['search_path', 'public'],
    ['client_encoding', 'UTF8'],
  ])
  /** true between BEGIN and COMMIT/ROLLBACK */
  inTransaction = false
  /**
   * Writes buffered by the open transaction, applied in order on COMMIT and dropped on ROLLBACK.
   * INSERTs are buffered (invisible to every query, this session's included, until COMMIT);
   * DDL and UPDATE apply at once, as in QuestDB.
   */
  readonly pending = new PendingWrites()

  /** the service account assumed with ASSUME SERVICE ACCOUNT, until EXIT SERVICE ACCOUNT */
  private assumed: Principal | undefined

  /** @param loginPrincipal who opened the session (authenticated by the adapter) */
  constructor(readonly loginPrincipal: Principal = ADMIN) {}

  /** Who statements run as: the assumed service account, else the login principal. */
  get principal(): Principal {
    return this.assumed ?? this.loginPrincipal
  }

  /** Statements run as `account` from now on (undefined: as the login principal again). */
  assume(account: Principal | undefined): void {
    this.assumed = account
  }
}
