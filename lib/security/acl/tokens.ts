/**
 * REST API tokens (`ALTER USER u CREATE TOKEN TYPE REST WITH TTL '1d' [REFRESH]`): `qt1` and 43
 * base64url characters of randomness, returned once. Only the SHA-256 of a token is kept, so a
 * copy of the catalog cannot be used to log in.
 */
import { createHash, randomBytes } from 'node:crypto'
import { SqlError, SqlState } from '../../errors.js'

/** The prefix QuestDB's REST tokens carry. */
export const TOKEN_PREFIX = 'qt1'

/** A stored token: its hash, expiry and whether each use extends it. */
export interface StoredToken {
  /** hex SHA-256 of the token text */
  readonly hash: string
  /** microseconds since the epoch */
  expires: number
  /** the TTL in microseconds */
  readonly ttl: number
  readonly refresh: boolean
}

const MIN_TTL = 60 * 1_000_000
const MAX_TTL = 10 * 365 * 86_400 * 1_000_000
const UNITS: Record<string, number> = { s: 1_000_000, m: 60 * 1_000_000, h: 3600 * 1_000_000, d: 86_400 * 1_000_000 }

/** A fresh token's text. */
export function newToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url')
}

/** The stored form of a token text. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/** A TTL such as `'1d'`, `'30m'` in microseconds: 1 minute to 10 years, else 22023. */
export function parseTtl(text: string, pos: number): number {
  const m = /^\s*(\d+)\s*([smhd])\s*$/i.exec(text)
  if (m === null) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid TTL [value=${text}], expected a number and a unit s, m, h or d such as '1d'`, pos)
  const ttl = Number(m[1]) * UNITS[m[2]!.toLowerCase()]!
  if (!(ttl >= MIN_TTL && ttl <= MAX_TTL)) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `TTL out of range [value=${text}], it must be between 1 minute and 10 years`, pos)
  return ttl
}
