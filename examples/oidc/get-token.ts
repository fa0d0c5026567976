/**
 * Prints an access token of a development-provider user, signed in with the Authorization Code
 * flow + PKCE as the `report-script` client (a second client id beside the console's): for psql
 * (`PGPASSWORD=$(…) psql -U _sso`) or curl (`Authorization: Bearer …`).
 *
 *   node --import tsx examples/oidc/get-token.ts alice
 */
const issuer = process.env.OIDC_ISSUER ?? 'http://127.0.0.1:9080'
const user = process.argv[2] ?? 'alice'
const { createHash, randomBytes } = await import('node:crypto')
const redirect = 'http://127.0.0.1/callback'
const verifier = randomBytes(48).toString('base64url')
const q = new URLSearchParams({ client_id: 'report-script', response_type: 'code', scope: 'openid profile', redirect_uri: redirect, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', login_hint: user })
const cookies = new Map<string, string>()
let url = `${issuer}/auth?${q}`
for (let hop = 0; hop < 10; hop++) {
  const r = await fetch(url, { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } })
  for (const c of r.headers.getSetCookie()) { const kv = c.split(';')[0]!; const i = kv.indexOf('='); cookies.set(kv.slice(0, i), kv.slice(i + 1)) }
  const next = new URL(r.headers.get('location') ?? '', url)
  if (r.headers.get('location') === null) throw new Error(`sign-in stopped: HTTP ${r.status}`)
  if (next.href.startsWith(redirect)) {
    const code = next.searchParams.get('code') ?? ''
    const t = await fetch(`${issuer}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: 'report-script', redirect_uri: redirect }) })
    const body = await t.json() as { access_token?: string; error_description?: string }
    if (body.access_token === undefined) throw new Error(body.error_description ?? 'no token')
    console.log(body.access_token)
    process.exit(0)
  }
  url = next.href
}
throw new Error('too many redirects')
