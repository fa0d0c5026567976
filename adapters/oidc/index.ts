/**
 * EpochDB's OpenID Connect guard: the database as an OAuth 2.0 resource server. Bearer access
 * tokens on REST, tokens as the pgwire password, validated at the provider's user-info endpoint
 * (cached) or locally as JWTs against its key set; the principal is the engine's external
 * principal, whose permissions follow the groups' EXTERNAL ALIASes.
 *
 * @example
 * ```ts
 * import { Database } from 'epochdb'
 * import { createHttpServer } from 'epochdb/http'
 * import { createPgwireServer } from 'epochdb/pgwire'
 * import { createOidcGuard } from 'epochdb/oidc'
 * const db = await Database.open({ acl: { enabled: true } })
 * const guard = await createOidcGuard(db, {
 *   configurationUrl: 'https://idp.example.com/.well-known/openid-configuration',
 *   clientId: 'epochdb-console', groupsClaim: 'groups', pgTokenAsPassword: true,
 * })
 * createHttpServer(db, { authenticate: guard.http, settings: guard.settings }).listen(9000)
 * createPgwireServer(db, { authenticate: guard.pgwire, cleartextUser: guard.cleartextUser }).listen(8812)
 * ```
 * @packageDocumentation
 * @module epochdb/oidc
 */
export { createOidcGuard, SSO_USER, MAX_TOKEN_LENGTH } from './guard.js'
export type { OidcGuard } from './guard.js'
export { OidcConfigError, resolveOidcOptions } from './options.js'
/** The standalone server's `acl.oidc.*` keys and their reading into {@link OidcOptions}. */
export { OIDC_KEYS, oidcConfig } from './server-keys.js'
export type { KeyReader } from './server-keys.js'
export type { OidcOptions, ResolvedOidcOptions, Endpoints, PgCredentials, OidcLogEntry, TlsTrust } from './options.js'
export { OidcError } from './errors.js'
export type { OidcFailure } from './errors.js'
export type { Identity, IdentityCacheStats } from './identity-cache.js'
