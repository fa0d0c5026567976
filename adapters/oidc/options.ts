/**
 * Options of {@link createOidcGuard}, with QuestDB Enterprise's `acl.oidc.*` key in each
 * comment, their defaults, and the start-up rules (a bad combination stops start-up with a
 * message naming the key).
 */
import type { IncomingMessage } from 'node:http'
import { readFileSync } from 'node:fs'
import type { Principal } from '../../lib/index.js'

/** What a pgwire client presented at login (the pgwire adapter's `Credentials`). */
export interface PgCredentials {
  readonly user: string
  readonly password: string
  readonly database: string
  readonly remoteAddress: string | undefined
}

/** One line for the server's log (a refused token's reason, a key refresh). */
export interface OidcLogEntry {
  readonly msg: string
  readonly [k: string]: unknown
}

/** Options of {@link createOidcGuard}. */
export interface OidcOptions {
  /** `acl.oidc.client.id`: the console's client id (required) */
  readonly clientId: string
  /** `acl.oidc.configuration.url`: the discovery document; exclusive with `host` */
  readonly configurationUrl?: string
  /** `acl.oidc.host`: the provider's host name, with the endpoint paths; exclusive with `configurationUrl` */
  readonly host?: string
  /** `acl.oidc.port`, default 443 */
  readonly port?: number
  /** `acl.oidc.tls.enabled`: must match the scheme of every provider URL, default true */
  readonly tlsEnabled?: boolean
  /** `acl.oidc.authorization.endpoint` (host mode; a path or absolute URL), default `/as/authorization.oauth2` */
  readonly authorizationEndpoint?: string
  /** `acl.oidc.token.endpoint`, default `/as/token.oauth2` */
  readonly tokenEndpoint?: string
  /** `acl.oidc.userinfo.endpoint`, default `/idp/userinfo.openid` */
  readonly userinfoEndpoint?: string
  /** `acl.oidc.public.keys.endpoint` (the JWKS), default `/pf/JWKS` */
  readonly publicKeysEndpoint?: string
  /**
   * `acl.oidc.device.authorization.endpoint` (host mode; a path or absolute URL), no default: the
   * provider's RFC 8628 device authorization endpoint, which the guard never calls but publishes
   * on `/settings` for clients that run the device flow themselves. With `configurationUrl` the
   * discovery document's `device_authorization_endpoint` is used instead (this key is ignored, as
   * every endpoint key is in that mode)
   */
  readonly deviceAuthorizationEndpoint?: string
  /** `acl.oidc.scope`, default `openid` */
  readonly scope?: string
  /** `acl.oidc.redirect.uri`; unset, the console uses its own address */
  readonly redirectUri?: string
  /** `acl.oidc.groups.claim` (required): claim names in priority order, comma-separated; the first with a group wins */
  readonly groupsClaim: string
  /** `acl.oidc.sub.claim`: the principal's claim names in priority order, default `sub` */
  readonly subClaim?: string
  /** `acl.oidc.cache.ttl`: ms an identity stays cached (never beyond the token's expiry); 0 = no cache. Default 30000 */
  readonly cacheTtlMs?: number
  /** `acl.oidc.pkce.required`: told to the console, default true */
  readonly pkceRequired?: boolean
  /** `acl.oidc.state.required`: told to the console, default false */
  readonly stateRequired?: boolean
  /** `acl.oidc.groups.encoded.in.token`: validate JWTs locally with the JWKS, default false */
  readonly groupsEncodedInToken?: boolean
  /** `acl.oidc.audience`: accepted `aud` values (JWT mode), default the client id */
  readonly audience?: string | readonly string[]
  /** `acl.oidc.public.keys.expiry`: ms the JWKS stays cached, default 120000 */
  readonly publicKeysExpiryMs?: number
  /** `acl.oidc.pg.token.as.password.enabled`: pgwire user `_sso` (or empty) with a token as password, default false */
  readonly pgTokenAsPassword?: boolean
  /**
   * `acl.oidc.ropc.flow.enabled`: a user name and password arriving as HTTP Basic or a pgwire
   * login that match no local user are exchanged at the token endpoint (Resource Owner Password
   * grant with `client.id` and `scope`); local users are checked first. Default false
   */
  readonly ropcFlowEnabled?: boolean
  /** `acl.oidc.tls.validation.enabled`: check the provider's certificate and host name, default true */
  readonly tlsValidationEnabled?: boolean
  /**
   * `acl.oidc.tls.keystore.path`: the CA certificates trusted for the provider (a private CA), a
   * PEM file (QuestDB reads a Java trust store; convert one with `openssl pkcs12 -nokeys`). Set
   * it and {@link tlsKeystorePassword} both or neither, as QuestDB requires
   */
  readonly tlsKeystorePath?: string
  /** `acl.oidc.tls.keystore.password` (required with the path; a PEM file has no password, so it is not used) */
  readonly tlsKeystorePassword?: string
  /** `acl.oidc.http.timeout`: ms a provider call may take, default 30000 */
  readonly httpTimeoutMs?: number
  /** `acl.oidc.response.buffer.size`: bytes of a provider answer accepted, default 1 MiB */
  readonly responseBufferSize?: number
  /** EpochDB: seconds of clock skew tolerated on `exp`/`nbf` (`acl.oidc.clock.tolerance`), default 30 */
  readonly clockToleranceSec?: number
  /** EpochDB: ms a refused token is remembered (`acl.oidc.negative.cache.ttl`), default 5000 */
  readonly negativeCacheTtlMs?: number
  /** EpochDB: identities cached at most (`acl.oidc.cache.max.entries`), default 10000 */
  readonly cacheMaxEntries?: number
  /** EpochDB: bytes of cached identities at most (`acl.oidc.cache.max.bytes`), default 16 MiB */
  readonly cacheMaxBytes?: number
  /** EpochDB: least ms between two JWKS refreshes forced by an unknown `kid`, default 10000 */
  readonly jwksRefreshCooldownMs?: number
  /**
   * Requests and logins that carry no OIDC token: `Authorization: Basic` and `Bearer qt…` (REST
   * tokens), pgwire users other than `_sso`. Default: the engine's own users
   * (`db.authenticate`, `db.authenticateToken`).
   */
  readonly local?: {
    readonly http?: (req: IncomingMessage) => Principal | null | Promise<Principal | null>
    readonly pgwire?: (c: PgCredentials) => Principal | null | Promise<Principal | null>
  }
  /** reasons for refusals and key refreshes (never the token) */
  readonly onLog?: (entry: OidcLogEntry) => void
  /** the clock in ms, default `Date.now` */
  readonly now?: () => number
}

/** The TLS trust of provider calls (`acl.oidc.tls.*`). */
export interface TlsTrust {
  /** PEM CA certificates (the keystore) */
  readonly ca?: Buffer
  /** false with `acl.oidc.tls.validation.enabled=false` */
  readonly rejectUnauthorized: boolean
}

/** The TLS trust the `acl.oidc.tls.*` keys ask for, or undefined for the defaults. */
function tlsTrust(o: OidcOptions): TlsTrust | undefined {
  const path = o.tlsKeystorePath ?? ''
  const password = o.tlsKeystorePassword ?? ''
  if ((path === '') !== (password === '')) throw new OidcConfigError('acl.oidc.tls.keystore.path and acl.oidc.tls.keystore.password must be set together')
  const rejectUnauthorized = o.tlsValidationEnabled ?? true
  if (path === '') return rejectUnauthorized ? undefined : { rejectUnauthorized }
  let bytes: Buffer
  try { bytes = readFileSync(path) } catch (e) { throw new OidcConfigError(`acl.oidc.tls.keystore.path: cannot read '${path}': ${(e as Error).message}`) }
  // QuestDB (Java) reads a JKS or PKCS#12 trust store; Node.js cannot load certificates without a key from PKCS#12
  if (!bytes.subarray(0, 4096).toString('latin1').includes('-----BEGIN CERTIFICATE-----')) {
    throw new OidcConfigError(`acl.oidc.tls.keystore.path: '${path}' is not a PEM file of CA certificates; convert a PKCS#12 trust store with: openssl pkcs12 -in store.p12 -nokeys -out store.pem (a JKS one with keytool -importkeystore to PKCS#12 first)`)
  }
  return { ca: bytes, rejectUnauthorized }
}

/** A configuration that cannot work; the message names the key. */
export class OidcConfigError extends Error {
  override readonly name = 'OidcConfigError'
}

/** The provider's endpoints, as absolute URLs. */
export interface Endpoints {
  readonly authorization: string
  readonly token: string
  readonly userinfo: string
  readonly jwks: string
  /** RP-initiated logout, when the discovery document has one */
  readonly endSession?: string
  /** RFC 8628 device authorization (published on `/settings`, never called), when known */
  readonly deviceAuthorization?: string
  /** the discovery document's `issuer` (checked against a JWT's `iss`), when known */
  readonly issuer?: string
}

/** Options with defaults filled in and checked. */
export interface ResolvedOidcOptions {
  readonly clientId: string
  readonly configurationUrl: string | undefined
  readonly tlsEnabled: boolean
  readonly scope: string
  readonly redirectUri: string | undefined
  readonly groupsClaims: readonly string[]
  readonly subClaims: readonly string[]
  readonly cacheTtlMs: number
  readonly pkceRequired: boolean
  readonly stateRequired: boolean
  readonly groupsEncodedInToken: boolean
  readonly audience: readonly string[]
  readonly publicKeysExpiryMs: number
  readonly pgTokenAsPassword: boolean
  readonly ropcFlowEnabled: boolean
  /** how provider calls check TLS; undefined: the system's CAs, validation on */
  readonly tls: TlsTrust | undefined
  readonly httpTimeoutMs: number
  readonly responseBufferSize: number
  readonly clockToleranceSec: number
  readonly negativeCacheTtlMs: number
  readonly cacheMaxEntries: number
  readonly cacheMaxBytes: number
  readonly jwksRefreshCooldownMs: number
  /** host mode: the endpoints built from host, port and paths; undefined with discovery */
  readonly hostEndpoints: Endpoints | undefined
  readonly now: () => number
}

const claimList = (key: string, v: string): string[] => {
  const list = v.split(',').map((s) => s.trim())
  if (list.length === 0 || list.some((s) => s.length === 0)) throw new OidcConfigError(`${key}: expected claim names separated by commas, got '${v}'`)
  if (new Set(list).size !== list.length) throw new OidcConfigError(`${key}: a claim is listed twice in '${v}'`)
  return list
}

function nonNegative(key: string, v: number | undefined, def: number): number {
  const n = v ?? def
  if (!Number.isFinite(n) || n < 0) throw new OidcConfigError(`${key}: expected a non-negative number, got ${String(v)}`)
  return n
}

/** Checks a provider URL and its scheme against `acl.oidc.tls.enabled`. */
export function checkUrl(key: string, url: string, tlsEnabled: boolean): string {
  let u: URL
  try { u = new URL(url) } catch { throw new OidcConfigError(`${key}: not an absolute URL: '${url}'`) }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new OidcConfigError(`${key}: expected an http or https URL, got '${url}'`)
  if ((u.protocol === 'https:') !== tlsEnabled) {
    throw new OidcConfigError(`${key}: '${url}' does not match acl.oidc.tls.enabled=${tlsEnabled} (${tlsEnabled ? 'https' : 'http'} expected)`)
  }
  return u.href
}

/** Fills in defaults and applies QuestDB's start-up rules. */
export function resolveOidcOptions(o: OidcOptions): ResolvedOidcOptions {
  if (typeof o.clientId !== 'string' || o.clientId.length === 0) throw new OidcConfigError('acl.oidc.client.id is required when acl.oidc.enabled=true')
  if (typeof o.groupsClaim !== 'string' || o.groupsClaim.trim().length === 0) throw new OidcConfigError('acl.oidc.groups.claim is required when acl.oidc.enabled=true')
  const hasHost = o.host !== undefined && o.host.length > 0
  const hasUrl = o.configurationUrl !== undefined && o.configurationUrl.length > 0
  if (hasHost === hasUrl) throw new OidcConfigError('exactly one of acl.oidc.host and acl.oidc.configuration.url must be set')
  const tlsEnabled = o.tlsEnabled ?? true
  const groupsClaims = claimList('acl.oidc.groups.claim', o.groupsClaim)
  const subClaims = claimList('acl.oidc.sub.claim', o.subClaim ?? 'sub')
  const overlap = subClaims.find((c) => groupsClaims.includes(c))
  if (overlap !== undefined) throw new OidcConfigError(`acl.oidc.sub.claim and acl.oidc.groups.claim both name '${overlap}'`)
  const audience = o.audience === undefined ? [o.clientId] : typeof o.audience === 'string' ? o.audience.split(',').map((s) => s.trim()).filter((s) => s !== '') : [...o.audience]
  if (audience.length === 0) throw new OidcConfigError('acl.oidc.audience: expected at least one audience')
  let hostEndpoints: Endpoints | undefined
  if (hasHost) {
    const port = o.port ?? 443
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new OidcConfigError(`acl.oidc.port: expected 1-65535, got ${port}`)
    const base = `${tlsEnabled ? 'https' : 'http'}://${o.host}:${port}`
    const at = (key: string, v: string): string => checkUrl(key, /^https?:\/\//i.test(v) ? v : base + (v.startsWith('/') ? v : '/' + v), tlsEnabled)
    hostEndpoints = {
      authorization: at('acl.oidc.authorization.endpoint', o.authorizationEndpoint ?? '/as/authorization.oauth2'),
      token: at('acl.oidc.token.endpoint', o.tokenEndpoint ?? '/as/token.oauth2'),
      userinfo: at('acl.oidc.userinfo.endpoint', o.userinfoEndpoint ?? '/idp/userinfo.openid'),
      jwks: at('acl.oidc.public.keys.endpoint', o.publicKeysEndpoint ?? '/pf/JWKS'),
      ...(o.deviceAuthorizationEndpoint === undefined || o.deviceAuthorizationEndpoint === ''
        ? {}
        : { deviceAuthorization: at('acl.oidc.device.authorization.endpoint', o.deviceAuthorizationEndpoint) }),
    }
  } else {
    checkUrl('acl.oidc.configuration.url', o.configurationUrl!, tlsEnabled)
  }
  const httpTimeoutMs = nonNegative('acl.oidc.http.timeout', o.httpTimeoutMs, 30_000)
  if (httpTimeoutMs === 0) throw new OidcConfigError('acl.oidc.http.timeout: expected a positive number of milliseconds')
  const responseBufferSize = nonNegative('acl.oidc.response.buffer.size', o.responseBufferSize, 1024 * 1024)
  if (responseBufferSize < 1024) throw new OidcConfigError('acl.oidc.response.buffer.size: expected at least 1K')
  return {
    clientId: o.clientId,
    configurationUrl: hasUrl ? o.configurationUrl : undefined,
    tlsEnabled,
    scope: o.scope ?? 'openid',
    redirectUri: o.redirectUri,
    groupsClaims, subClaims,
    cacheTtlMs: nonNegative('acl.oidc.cache.ttl', o.cacheTtlMs, 30_000),
    pkceRequired: o.pkceRequired ?? true,
    stateRequired: o.stateRequired ?? false,
    groupsEncodedInToken: o.groupsEncodedInToken ?? false,
    audience,
    publicKeysExpiryMs: nonNegative('acl.oidc.public.keys.expiry', o.publicKeysExpiryMs, 120_000),
    pgTokenAsPassword: o.pgTokenAsPassword ?? false,
    ropcFlowEnabled: o.ropcFlowEnabled ?? false,
    tls: tlsTrust(o),
    httpTimeoutMs, responseBufferSize,
    clockToleranceSec: nonNegative('acl.oidc.clock.tolerance', o.clockToleranceSec, 30),
    negativeCacheTtlMs: nonNegative('acl.oidc.negative.cache.ttl', o.negativeCacheTtlMs, 5_000),
    cacheMaxEntries: nonNegative('acl.oidc.cache.max.entries', o.cacheMaxEntries, 10_000),
    cacheMaxBytes: nonNegative('acl.oidc.cache.max.bytes', o.cacheMaxBytes, 16 * 1024 * 1024),
    jwksRefreshCooldownMs: nonNegative('acl.oidc.jwks.refresh.cooldown', o.jwksRefreshCooldownMs, 10_000),
    hostEndpoints,
    now: o.now ?? Date.now,
  }
}
