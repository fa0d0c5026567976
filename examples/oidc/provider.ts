/**
 * A development identity provider on `oidc-provider`: users with groups, automatic login for a
 * `login_hint` (or a one-field login form), automatic consent, public clients with PKCE and
 * refresh tokens, the device authorization grant (RFC 8628, `/device/auth`, the user enters the
 * code at `/device`), revocation and RP-initiated logout. For the example server and the tests —
 * never for production (in-memory storage, throwaway keys).
 */
import { createServer, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { generateKeyPairSync, randomUUID } from 'node:crypto'
import Provider, { type ClientMetadata, type KoaContextWithOIDC } from 'oidc-provider'

/** A user of the development provider. */
export interface DevUser {
  /** the `sub` claim */
  readonly sub: string
  name?: string
  /** the `groups` claim; `undefined` leaves the claim out */
  groups?: unknown
  /** more claims, e.g. of the wrong type for tests */
  extra?: Record<string, unknown>
  /** a password for the Resource Owner Password grant (`grant_type=password`); none: the grant refuses the user */
  password?: string
}

/** Options of {@link startDevProvider}. */
export interface DevProviderOptions {
  /** port to listen on, default 0 (any free port) */
  readonly port?: number
  /** users by `sub` (the map stays live: tests change groups) */
  readonly users: Map<string, DevUser>
  /** public clients: client id → redirect URIs */
  readonly clients: Readonly<Record<string, readonly string[]>>
  /** seconds an access token lives (read at each issue), default 3600 */
  accessTokenTtl?: () => number
  /** seconds an ID token lives, default 3600 */
  idTokenTtl?: () => number
  /** RSA signing keys (private JWKs); default one fresh key */
  readonly keys?: readonly object[]
  /** serve HTTPS with this key and certificate (PEM) instead of HTTP */
  readonly tls?: { readonly key: string; readonly cert: string }
  /** the device authorization grant (RFC 8628) and its discovery entry, default true */
  readonly deviceFlow?: boolean
  /** seconds a device client is told to wait between polls (`interval`), default 1 (RFC 8628's default is 5) */
  readonly devicePollInterval?: number
}

/** A running development provider. */
export interface DevProvider {
  readonly issuer: string
  readonly provider: Provider
  readonly server: Server
  /** `issuer + '/.well-known/openid-configuration'` */
  readonly discoveryUrl: string
  /** signs in `sub` with the Authorization Code flow + PKCE as a public client and returns the tokens */
  signIn(sub: string, clientId: string, redirectUri: string, scope?: string): Promise<TokenSet>
  /**
   * What the user does in a browser in the device flow, driven over HTTP: opens
   * `verificationUriComplete` (the code filled in), confirms it, signs in as `sub` (consent is
   * automatic). Resolves when the provider shows its success page.
   */
  approveDevice(verificationUriComplete: string, sub: string): Promise<void>
  /**
   * Moves an issued (opaque) access token past its expiry: its stored `exp` becomes a second
   * ago, so the provider's own expiry check refuses it from now on (user-info answers
   * `invalid_token`) — what the passing of its lifetime does, without a test waiting for it.
   */
  expireAccessToken(token: string): Promise<void>
  close(): Promise<void>
}

/** What the token endpoint answered. */
export interface TokenSet {
  readonly access_token: string
  readonly id_token?: string
  readonly refresh_token?: string
  readonly expires_in: number
}

/** A fresh RSA signing key as a private JWK with a `kid`. */
export function newSigningKey(): object {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', alg: 'RS256' }
}

/** Starts the provider on 127.0.0.1. */
export async function startDevProvider(o: DevProviderOptions): Promise<DevProvider> {
  const server: Server = o.tls === undefined ? createServer() : createHttpsServer({ key: o.tls.key, cert: o.tls.cert })
  await new Promise<void>((resolve) => server.listen(o.port ?? 0, '127.0.0.1', resolve))
  const issuer = `${o.tls === undefined ? 'http' : 'https'}://127.0.0.1:${(server.address() as AddressInfo).port}`
  const deviceFlow = o.deviceFlow ?? true
  const clients: ClientMetadata[] = Object.entries(o.clients).map(([id, uris]) => ({
    client_id: id, token_endpoint_auth_method: 'none', redirect_uris: [...uris], post_logout_redirect_uris: [...uris],
    grant_types: ['authorization_code', 'refresh_token', 'password', ...(deviceFlow ? [DEVICE_GRANT] : [])], response_types: ['code'],
  }))
  const provider = new Provider(issuer, {
    clients,
    jwks: { keys: (o.keys ?? [newSigningKey()]) as never },
    cookies: { keys: [randomUUID()] },
    // one machine, one clock: an expired token is refused at once (the default allows 15 s)
    clockTolerance: 0,
    claims: { openid: ['sub'], profile: ['name', 'preferred_username', 'groups'] },
    features: {
      devInteractions: { enabled: false }, revocation: { enabled: true },
      // RFC 8628 with plain pages (the default ones load web fonts)
      deviceFlow: {
        enabled: deviceFlow,
        userCodeInputSource: async (ctx, form, _out, err) => {
          ctx.type = 'html'
          ctx.body = `<!doctype html><title>Device sign-in</title><h1>Enter the code shown on your device</h1>${err === undefined ? '' : '<p>That code did not work; try again.</p>'}${form}<button type="submit" form="op.deviceInputForm">Continue</button>`
        },
        userCodeConfirmSource: async (ctx, form, client, _info, userCode) => {
          ctx.type = 'html'
          ctx.body = `<!doctype html><title>Confirm device</title><h1>Sign in ${client.clientId} with the code ${userCode}?</h1>${form}<button autofocus type="submit" form="op.deviceConfirmForm">Continue</button> <button type="submit" form="op.deviceConfirmForm" value="yes" name="abort">Abort</button>`
        },
        successSource: async (ctx) => {
          ctx.type = 'html'
          ctx.body = '<!doctype html><title>Signed in</title><h1>Device signed in</h1><p>You can close this page.</p>'
        },
      },
      // the sign-out confirmation as a plain page (the default one loads web fonts)
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.type = 'html'
          ctx.body = `<!doctype html><title>Sign out</title><h1>Sign out of the development provider?</h1>${form}<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button> <button type="submit" form="op.logoutForm">No, stay signed in</button>`
        },
      },
    },
    ttl: {
      AccessToken: () => o.accessTokenTtl?.() ?? 3600,
      IdToken: () => o.idTokenTtl?.() ?? 3600,
      Session: 3600, Interaction: 600, Grant: 3600, AuthorizationCode: 60, RefreshToken: 86400,
    },
    // refresh tokens for every client allowed the grant (no offline_access scope needed)
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // groups in the ID token too (the JWT mode reads them there)
    conformIdTokenClaims: false,
    async findAccount(_ctx, id) {
      const u = o.users.get(id)
      if (u === undefined) return undefined
      return {
        accountId: id,
        async claims() {
          const c: Record<string, unknown> = { sub: u.sub, ...u.extra }
          if (u.name !== undefined) { c.name = u.name; c.preferred_username = u.name }
          if (u.groups !== undefined) c.groups = u.groups
          return c as { sub: string }
        },
      }
    },
    // automatic consent: every requested scope is granted
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const clientId = ctx.oidc.client!.clientId
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(clientId)
      if (grantId !== undefined) {
        const g = await ctx.oidc.provider.Grant.find(grantId)
        if (g !== undefined) return g
      }
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId: ctx.oidc.session!.accountId! })
      grant.addOIDCScope('openid profile offline_access')
      await grant.save()
      ctx.oidc.session!.grantIdFor(clientId, grant.jti)
      return grant
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async renderError(ctx, out) {
      ctx.type = 'html'
      ctx.body = `<h1>${String(out.error)}</h1><p>${String(out.error_description ?? '')}</p>`
    },
  })
  provider.proxy = false
  registerPasswordGrant(provider, o.users)
  // oidc-provider leaves `interval` out (a client then waits RFC 8628's 5 s); tell a shorter one
  const interval = o.devicePollInterval ?? 1
  provider.on('device_authorization.success', (_ctx, body: Record<string, unknown>) => { body.interval = interval })
  const callback = provider.callback()
  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', issuer)
    if (!url.pathname.startsWith('/interaction/')) { callback(req, res); return }
    void interaction(provider, o.users, req, res, url).catch((e: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(e))
    })
  })
  return {
    issuer, provider, server, discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    signIn: (sub, clientId, redirectUri, scope) => signIn(issuer, sub, clientId, redirectUri, scope),
    approveDevice: (uri, sub) => approveDevice(uri, sub),
    expireAccessToken: async (token) => {
      const store = provider.AccessToken.adapter
      const payload = await store.find(token)
      if (payload === undefined) throw new Error('expireAccessToken: no such access token')
      // kept in the store (a minute), so the refusal is the expiry check's, not a missing record
      await store.upsert(token, { ...payload, exp: Math.floor(Date.now() / 1000) - 1 }, 60)
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}

/**
 * The Resource Owner Password grant (`grant_type=password`, RFC 6749 §4.3), which oidc-provider
 * no longer ships: a user with a `password` gets an access token (userinfo answers for it) for
 * the scopes `openid profile`. QuestDB's `acl.oidc.ropc.flow.enabled` uses it.
 */
function registerPasswordGrant(provider: Provider, users: Map<string, DevUser>): void {
  provider.registerGrantType('password', async (ctx) => {
    const params = ctx.oidc.params as { username?: string; password?: string }
    const u = params.username === undefined ? undefined : users.get(params.username)
    if (u === undefined || u.password === undefined || u.password !== params.password) {
      ctx.status = 400
      ctx.body = { error: 'invalid_grant', error_description: 'invalid username or password' }
      return
    }
    const client = ctx.oidc.client!
    const grant = new provider.Grant({ clientId: client.clientId, accountId: u.sub })
    grant.addOIDCScope('openid profile')
    const grantId = await grant.save()
    const at = new provider.AccessToken({ accountId: u.sub, client, grantId, scope: 'openid profile', gty: 'password' })
    const value = await at.save()
    ctx.body = { access_token: value, token_type: 'Bearer', expires_in: at.expiration, scope: 'openid profile' }
  }, ['username', 'password', 'scope'])
}

/** The login step: `login_hint` (or the form's `user`) signs in at once; no password (development only). */
async function interaction(provider: Provider, users: Map<string, DevUser>, req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, url: URL): Promise<void> {
  const details = await provider.interactionDetails(req, res)
  const user = url.searchParams.get('user') ?? (details.params.login_hint as string | undefined)
  if (details.prompt.name === 'login') {
    if (user === undefined || !users.has(user)) {
      const names = [...users.keys()].map((u) => `<button name="user" value="${u}">${u}</button>`).join(' ')
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Sign in</title><h1>Development provider: sign in as</h1><form method="get">${names}</form>`)
      return
    }
    await provider.interactionFinished(req, res, { login: { accountId: user } }, { mergeWithLastSubmission: false })
    return
  }
  // consent is granted by loadExistingGrant; anything else just resumes
  await provider.interactionFinished(req, res, {}, { mergeWithLastSubmission: true })
}

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'

/**
 * How long one request of a scripted sign-in may take: a provider that stops answering fails the
 * sign-in with the URL it stopped at, instead of leaving the caller waiting for ever.
 */
const HOP_TIMEOUT_MS = 20_000

/** A browser's cookie jar and form posts, enough for the provider's own pages. */
class Browser {
  private readonly cookies = new Map<string, string>()
  async go(url: string, init: { method?: string; body?: URLSearchParams } = {}): Promise<Response> {
    const headers: Record<string, string> = { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
    if (init.body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded'
    const r = await fetch(url, { redirect: 'manual', method: init.method ?? 'GET', headers, signal: AbortSignal.timeout(HOP_TIMEOUT_MS), ...(init.body === undefined ? {} : { body: init.body }) })
    for (const c of r.headers.getSetCookie()) { const [kv] = c.split(';'); const i = kv!.indexOf('='); this.cookies.set(kv!.slice(0, i), kv!.slice(i + 1)) }
    return r
  }
}

/** The hidden inputs of the first form in `html` (the provider's own pages). */
function hiddenInputs(html: string): URLSearchParams {
  const form = new URLSearchParams()
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)) {
    form.set(m[1]!, m[2]!.replace(/&#(\d+);|&(amp|lt|gt|quot);/g, (_x, n: string | undefined, e: string | undefined) => n !== undefined ? String.fromCharCode(Number(n)) : ({ amp: '&', lt: '<', gt: '>', quot: '"' })[e as 'amp']))
  }
  return form
}

/** The user's side of the device flow, driven over HTTP (see {@link DevProvider.approveDevice}). */
async function approveDevice(verificationUriComplete: string, sub: string): Promise<void> {
  const b = new Browser()
  const action = new URL(verificationUriComplete)
  action.search = ''
  // the page with the code filled in posts itself (a script); post its form the way it would
  let r = await b.go(verificationUriComplete)
  r = await b.go(action.href, { method: 'POST', body: hiddenInputs(await r.text()) })
  // the confirmation page: post its form (confirm=yes)
  const confirm = hiddenInputs(await r.text())
  if (confirm.get('confirm') !== 'yes') throw new Error(`device approval: no confirmation form (HTTP ${r.status})`)
  let url = action.href
  r = await b.go(url, { method: 'POST', body: confirm })
  for (let hop = 0; hop < 10; hop++) {
    const loc = r.headers.get('location')
    if (loc === null) {
      const page = await r.text()
      if (r.status === 200 && page.includes('Device signed in')) return
      throw new Error(`device approval stopped at ${url}: HTTP ${r.status} ${page.slice(0, 200)}`)
    }
    await r.body?.cancel()
    const next = new URL(loc, url)
    // the login page: this user
    if (next.pathname.startsWith('/interaction/') && !next.searchParams.has('user')) next.searchParams.set('user', sub)
    url = next.href
    r = await b.go(url)
  }
  throw new Error('device approval: too many redirects')
}

/** The Authorization Code + PKCE flow driven over HTTP (redirects followed, cookies kept). */
async function signIn(issuer: string, sub: string, clientId: string, redirectUri: string, scope = 'openid profile'): Promise<TokenSet> {
  const { createHash, randomBytes } = await import('node:crypto')
  const verifier = randomBytes(48).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  const q = new URLSearchParams({ client_id: clientId, response_type: 'code', scope, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', login_hint: sub })
  const cookies = new Map<string, string>()
  let url = `${issuer}/auth?${q}`
  for (let hop = 0; hop < 10; hop++) {
    const init = (): RequestInit => ({ redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') }, signal: AbortSignal.timeout(HOP_TIMEOUT_MS) })
    // once more on a pooled keep-alive socket the provider closed (a restarted provider)
    const r = await fetch(url, init()).catch(() => fetch(url, init()))
    for (const c of r.headers.getSetCookie()) { const [kv] = c.split(';'); const i = kv!.indexOf('='); cookies.set(kv!.slice(0, i), kv!.slice(i + 1)) }
    const loc = r.headers.get('location')
    if (loc === null) throw new Error(`sign-in stopped at ${url}: HTTP ${r.status} ${(await r.text()).slice(0, 200)}`)
    const next = new URL(loc, url)
    if (next.href.startsWith(redirectUri)) {
      const code = next.searchParams.get('code')
      if (code === null) throw new Error(`sign-in refused: ${next.search}`)
      const t = await fetch(`${issuer}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: redirectUri }), signal: AbortSignal.timeout(HOP_TIMEOUT_MS) })
      const body = await t.json() as TokenSet
      if (t.status !== 200) throw new Error(`token endpoint: ${JSON.stringify(body)}`)
      return body
    }
    await r.body?.cancel()
    url = next.href
  }
  throw new Error('sign-in: too many redirects')
}
