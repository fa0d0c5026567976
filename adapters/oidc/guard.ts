/**
 * The OpenID Connect guard: the database as an OAuth 2.0 resource server. It turns an
 * `Authorization: Bearer` access token (REST) or a token sent as the pgwire password into the
 * engine's external principal, and hands the REST and pgwire adapters the `authenticate` hooks
 * they take — neither adapter knows OIDC.
 */
import type { IncomingMessage } from 'node:http'
import type { Database, Principal } from '../../lib/index.js'
import { OidcError, unauthenticated, unavailable } from './errors.js'
import { jsonObject, limitsOf, providerFetch } from './provider-fetch.js'
import { type Identity, IdentityCache, type IdentityCacheStats } from './identity-cache.js'
import { type Endpoints, type OidcOptions, type PgCredentials, type ResolvedOidcOptions, resolveOidcOptions } from './options.js'
import { discoverEndpoints } from './discovery.js'
import { Jwks, verifyJwt } from './jwt.js'
import { claimsIdentity } from './token-identity.js'
import { userInfoIdentity } from './userinfo.js'
import { localHttp, localPgwire } from './local-auth.js'

/** The pgwire user name that carries a token as its password (an empty name does too). */
export const SSO_USER = '_sso'

/** Longest token looked at; longer ones are refused without a provider call. */
export const MAX_TOKEN_LENGTH = 16384
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/

/** What {@link createOidcGuard} returns. */
export interface OidcGuard {
  /** the REST adapter's `authenticate` hook (`createHttpHandler(db, { authenticate: guard.http })`) */
  readonly http: (req: IncomingMessage) => Promise<Principal | null>
  /** the pgwire adapter's `authenticate` hook (`createPgwireServer(db, { authenticate: guard.pgwire })`) */
  readonly pgwire: (c: PgCredentials) => Promise<Principal | null>
  /** pgwire users whose password must travel in cleartext (a token cannot go through SCRAM) */
  readonly cleartextUser: (user: string) => boolean
  /** the keys `/settings` publishes for the console (`createHttpHandler(db, { settings: guard.settings })`) */
  readonly settings: Readonly<Record<string, string | boolean | null>>
  /** origins the console calls from the browser (its token endpoint): `createConsoleHandler(dir, { connectOrigins })` */
  readonly consoleOrigins: readonly string[]
  /** the provider's endpoints, resolved at start-up */
  readonly endpoints: Endpoints
  /** the identity of a token (cached), or a 401 / 503 {@link OidcError} */
  identify(token: string): Promise<Identity>
  /** the principal of a token, checked for `endpoint` (403 without it) */
  principal(token: string, endpoint: 'HTTP' | 'PGWIRE'): Promise<Principal>
  /** drops cached identities, all or one subject's (`SELECT oidc_cache_flush([subject])`); returns how many */
  invalidate(subject?: string): number
  /** cache counters; `keyFetches` counts JWKS downloads */
  stats(): IdentityCacheStats & { readonly keyFetches: number }
}

/**
 * Builds the guard: checks the options (QuestDB's start-up rules) and resolves the provider's
 * endpoints (fetching the discovery document); either failing rejects with an
 * {@link OidcConfigError} naming the key.
 *
 * @example
 * ```ts
 * const guard = await createOidcGuard(db, { configurationUrl: 'https://idp/.well-known/openid-configuration', clientId: 'epochdb', groupsClaim: 'groups' })
 * createHttpServer(db, { authenticate: guard.http, settings: guard.settings }).listen(9000)
 * createPgwireServer(db, { authenticate: guard.pgwire, cleartextUser: guard.cleartextUser }).listen(8812)
 * ```
 */
export async function createOidcGuard(db: Database, options: OidcOptions): Promise<OidcGuard> {
  const o: ResolvedOidcOptions = resolveOidcOptions(options)
  const endpoints = await discoverEndpoints(o)
  const log = (msg: string, extra: object = {}): void => options.onLog?.({ msg, ...extra })
  const jwks = new Jwks(endpoints.jwks, o, log)
  const cache = new IdentityCache({ ttlMs: o.cacheTtlMs, negativeTtlMs: o.negativeCacheTtlMs, maxEntries: o.cacheMaxEntries, maxBytes: o.cacheMaxBytes }, o.now)
  const validate = async (token: string): Promise<Identity> => {
    if (!o.groupsEncodedInToken) return userInfoIdentity(token, endpoints.userinfo, o)
    return claimsIdentity(token, await verifyJwt(token, jwks, o, endpoints), o)
  }

  const identify = async (token: string): Promise<Identity> => {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH || !TOKEN68.test(token)) throw unauthenticated('malformed token')
    try {
      return await cache.resolve(token, () => validate(token))
    } catch (e) {
      if (e instanceof OidcError) log('oidc token refused', { failure: e.failure, reason: e.message })
      if ((e as { failure?: string }).failure === 'unauthenticated' && !(e instanceof OidcError)) throw unauthenticated((e as Error).message)
      throw e
    }
  }

  // one principal per cached identity: it holds names only, permissions are resolved per statement
  const principals = new WeakMap<Identity, Principal>()
  const principal = async (token: string, endpoint: 'HTTP' | 'PGWIRE'): Promise<Principal> => principalOf(await identify(token), endpoint)
  const principalOf = (id: Identity, endpoint: 'HTTP' | 'PGWIRE'): Principal => {
    let p = principals.get(id)
    if (p === undefined) {
      p = { ...db.externalPrincipal(id.subject, id.groups), displayName: id.name }
      principals.set(id, p)
    }
    try {
      db.checkEndpoint(p, endpoint)
    } catch (e) {
      throw new OidcError('forbidden', (e as Error).message)
    }
    return p
  }

  /**
   * `acl.oidc.ropc.flow.enabled`: the user name and password exchanged at the token endpoint
   * (password grant, `client.id`, `scope`), the token validated as any other; cached by a hash of
   * the credentials like a token (a refusal for the negative TTL). Never for a local user: the
   * callers check local users first, so their passwords never reach the provider.
   */
  const ropc = async (user: string, password: string, endpoint: 'HTTP' | 'PGWIRE'): Promise<Principal> => {
    if (user.length === 0 || user.length > 1024 || password.length === 0 || password.length > MAX_TOKEN_LENGTH) throw unauthenticated('malformed credentials')
    const id = await cache.resolve(`ropc\u0000${user}\u0000${password}`, async () => {
      const body = new URLSearchParams({ grant_type: 'password', username: user, password, client_id: o.clientId, scope: o.scope }).toString()
      const r = await providerFetch(endpoints.token, limitsOf(o), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body })
      if (r.status === 400 || r.status === 401) throw unauthenticated('the identity provider refused the user name or password')
      if (r.status !== 200) throw unavailable(`the token endpoint answered HTTP ${r.status}`)
      const answer = jsonObject(r, 'the token endpoint\'s answer')
      // the ID token carries the groups in groups.encoded.in.token mode, as QuestDB uses it
      const token = o.groupsEncodedInToken ? answer['id_token'] : answer['access_token']
      if (typeof token !== 'string' || token.length === 0) throw unavailable(`the token endpoint's answer has no ${o.groupsEncodedInToken ? 'id_token' : 'access_token'}`)
      return validate(token)
    })
    return principalOf(id, endpoint)
  }
  /** ROPC after the local users; null when the provider refuses too (the adapter's own check then answers 401 / 28P01). */
  const ropcOrNull = async (user: string, password: string, endpoint: 'HTTP' | 'PGWIRE', local: () => Promise<Principal | null>): Promise<Principal | null> => {
    const p = await local()
    if (p !== null) return p
    try {
      return await ropc(user, password, endpoint)
    } catch (e) {
      if ((e as { failure?: string }).failure === 'unauthenticated') { log('oidc password grant refused', { user }); return null }
      throw e
    }
  }

  // SELECT flush_identity_cache(['<subject>']) empties this cache too
  db.identityCaches.register((subject) => cache.invalidate(subject))

  const localH = options.local?.http ?? localHttp(db)
  const localP = options.local?.pgwire ?? localPgwire(db)

  const settings: Record<string, string | boolean | null> = {
    'acl.enabled': true,
    'acl.oidc.enabled': true,
    'acl.oidc.client.id': o.clientId,
    'acl.oidc.redirect.uri': o.redirectUri ?? null,
    'acl.oidc.scope': o.scope,
    'acl.oidc.authorization.endpoint': endpoints.authorization,
    'acl.oidc.token.endpoint': endpoints.token,
    'acl.oidc.pkce.required': o.pkceRequired,
    'acl.oidc.state.required': o.stateRequired,
    'acl.oidc.groups.encoded.in.token': o.groupsEncodedInToken,
    // EpochDB: where the console signs out at the provider (RP-initiated logout)
    'acl.oidc.end.session.endpoint': endpoints.endSession ?? null,
  }
  // for clients running the RFC 8628 device flow themselves; left out when unresolved, as QuestDB does
  if (endpoints.deviceAuthorization !== undefined) settings['acl.oidc.device.authorization.endpoint'] = endpoints.deviceAuthorization

  return {
    endpoints,
    consoleOrigins: [new URL(endpoints.token).origin],
    settings: Object.freeze(settings),
    identify,
    principal,
    invalidate: (subject) => cache.invalidate(subject),
    stats: () => ({ ...cache.stats(), keyFetches: jwks.fetches }),
    // a token, or (ROPC) a password for the provider, must arrive in cleartext; local users keep SCRAM
    cleartextUser: (user) => (o.pgTokenAsPassword && (user === SSO_USER || user === '')) || (o.ropcFlowEnabled && user !== '' && db.userPrincipal(user) === null),
    http: async (req) => {
      const header = req.headers.authorization
      if (header === undefined) return null
      if (o.ropcFlowEnabled) {
        const basic = /^Basic[ ]+(\S+)\s*$/i.exec(header)
        const text = basic === null ? '' : Buffer.from(basic[1]!, 'base64').toString('utf8')
        const colon = text.indexOf(':')
        if (colon > 0) return ropcOrNull(text.slice(0, colon), text.slice(colon + 1), 'HTTP', async () => localH(req))
      }
      const m = /^Bearer[ ]+(\S*)\s*$/i.exec(header)
      // REST tokens (qt1…) and Basic belong to the engine's own users: with access control on,
      // null lets the REST adapter check them (with its login throttle); off, the guard does
      if (m === null || m[1]!.startsWith('qt1')) return db.aclEnabled && options.local?.http === undefined ? null : localH(req)
      return principal(m[1]!, 'HTTP')
    },
    pgwire: async (c) => {
      if (o.pgTokenAsPassword && (c.user === SSO_USER || c.user === '')) return principal(c.password, 'PGWIRE')
      if (o.ropcFlowEnabled && c.user !== '' && c.user !== SSO_USER) return ropcOrNull(c.user, c.password, 'PGWIRE', async () => localP(c))
      return db.aclEnabled && options.local?.pgwire === undefined ? null : localP(c)
    },
  }
}
