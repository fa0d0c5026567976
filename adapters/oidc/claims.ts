/**
 * The identity in a set of claims (a user-info answer or a verified JWT): the principal from the
 * first non-empty `acl.oidc.sub.claim`, the groups from the first `acl.oidc.groups.claim` that
 * holds at least one group (an array of strings or one string; claims are never merged).
 * Claims of the wrong type refuse the token (401) rather than guess.
 */
import { unauthenticated } from './errors.js'
import type { Identity } from './identity-cache.js'

/** Longest principal or group name accepted from a provider. */
export const MAX_NAME_LENGTH = 1024
/** Most groups accepted from one token. */
export const MAX_GROUPS = 1024

/** Builds the identity; throws an `unauthenticated` OidcError when the principal is unusable. */
export function identityFromClaims(claims: Record<string, unknown>, subClaims: readonly string[], groupsClaims: readonly string[], expiresAt: number | undefined): Identity {
  let subject: string | undefined
  for (const c of subClaims) {
    const v = claims[c]
    if (v === undefined || v === null || v === '') continue
    if (typeof v !== 'string') throw unauthenticated(`claim '${c}' is a ${typeOf(v)}, expected a string`)
    if (v.length > MAX_NAME_LENGTH) throw unauthenticated(`claim '${c}' is longer than ${MAX_NAME_LENGTH} characters`)
    subject = v
    break
  }
  if (subject === undefined) throw unauthenticated(`no principal: the claims have none of ${subClaims.join(', ')}`)
  let groups: string[] = []
  for (const c of groupsClaims) {
    const v = claims[c]
    if (v === undefined || v === null) continue
    const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : undefined
    if (list === undefined) throw unauthenticated(`claim '${c}' is a ${typeOf(v)}, expected an array of strings or a string`)
    if (list.some((g) => typeof g !== 'string')) throw unauthenticated(`claim '${c}' holds something other than strings`)
    const named = (list as string[]).filter((g) => g.length > 0)
    if (named.length > MAX_GROUPS) throw unauthenticated(`claim '${c}' holds more than ${MAX_GROUPS} groups`)
    if (named.some((g) => g.length > MAX_NAME_LENGTH)) throw unauthenticated(`claim '${c}' holds a group longer than ${MAX_NAME_LENGTH} characters`)
    if (named.length > 0) { groups = named; break }
  }
  const n = claims.name ?? claims.preferred_username
  return { subject, name: typeof n === 'string' ? n.slice(0, MAX_NAME_LENGTH) : undefined, groups, expiresAt }
}

/** The `exp` of a JWT-shaped token in ms, read without verification (only ever used to shorten a cache entry). */
export function unverifiedExpiry(token: string): number | undefined {
  const parts = token.split('.')
  if (parts.length !== 3 || parts[1]!.length > 16384) return undefined
  try {
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { exp?: unknown }
    return typeof payload.exp === 'number' && Number.isFinite(payload.exp) ? payload.exp * 1000 : undefined
  } catch {
    return undefined
  }
}

function typeOf(v: unknown): string {
  return Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v
}
