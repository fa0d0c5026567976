/**
 * The standalone server's OpenID Connect keys (QuestDB Enterprise's `acl.oidc.*`, env
 * `QDB_ACL_OIDC_*`, plus a few of EpochDB's own), turned into the guard's options and checked
 * at load time with QuestDB's start-up rules (the message names the key).
 */
import { type OidcOptions, OidcConfigError, checkUrl, resolveOidcOptions } from './options.js'

type Kind = 'bool' | 'string' | 'int' | 'size'

/** The `acl.oidc.*` keys with their kind and default. */
export const OIDC_KEYS: Readonly<Record<string, { kind: Kind; def: string | undefined }>> = {
  'acl.oidc.enabled': { kind: 'bool', def: 'false' },
  'acl.oidc.client.id': { kind: 'string', def: undefined },
  'acl.oidc.configuration.url': { kind: 'string', def: undefined },
  'acl.oidc.host': { kind: 'string', def: undefined },
  'acl.oidc.port': { kind: 'int', def: '443' },
  'acl.oidc.tls.enabled': { kind: 'bool', def: 'true' },
  'acl.oidc.tls.validation.enabled': { kind: 'bool', def: 'true' },
  'acl.oidc.tls.keystore.path': { kind: 'string', def: undefined },
  'acl.oidc.tls.keystore.password': { kind: 'string', def: undefined },
  'acl.oidc.ropc.flow.enabled': { kind: 'bool', def: 'false' },
  'acl.oidc.authorization.endpoint': { kind: 'string', def: undefined },
  'acl.oidc.token.endpoint': { kind: 'string', def: undefined },
  'acl.oidc.userinfo.endpoint': { kind: 'string', def: undefined },
  'acl.oidc.public.keys.endpoint': { kind: 'string', def: undefined },
  'acl.oidc.device.authorization.endpoint': { kind: 'string', def: undefined },
  'acl.oidc.scope': { kind: 'string', def: 'openid' },
  'acl.oidc.redirect.uri': { kind: 'string', def: undefined },
  'acl.oidc.groups.claim': { kind: 'string', def: undefined },
  'acl.oidc.sub.claim': { kind: 'string', def: 'sub' },
  'acl.oidc.cache.ttl': { kind: 'int', def: '30000' },
  'acl.oidc.pkce.required': { kind: 'bool', def: 'true' },
  'acl.oidc.state.required': { kind: 'bool', def: 'false' },
  'acl.oidc.groups.encoded.in.token': { kind: 'bool', def: 'false' },
  'acl.oidc.audience': { kind: 'string', def: undefined },
  'acl.oidc.public.keys.expiry': { kind: 'string', def: '120000' },
  'acl.oidc.pg.token.as.password.enabled': { kind: 'bool', def: 'false' },
  'acl.oidc.http.timeout': { kind: 'int', def: '30000' },
  'acl.oidc.response.buffer.size': { kind: 'size', def: '1M' },
  // EpochDB's own
  'acl.oidc.clock.tolerance': { kind: 'int', def: '30' },
  'acl.oidc.negative.cache.ttl': { kind: 'int', def: '5000' },
  'acl.oidc.cache.max.entries': { kind: 'int', def: '10000' },
  'acl.oidc.cache.max.bytes': { kind: 'size', def: '16M' },
}

/** How the loader reads a key (already checked against its kind). */
export interface KeyReader {
  str(key: string): string | undefined
  bool(key: string): boolean
  int(key: string): number | undefined
  size(key: string): number | undefined
  /** ms; a bare number is ms, or 500ms, 60s, 2m, 1h */
  duration(key: string): number
}

/** The guard's options, or undefined when `acl.oidc.enabled` is false. Throws {@link OidcConfigError} naming the key. */
export function oidcConfig(r: KeyReader): OidcOptions | undefined {
  const tlsEnabled = r.bool('acl.oidc.tls.enabled')
  const url = r.str('acl.oidc.configuration.url')
  // parsed and scheme-checked even when OIDC is off, as QuestDB does
  if (url !== undefined) checkUrl('acl.oidc.configuration.url', url, tlsEnabled)
  if (!r.bool('acl.oidc.enabled')) return undefined
  const options: OidcOptions = {
    clientId: r.str('acl.oidc.client.id') ?? '',
    configurationUrl: url,
    host: r.str('acl.oidc.host'),
    port: r.int('acl.oidc.port'),
    tlsEnabled,
    authorizationEndpoint: r.str('acl.oidc.authorization.endpoint'),
    tokenEndpoint: r.str('acl.oidc.token.endpoint'),
    userinfoEndpoint: r.str('acl.oidc.userinfo.endpoint'),
    publicKeysEndpoint: r.str('acl.oidc.public.keys.endpoint'),
    deviceAuthorizationEndpoint: r.str('acl.oidc.device.authorization.endpoint'),
    scope: r.str('acl.oidc.scope'),
    redirectUri: r.str('acl.oidc.redirect.uri'),
    groupsClaim: r.str('acl.oidc.groups.claim') ?? '',
    subClaim: r.str('acl.oidc.sub.claim'),
    cacheTtlMs: r.int('acl.oidc.cache.ttl'),
    pkceRequired: r.bool('acl.oidc.pkce.required'),
    stateRequired: r.bool('acl.oidc.state.required'),
    groupsEncodedInToken: r.bool('acl.oidc.groups.encoded.in.token'),
    audience: r.str('acl.oidc.audience'),
    publicKeysExpiryMs: r.duration('acl.oidc.public.keys.expiry'),
    pgTokenAsPassword: r.bool('acl.oidc.pg.token.as.password.enabled'),
    ropcFlowEnabled: r.bool('acl.oidc.ropc.flow.enabled'),
    tlsValidationEnabled: r.bool('acl.oidc.tls.validation.enabled'),
    tlsKeystorePath: r.str('acl.oidc.tls.keystore.path'),
    tlsKeystorePassword: r.str('acl.oidc.tls.keystore.password'),
    httpTimeoutMs: r.int('acl.oidc.http.timeout'),
    responseBufferSize: r.size('acl.oidc.response.buffer.size'),
    clockToleranceSec: r.int('acl.oidc.clock.tolerance'),
    negativeCacheTtlMs: r.int('acl.oidc.negative.cache.ttl'),
    cacheMaxEntries: r.int('acl.oidc.cache.max.entries'),
    cacheMaxBytes: r.size('acl.oidc.cache.max.bytes'),
  }
  resolveOidcOptions(options) // the start-up rules, before anything listens
  return options
}

export { OidcConfigError }
