/**
 * The provider's endpoints: from the discovery document (`acl.oidc.configuration.url`), fetched
 * once at start-up with the guard's timeout and size cap, or from host mode's keys. A document
 * that cannot be fetched, is not JSON, or lacks an endpoint stops start-up with a message
 * naming the key. The optional ones (`end_session_endpoint`, `device_authorization_endpoint`)
 * are taken when present.
 */
import { type Endpoints, OidcConfigError, type ResolvedOidcOptions, checkUrl } from './options.js'
import { jsonObject, providerFetch, limitsOf } from './provider-fetch.js'

const REQUIRED = [
  ['authorization_endpoint', 'authorization'],
  ['token_endpoint', 'token'],
  ['userinfo_endpoint', 'userinfo'],
  ['jwks_uri', 'jwks'],
] as const

/** Resolves the endpoints, fetching the discovery document when configured. */
export async function discoverEndpoints(o: ResolvedOidcOptions): Promise<Endpoints> {
  if (o.hostEndpoints !== undefined) return o.hostEndpoints
  const url = o.configurationUrl!
  let doc: Record<string, unknown>
  try {
    const r = await providerFetch(url, limitsOf(o), { headers: { accept: 'application/json' } })
    if (r.status !== 200) throw new Error(`HTTP ${r.status}`)
    doc = jsonObject(r, 'the discovery document')
  } catch (e) {
    throw new OidcConfigError(`acl.oidc.configuration.url: cannot read the discovery document at ${url}: ${(e as Error).message.replace(/^identity provider unreachable: /, '')}`)
  }
  const found: Record<string, string> = {}
  for (const [field, name] of REQUIRED) {
    const v = doc[field]
    if (typeof v !== 'string' || v.length === 0) throw new OidcConfigError(`acl.oidc.configuration.url: the discovery document at ${url} has no ${field}`)
    found[name] = checkUrl(`acl.oidc.configuration.url (${field})`, v, o.tlsEnabled)
  }
  const endSession = typeof doc.end_session_endpoint === 'string' ? checkUrl('acl.oidc.configuration.url (end_session_endpoint)', doc.end_session_endpoint, o.tlsEnabled) : undefined
  const device = doc.device_authorization_endpoint
  const deviceAuthorization = typeof device === 'string' && device !== '' ? checkUrl('acl.oidc.configuration.url (device_authorization_endpoint)', device, o.tlsEnabled) : undefined
  const issuer = typeof doc.issuer === 'string' ? doc.issuer : undefined
  return { authorization: found.authorization!, token: found.token!, userinfo: found.userinfo!, jwks: found.jwks!, endSession, deviceAuthorization, issuer }
}
