/// <reference lib="dom" />
/**
 * The console's OpenID Connect sign-in: the Authorization Code flow with PKCE as `/settings`
 * describes it. The verifier and state wait in sessionStorage during the round trip to the
 * provider; the tokens live in memory only. The access token (the ID token with
 * `groups.encoded.in.token`) is refreshed with the refresh token before it expires: every
 * request asks for the header, and a refresh in progress makes it wait, so none leaves with a
 * token about to expire.
 */
import { challengeS256, jwtClaims, randomToken } from './pkce.js'

/** The `/settings` keys the sign-in reads. */
export interface OidcConfig {
  readonly clientId: string
  readonly authorizationEndpoint: string
  readonly tokenEndpoint: string
  readonly endSessionEndpoint: string | undefined
  readonly scope: string
  readonly redirectUri: string
  readonly pkceRequired: boolean
  readonly stateRequired: boolean
  readonly groupsEncodedInToken: boolean
}

/** The OIDC part of `/settings`, or undefined when OIDC is off. */
export function oidcConfig(c: Readonly<Record<string, unknown>>): OidcConfig | undefined {
  if (c['acl.enabled'] !== true || c['acl.oidc.enabled'] !== true) return undefined
  const str = (k: string): string | undefined => (typeof c[k] === 'string' && c[k] !== '' ? c[k] as string : undefined)
  const authorizationEndpoint = str('acl.oidc.authorization.endpoint')
  const tokenEndpoint = str('acl.oidc.token.endpoint')
  const clientId = str('acl.oidc.client.id')
  if (authorizationEndpoint === undefined || tokenEndpoint === undefined || clientId === undefined) return undefined
  return {
    clientId, authorizationEndpoint, tokenEndpoint,
    endSessionEndpoint: str('acl.oidc.end.session.endpoint'),
    scope: str('acl.oidc.scope') ?? 'openid',
    redirectUri: str('acl.oidc.redirect.uri') ?? location.origin + location.pathname,
    pkceRequired: c['acl.oidc.pkce.required'] !== false,
    stateRequired: c['acl.oidc.state.required'] === true,
    groupsEncodedInToken: c['acl.oidc.groups.encoded.in.token'] === true,
  }
}

const VERIFIER = 'epochdb.oauth.verifier'
const STATE = 'epochdb.oauth.state'
const RETURN = 'epochdb.oauth.return'
const PROMPT = 'epochdb.oauth.prompt'
/** Callback parameters removed from the address after the sign-in. */
const CALLBACK_PARAMS = ['code', 'state', 'error', 'error_description', 'session_state', 'iss']

interface Tokens {
  readonly access: string
  readonly id: string | undefined
  readonly refresh: string | undefined
  /** ms since the epoch; undefined when the provider did not say */
  readonly expiresAt: number | undefined
  /** the lifetime the provider gave, ms */
  readonly lifetime: number | undefined
}

/** A failed sign-in step, with the provider's words. */
export class SignInError extends Error {}

/** One browser tab's sign-in. */
export class OidcSession {
  private tokens: Tokens | undefined
  private refreshing: Promise<void> | undefined
  private timer: ReturnType<typeof setTimeout> | undefined
  /** refreshes done (tests read it through `epochConsole.auth`) */
  refreshes = 0

  constructor(readonly config: OidcConfig) {}

  /** True when the address is the provider's callback (`?code=` or `?error=`). */
  static isCallback(): boolean {
    const q = new URLSearchParams(location.search)
    return q.has('code') || q.has('error')
  }

  /**
   * Leaves for the provider's sign-in page; `prompt=none` asks for a silent sign-in (the
   * provider's own session), whose refusal comes back as an `?error=` callback.
   */
  async begin(prompt?: 'login' | 'none'): Promise<never> {
    const c = this.config
    const q = new URLSearchParams({ client_id: c.clientId, response_type: 'code', scope: c.scope, redirect_uri: c.redirectUri })
    if (c.pkceRequired) {
      const verifier = randomToken()
      sessionStorage.setItem(VERIFIER, verifier)
      q.set('code_challenge', await challengeS256(verifier))
      q.set('code_challenge_method', 'S256')
    }
    if (c.stateRequired) {
      const state = randomToken()
      sessionStorage.setItem(STATE, state)
      q.set('state', state)
    }
    if (prompt !== undefined) q.set('prompt', prompt)
    if (prompt === 'none') sessionStorage.setItem(PROMPT, 'none')
    else sessionStorage.removeItem(PROMPT)
    // the page's own parameters come back after the round trip
    const own = new URLSearchParams(location.search)
    for (const p of CALLBACK_PARAMS) own.delete(p)
    sessionStorage.setItem(RETURN, own.toString())
    location.assign(`${c.authorizationEndpoint}${c.authorizationEndpoint.includes('?') ? '&' : '?'}${q.toString()}`)
    return new Promise<never>(() => undefined)
  }

  /**
   * True (once) when this callback answers a silent sign-in the provider could not do
   * (`?error=login_required` and the like after `prompt=none`): the caller then signs in
   * interactively, once, as QuestDB's console does.
   */
  static silentSignInFailed(): boolean {
    const silent = sessionStorage.getItem(PROMPT) === 'none'
    sessionStorage.removeItem(PROMPT)
    return silent && new URLSearchParams(location.search).has('error')
  }

  /** Exchanges the callback's code for tokens and restores the address. */
  async complete(): Promise<void> {
    const c = this.config
    const q = new URLSearchParams(location.search)
    const expected = sessionStorage.getItem(STATE)
    const verifier = sessionStorage.getItem(VERIFIER)
    sessionStorage.removeItem(STATE)
    sessionStorage.removeItem(VERIFIER)
    const back = sessionStorage.getItem(RETURN) ?? ''
    sessionStorage.removeItem(RETURN)
    history.replaceState(null, '', location.pathname + (back === '' ? '' : `?${back}`) + location.hash)
    if (q.has('error')) throw new SignInError(`the identity provider refused the sign-in: ${q.get('error_description') ?? q.get('error')}`)
    if (c.stateRequired && (expected === null || expected !== q.get('state'))) throw new SignInError('the sign-in answer does not match this tab (state); sign in again')
    const body = new URLSearchParams({ grant_type: 'authorization_code', code: q.get('code') ?? '', client_id: c.clientId, redirect_uri: c.redirectUri })
    if (verifier !== null) body.set('code_verifier', verifier)
    await this.tokenRequest(body)
  }

  private async tokenRequest(body: URLSearchParams): Promise<void> {
    let res: Response
    try {
      res = await fetch(this.config.tokenEndpoint, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body })
    } catch {
      throw new SignInError('identity provider unreachable')
    }
    const t = await res.json().catch(() => ({})) as { access_token?: string; id_token?: string; refresh_token?: string; expires_in?: number; error?: string; error_description?: string }
    if (typeof t.access_token !== 'string') throw new SignInError(`the identity provider did not issue a token: ${t.error_description ?? t.error ?? `HTTP ${res.status}`}`)
    const lifetime = typeof t.expires_in === 'number' ? t.expires_in * 1000 : undefined
    this.tokens = {
      access: t.access_token, id: t.id_token ?? this.tokens?.id,
      refresh: t.refresh_token ?? this.tokens?.refresh,
      expiresAt: lifetime === undefined ? undefined : Date.now() + lifetime, lifetime,
    }
    this.schedule()
  }

  /** How long before expiry a refresh happens: 30 s, or a third of a short lifetime. */
  private margin(): number {
    return Math.min(30_000, (this.tokens?.lifetime ?? 90_000) / 3)
  }

  /** A refresh ahead of time, so an idle console is still signed in when next used. */
  private schedule(): void {
    clearTimeout(this.timer)
    const t = this.tokens
    if (t?.refresh === undefined || t.expiresAt === undefined) return
    this.timer = setTimeout(() => { void this.refresh().catch(() => undefined) }, Math.max(0, t.expiresAt - this.margin() - Date.now()))
  }

  private refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const r = this.tokens?.refresh
        if (r === undefined) return
        await this.tokenRequest(new URLSearchParams({ grant_type: 'refresh_token', refresh_token: r, client_id: this.config.clientId }))
        this.refreshes++
      } finally {
        this.refreshing = undefined
      }
    })()
    return this.refreshing
  }

  /** The `Authorization` header value, refreshed first when the token is close to expiry. */
  async authorization(): Promise<string | undefined> {
    if (this.refreshing !== undefined) await this.refreshing.catch(() => undefined)
    const t = this.tokens
    if (t === undefined) return undefined
    if (t.refresh !== undefined && t.expiresAt !== undefined && t.expiresAt - Date.now() < this.margin()) await this.refresh().catch(() => undefined)
    const now = this.tokens!
    const token = this.config.groupsEncodedInToken ? now.id ?? now.access : now.access
    return `Bearer ${token}`
  }

  /** The signed-in user's display name from the ID token, if it has one. */
  displayName(): string | undefined {
    const c = jwtClaims(this.tokens?.id)
    const n = c?.name ?? c?.preferred_username ?? c?.email
    return typeof n === 'string' ? n : undefined
  }

  /** Forgets the tokens; leaves for the provider's end-session endpoint when it has one. */
  signOut(): void {
    clearTimeout(this.timer)
    const id = this.tokens?.id
    this.tokens = undefined
    const end = this.config.endSessionEndpoint
    if (end === undefined) return
    const q = new URLSearchParams({ client_id: this.config.clientId, post_logout_redirect_uri: this.config.redirectUri })
    if (id !== undefined) q.set('id_token_hint', id)
    location.assign(`${end}${end.includes('?') ? '&' : '?'}${q.toString()}`)
  }
}
