/**
 * The stored principals: users and service accounts (accounts: they log in) and groups (they
 * hold permissions for their members). Names are unique across all three and the built-in
 * admin, compared case-insensitively (as table names are); each keeps the spelling it was
 * created with.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { PasswordVerifier } from './access-control.js'
import type { StoredToken } from './tokens.js'
import type { StoredJwk } from './jwk.js'

/** A user or a service account. */
export interface Account {
  readonly kind: 'user' | 'service-account'
  readonly name: string
  enabled: boolean
  /** its password's SCRAM verifier, or undefined (WITH NO PASSWORD) */
  password: PasswordVerifier | undefined
  /** its REST tokens (hashes) */
  tokens: StoredToken[]
  /** a user's groups (their keys, in the order added); always empty for a service account */
  groups: string[]
  /** a service account's owner (OWNED BY), a principal's key */
  owner?: string
  /** its JWK token's public key (ILP over TCP), one at most */
  jwk?: StoredJwk
}

/** A group: a container of permissions, mapped to identity-provider groups by its aliases. */
export interface Group {
  readonly kind: 'group'
  readonly name: string
  /** its EXTERNAL ALIASes, exact text (case-sensitive); each alias belongs to one group only */
  aliases: string[]
}

/** Any stored principal. */
export type Entity = Account | Group

/** The key a name is looked up by. */
export function keyOf(name: string): string {
  return name.toLowerCase()
}

/** What the kind of an entity is called in messages. */
export function kindText(kind: Entity['kind'] | 'admin'): string {
  return kind === 'service-account' ? 'service account' : kind
}

/** Refuses an empty name, one longer than `max` characters, or one with control characters. */
export function checkEntityName(name: string, pos: number, max: number): void {
  if (name.length === 0 || name.trim() !== name || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new SqlError(SqlState.INVALID_NAME, `invalid entity name [name=${name}]`, pos)
  }
  if (name.length > max) throw new SqlError(SqlState.NAME_TOO_LONG, `entity name is too long [name=${name}, max=${max}]`, pos)
}
