/**
 * Signs in to an EpochDB (or QuestDB Enterprise) server from a machine without a browser, with the
 * OAuth 2.0 Device Authorization Grant (RFC 8628) run entirely by the client: the server only
 * publishes where the provider is (`GET /settings`: `acl.oidc.client.id`, `acl.oidc.scope`,
 * `acl.oidc.token.endpoint`, `acl.oidc.device.authorization.endpoint`,
 * `acl.oidc.groups.encoded.in.token`) and later checks the token like any other.
 *
 *   node --import tsx examples/oidc/device-flow.ts http://localhost:9000
 *   # Open http://127.0.0.1:9080/device and enter the code WDJB-MJHT   (on stderr)
 *   # eyJhbGciOi...                                                    (the token, on stdout)
 *
 * The token goes as `Authorization: Bearer <token>` on REST, or as the pgwire password of user
 * `_sso` (`acl.oidc.pg.token.as.password.enabled`). With `acl.oidc.groups.encoded.in.token` it is
 * the ID token, else the access token (as QuestDB's console and clients choose).
 */
import { pathToFileURL } from 'node:url'

/** What the user must do, shown once the provider has made a code. */
export interface DevicePrompt {
  readonly verificationUri: string
  readonly userCode: string
  /** the verification page with the code filled in, when the provider gives one */
  readonly verificationUriComplete: string | undefined
  /** seconds the code stays valid */
  readonly expiresIn: number
}

/** Options of {@link deviceSignIn}. */
export interface DeviceSignInOptions {
  /** the EpochDB server's HTTP address, e.g. `http://localhost:9000` */
  readonly server: string
  /** tells the user where to go and which code to enter */
  readonly prompt: (p: DevicePrompt) => void
  /** each poll that found the user not done yet (`authorization_pending` / `slow_down`) */
  readonly onPending?: (error: 'authorization_pending' | 'slow_down') => void
  /** scopes, default the server's `acl.oidc.scope` */
  readonly scope?: string
}

/** The tokens the provider issued, and the one to present to the server. */
export interface DeviceTokens {
  /** the ID token with `acl.oidc.groups.encoded.in.token`, else the access token */
  readonly token: string
  readonly accessToken: string
  readonly idToken: string | undefined
  readonly refreshToken: string | undefined
  readonly expiresIn: number | undefined
}

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'

async function form(url: string, fields: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: new URLSearchParams(fields) })
  const text = await r.text()
  let body: Record<string, unknown>
  try { body = JSON.parse(text) as Record<string, unknown> } catch { throw new Error(`${url}: HTTP ${r.status}, not JSON: ${text.slice(0, 120)}`) }
  return { status: r.status, body }
}

/**
 * Runs the device flow against the provider the server names, and resolves with the tokens once
 * the user has approved the code (or rejects when the user refuses or the code expires).
 */
export async function deviceSignIn(o: DeviceSignInOptions): Promise<DeviceTokens> {
  const r = await fetch(new URL('/settings', o.server))
  if (r.status !== 200) throw new Error(`${o.server}/settings: HTTP ${r.status}`)
  const config = ((await r.json()) as { config?: Record<string, unknown> }).config ?? {}
  if (config['acl.enabled'] !== true || config['acl.oidc.enabled'] !== true) throw new Error('the server does not use OpenID Connect (acl.oidc.enabled)')
  const str = (k: string): string => {
    const v = config[k]
    if (typeof v !== 'string' || v === '') throw new Error(`the server publishes no ${k}`)
    return v
  }
  const clientId = str('acl.oidc.client.id')
  const tokenEndpoint = str('acl.oidc.token.endpoint')
  const deviceEndpoint = str('acl.oidc.device.authorization.endpoint')
  const idTokenMode = config['acl.oidc.groups.encoded.in.token'] === true
  let scope = o.scope ?? (typeof config['acl.oidc.scope'] === 'string' ? config['acl.oidc.scope'] : 'openid')
  // an ID token needs the openid scope
  if (idTokenMode && !scope.split(' ').includes('openid')) scope = `openid ${scope}`

  // RFC 8628 §3.1-3.2: ask for a device code and a user code
  const start = await form(deviceEndpoint, { client_id: clientId, scope })
  if (start.status !== 200) throw new Error(`device authorization refused: ${String(start.body.error_description ?? start.body.error ?? start.status)}`)
  const b = start.body
  const deviceCode = b.device_code, userCode = b.user_code, verificationUri = b.verification_uri
  if (typeof deviceCode !== 'string' || typeof userCode !== 'string' || typeof verificationUri !== 'string') throw new Error('device authorization: incomplete answer')
  const expiresIn = typeof b.expires_in === 'number' ? b.expires_in : 600
  o.prompt({ verificationUri, userCode, verificationUriComplete: typeof b.verification_uri_complete === 'string' ? b.verification_uri_complete : undefined, expiresIn })

  // §3.4-3.5: poll the token endpoint, `interval` seconds apart (5 when not given), +5 s on slow_down
  let interval = typeof b.interval === 'number' && b.interval > 0 ? b.interval : 5
  const deadline = Date.now() + expiresIn * 1000
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, interval * 1000))
    if (Date.now() > deadline) throw new Error('the device code expired before it was approved')
    const t = await form(tokenEndpoint, { grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: clientId })
    if (t.status === 200) {
      const access = t.body.access_token
      if (typeof access !== 'string') throw new Error('token endpoint: no access_token')
      const id = typeof t.body.id_token === 'string' ? t.body.id_token : undefined
      if (idTokenMode && id === undefined) throw new Error('token endpoint: no id_token (acl.oidc.groups.encoded.in.token needs it)')
      return {
        token: idTokenMode ? id! : access, accessToken: access, idToken: id,
        refreshToken: typeof t.body.refresh_token === 'string' ? t.body.refresh_token : undefined,
        expiresIn: typeof t.body.expires_in === 'number' ? t.body.expires_in : undefined,
      }
    }
    const error = t.body.error
    if (error === 'authorization_pending' || error === 'slow_down') {
      if (error === 'slow_down') interval += 5
      o.onPending?.(error)
      continue
    }
    throw new Error(`device sign-in failed: ${String(t.body.error_description ?? error ?? t.status)}`)
  }
}

// run as a script: the prompt on stderr, the token on stdout
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = process.argv[2] ?? 'http://localhost:9000'
  const tokens = await deviceSignIn({
    server,
    prompt: (p) => {
      process.stderr.write(`Open ${p.verificationUri} and enter the code ${p.userCode}\n`)
      if (p.verificationUriComplete !== undefined) process.stderr.write(`(or open ${p.verificationUriComplete})\n`)
    },
  })
  process.stdout.write(`${tokens.token}\n`)
}
