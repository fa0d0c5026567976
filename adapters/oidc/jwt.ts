/**
 * `acl.oidc.groups.encoded.in.token`: a JWT verified locally with the provider's JWKS (jose):
 * an asymmetric signature by a key of the set, `aud` one of the accepted audiences, `exp` and
 * `nbf` with a small clock tolerance, and `iss` equal to the discovery document's issuer when
 * there is one (QuestDB checks neither `iss` nor `nbf`).
 *
 * The key set is cached for `acl.oidc.public.keys.expiry`; a token signed with a `kid` the set
 * does not have reloads it at once, at most once per cool-down, so key rotation works without
 * waiting and a flood of forged `kid`s cannot hammer the provider.
 */
import { type JSONWebKeySet, type JWTPayload, createLocalJWKSet, errors as joseErrors, jwtVerify } from 'jose'
import { unauthenticated, unavailable } from './errors.js'
import type { Endpoints, ResolvedOidcOptions } from './options.js'
import { jsonObject, providerFetch, limitsOf } from './provider-fetch.js'

/** Signature algorithms accepted: asymmetric only (no `none`, no HMAC with a public key). */
export const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519']

type KeySet = ReturnType<typeof createLocalJWKSet>

/** The provider's key set, cached and refreshed. */
export class Jwks {
  private keys: KeySet | undefined
  private loadedAt = Number.NEGATIVE_INFINITY
  /** when an unknown `kid` last forced a reload: the cool-down runs from there */
  private forcedAt = Number.NEGATIVE_INFINITY
  private loading: Promise<KeySet> | undefined
  /** key-set downloads so far */
  fetches = 0

  constructor(private readonly url: string, private readonly o: ResolvedOidcOptions, private readonly log: (msg: string, extra?: object) => void) {}

  /**
   * The key set, downloaded when missing, stale, or when `force` (an unknown `kid`) and no other
   * unknown `kid` forced a download within the cool-down.
   */
  async get(force = false): Promise<KeySet> {
    const now = this.o.now()
    const stale = this.keys === undefined || now - this.loadedAt >= this.o.publicKeysExpiryMs
    const forced = !stale && force && now - this.forcedAt >= this.o.jwksRefreshCooldownMs
    if (!stale && !forced) return this.keys!
    if (forced) this.forcedAt = now
    this.loading ??= this.load().finally(() => { this.loading = undefined })
    return this.loading
  }

  private async load(): Promise<KeySet> {
    this.fetches++
    const r = await providerFetch(this.url, limitsOf(this.o), { headers: { accept: 'application/json' } })
    if (r.status !== 200) throw unavailable(`the key set at ${this.url} answered HTTP ${r.status}`)
    const doc = jsonObject(r, 'the key set')
    if (!Array.isArray(doc.keys)) throw unavailable(`the key set at ${this.url} has no keys array`)
    try {
      this.keys = createLocalJWKSet(doc as unknown as JSONWebKeySet)
    } catch (e) {
      throw unavailable(`the key set at ${this.url} is invalid: ${(e as Error).message}`)
    }
    this.loadedAt = this.o.now()
    this.log('oidc key set loaded', { keys: doc.keys.length })
    return this.keys
  }
}

/** Verifies `token`; returns its claims, or throws a 401 / 503 OidcError. */
export async function verifyJwt(token: string, jwks: Jwks, o: ResolvedOidcOptions, endpoints: Endpoints): Promise<JWTPayload> {
  if (token.split('.').length !== 3) throw unauthenticated('not a JWT')
  const verify = async (keys: KeySet): Promise<JWTPayload> => {
    const { payload } = await jwtVerify(token, keys, {
      algorithms: ALGORITHMS,
      audience: [...o.audience],
      issuer: endpoints.issuer,
      clockTolerance: o.clockToleranceSec,
      currentDate: new Date(o.now()),
      requiredClaims: ['exp'],
    })
    return payload
  }
  try {
    try {
      return await verify(await jwks.get())
    } catch (e) {
      if (!(e instanceof joseErrors.JWKSNoMatchingKey)) throw e
      return await verify(await jwks.get(true))
    }
  } catch (e) {
    if ((e as { failure?: string }).failure !== undefined) throw e
    if (e instanceof joseErrors.JOSEError) throw unauthenticated(`JWT refused: ${e.code}: ${e.message}`)
    throw unauthenticated(`JWT refused: ${(e as Error).message}`)
  }
}
