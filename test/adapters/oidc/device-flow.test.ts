/**
 * The device flow as QuestDB Enterprise has it (`acl.oidc.device.authorization.endpoint`): the
 * server never calls the endpoint, it publishes it on `/settings` (from the discovery document's
 * `device_authorization_endpoint`, or from the key in host mode), and a client runs RFC 8628
 * itself (examples/oidc/device-flow.ts) against the real oidc-provider, then uses the token on
 * REST and as the pgwire `_sso` password through the guard, with grants from EXTERNAL ALIAS.
 */
import t from 'tap'
import pg from 'pg'
import { Database } from '../../../lib/index.js'
import { createOidcGuard } from '../../../adapters/oidc/index.js'
import { deviceSignIn, type DevicePrompt } from '../../../examples/oidc/device-flow.js'
import { startDevProvider } from '../../../examples/oidc/provider.js'
import { get } from '../http/helpers.js'
import { startServer } from '../pgwire/helpers.js'
import { CONSOLE, defaultUsers, REDIRECT, setup } from './helpers.js'

/**
 * The user's side, started from a client callback; a failure of it surfaces at the client's next
 * poll (thrown from `onPending`), so a broken approval fails the test at once instead of leaving
 * the client polling until the code expires.
 */
function userSide(): { start(p: Promise<void>): void; check(): void; done(): Promise<void> } {
  let running: Promise<void> | undefined
  let failure: unknown
  return {
    start: (p) => { running ??= p.catch((e: unknown) => { failure = e }) },
    check: () => { if (failure !== undefined) throw failure },
    done: async () => { await running; if (failure !== undefined) throw failure },
  }
}

t.test('a client signs in with the device flow and uses the token on REST and pgwire', async (t) => {
  const db = await Database.open({ acl: { enabled: true } })
  for (const sql of [
    'create table trades (ts timestamp, sym symbol, price double) timestamp(ts)',
    "insert into trades values ('2024-01-01T00:00:00Z', 'btc', 1.5)",
    "CREATE GROUP analysts WITH EXTERNAL ALIAS 'analysts'",
    'GRANT HTTP, PGWIRE TO analysts',
    'GRANT SELECT ON trades TO analysts',
  ]) await db.query(sql)
  // the development provider puts `groups` in the profile scope; clients ask for the server's scope
  const s = await setup({ pgTokenAsPassword: true, cacheTtlMs: 60_000, scope: 'openid profile' }, {}, {}, db)
  const srv = await startServer({ authenticate: s.guard.pgwire, cleartextUser: s.guard.cleartextUser }, db)
  t.teardown(async () => { await srv.close(); await s.close() })
  t.equal(s.guard.settings['acl.oidc.scope'], 'openid profile')

  // /settings publishes the discovered endpoint, unauthenticated
  const settings = await get(s.port, '/settings')
  t.equal(settings.status, 200)
  const config = (JSON.parse(settings.body) as { config: Record<string, unknown> }).config
  t.equal(config['acl.oidc.device.authorization.endpoint'], `${s.idp.issuer}/device/auth`, 'from the discovery document')

  // the client: the user approves in "a browser" only after the client has polled once and
  // heard authorization_pending, so the poll loop is exercised, not raced
  let prompt: DevicePrompt | undefined
  const pending: string[] = []
  const user = userSide()
  const tokens = await deviceSignIn({
    server: `http://127.0.0.1:${s.port}`,
    prompt: (p) => { prompt = p },
    onPending: (e) => {
      pending.push(e)
      user.check()
      user.start(s.idp.approveDevice(prompt!.verificationUriComplete!, 'alice'))
    },
  })
  await user.done()
  t.match(prompt, { verificationUri: `${s.idp.issuer}/device`, userCode: /^[A-Z]{4}-[A-Z]{4}$/ })
  t.same(pending.slice(0, 1), ['authorization_pending'], 'the client polled while the user had not approved yet')
  t.equal(tokens.token, tokens.accessToken, 'userinfo mode: the access token is presented')
  t.type(tokens.refreshToken, 'string', 'a refresh token for later')

  // REST with the token: alice's groups through the alias
  const q = (sql: string): Promise<{ status: number; body: string }> => get(s.port, `/exec?query=${encodeURIComponent(sql)}`, { authorization: `Bearer ${tokens.token}` })
  const ok = await q('select current_user(), sym, price from trades')
  t.equal(ok.status, 200, ok.body)
  t.same(JSON.parse(ok.body).dataset, [['alice', 'btc', 1.5]])
  t.equal((await q("insert into trades values ('2024-01-02T00:00:00Z', 'eth', 2.0)")).status, 403, 'grants still apply: no INSERT')

  // pgwire: user _sso, the token as the password
  const c = new pg.Client({ host: '127.0.0.1', port: srv.port, user: '_sso', password: tokens.token, database: 'qdb' })
  await c.connect()
  t.same((await c.query('select current_user() u, count(*) n from trades')).rows, [{ u: 'alice', n: '1' }])
  await c.end()

  // an approved code is used up: the same user code cannot be approved twice
  await t.rejects(s.idp.approveDevice(prompt!.verificationUriComplete!, 'alice'), /device approval/)
})

t.test('ID-token mode: the client presents the ID token, checked locally', async (t) => {
  const db = await Database.open({ acl: { enabled: true } })
  for (const sql of ["CREATE GROUP analysts WITH EXTERNAL ALIAS 'analysts'", 'GRANT HTTP TO analysts']) await db.query(sql)
  const s = await setup({ groupsEncodedInToken: true, scope: 'openid profile' }, {}, {}, db)
  t.teardown(() => s.close())
  const user = userSide()
  const tokens = await deviceSignIn({
    server: `http://127.0.0.1:${s.port}`,
    prompt: (p) => { user.start(s.idp.approveDevice(p.verificationUriComplete!, 'alice')) },
    onPending: () => { user.check() },
  })
  await user.done()
  t.equal(tokens.token, tokens.idToken)
  t.not(tokens.token, tokens.accessToken)
  const r = await get(s.port, `/exec?query=${encodeURIComponent('select current_user()')}`, { authorization: `Bearer ${tokens.token}` })
  t.equal(r.status, 200, r.body)
  t.same(JSON.parse(r.body).dataset, [['alice']])
})

t.test('a refused code: the client stops with the provider\'s answer', async (t) => {
  const s = await setup()
  t.teardown(() => s.close())
  const user = userSide()
  await t.rejects(deviceSignIn({
    server: `http://127.0.0.1:${s.port}`,
    prompt: (p) => { user.start(abort(p.verificationUriComplete!)) },
    onPending: () => { user.check() },
  }), /device sign-in failed: End-User aborted interaction/)
  await user.done()

  // the user presses Abort on the confirmation page
  async function abort(uri: string): Promise<void> {
    const jar: string[] = []
    const go = async (url: string, body?: URLSearchParams): Promise<string> => {
      const r = await fetch(url, { method: body === undefined ? 'GET' : 'POST', redirect: 'manual', headers: { cookie: jar.join('; '), ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) }, ...(body === undefined ? {} : { body }) })
      for (const c of r.headers.getSetCookie()) jar.push(c.split(';')[0]!)
      return r.text()
    }
    const hidden = (html: string): URLSearchParams => new URLSearchParams([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)].map((m) => [m[1]!, m[2]!]))
    const action = uri.split('?')[0]!
    const confirm = hidden(await go(action, hidden(await go(uri))))
    confirm.delete('confirm')
    confirm.set('abort', 'yes')
    await go(action, confirm)
  }
})

t.test('where the endpoint comes from, and when it is left out', async (t) => {
  // a provider without the device grant: nothing to publish, and the client says so
  const plain = await setup({}, { deviceFlow: false })
  t.teardown(() => plain.close())
  t.equal(plain.guard.settings['acl.oidc.device.authorization.endpoint'], undefined)
  const body = (JSON.parse((await get(plain.port, '/settings')).body) as { config: Record<string, unknown> }).config
  t.notOk('acl.oidc.device.authorization.endpoint' in body, 'left out of /settings when unresolved (QuestDB does the same)')
  await t.rejects(deviceSignIn({ server: `http://127.0.0.1:${plain.port}`, prompt: () => undefined }), /publishes no acl\.oidc\.device\.authorization\.endpoint/)

  // with discovery the key is ignored, as every endpoint key is in that mode
  const db = await Database.open()
  t.teardown(() => db.close())
  const ignored = await createOidcGuard(db, { configurationUrl: plain.idp.discoveryUrl, tlsEnabled: false, clientId: CONSOLE, groupsClaim: 'groups', deviceAuthorizationEndpoint: 'http://127.0.0.1:1/device' })
  t.equal(ignored.settings['acl.oidc.device.authorization.endpoint'], undefined)

  // host mode: the key, a path on the provider's host (or an absolute URL)
  const idp = await startDevProvider({ users: defaultUsers(), clients: { [CONSOLE]: [REDIRECT] } })
  t.teardown(() => idp.close())
  const port = new URL(idp.issuer).port
  const host = { host: '127.0.0.1', port: Number(port), tlsEnabled: false, clientId: CONSOLE, groupsClaim: 'groups', authorizationEndpoint: '/auth', tokenEndpoint: '/token', userinfoEndpoint: '/me', publicKeysEndpoint: '/jwks' }
  const byPath = await createOidcGuard(db, { ...host, deviceAuthorizationEndpoint: '/device/auth' })
  t.equal(byPath.settings['acl.oidc.device.authorization.endpoint'], `${idp.issuer}/device/auth`)
  const none = await createOidcGuard(db, host)
  t.equal(none.settings['acl.oidc.device.authorization.endpoint'], undefined, 'no default: unset means unpublished')
  await t.rejects(createOidcGuard(db, { ...host, deviceAuthorizationEndpoint: 'https://idp.example/device' }), /acl\.oidc\.device\.authorization\.endpoint: .* does not match acl\.oidc\.tls\.enabled=false/)
})
