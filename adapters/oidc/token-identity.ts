/**
 * The identity of a validated token: claims → subject and groups, with the cache deadline
 * capped at the token's own expiry when it is a JWT.
 */
import { identityFromClaims, unverifiedExpiry } from './claims.js'
import type { Identity } from './identity-cache.js'
import type { ResolvedOidcOptions } from './options.js'

/** The identity in `claims` for `token`. */
export function claimsIdentity(token: string, claims: Record<string, unknown>, o: ResolvedOidcOptions): Identity {
  const exp = typeof claims.exp === 'number' ? claims.exp * 1000 : unverifiedExpiry(token)
  return identityFromClaims(claims, o.subClaims, o.groupsClaims, exp)
}
