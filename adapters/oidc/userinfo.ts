/**
 * The default validation: the provider's user-info endpoint is asked who the token belongs to.
 * 200 with a JSON object is an identity; 400/401/403 a refused token (401); anything else
 * (5xx, HTML, a redirect, a timeout, an oversized body) means the provider cannot answer now
 * (503), which is never cached.
 */
import { claimsIdentity } from './token-identity.js'
import { unauthenticated, unavailable } from './errors.js'
import type { Identity } from './identity-cache.js'
import type { ResolvedOidcOptions } from './options.js'
import { jsonObject, providerFetch, limitsOf } from './provider-fetch.js'

/** Asks the user-info endpoint about `token`. */
export async function userInfoIdentity(token: string, url: string, o: ResolvedOidcOptions): Promise<Identity> {
  const r = await providerFetch(url, limitsOf(o), {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  })
  if (r.status === 400 || r.status === 401 || r.status === 403) throw unauthenticated(`user-info refused the token (HTTP ${r.status})`)
  if (r.status !== 200) throw unavailable(`user-info answered HTTP ${r.status}`)
  return claimsIdentity(token, jsonObject(r, 'the user-info answer'), o)
}
