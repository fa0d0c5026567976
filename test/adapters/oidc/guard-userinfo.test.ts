/**
 * The guard in user-info mode against a real oidc-provider: the REST outcomes (200 / 401 / 503),
 * the identity cache (TTL, single flight, negative cache, flush), tokens of a second client id,
 * and /settings.
 *
 * No test waits for time to pass: the guard's clock is injected (`now`) and moved by the test,
 * so "cached until exactly cache.ttl" holds however slow the machine is; a token's expiry at the
 * provider is the provider's own check, with the token's stored `exp` moved into the past.
 */
import t from 'tap'
import { CONSOLE, SCRIPT, setup } from './helpers.js'

/** A clock the test moves: the guard's `now`, standing still unless told. */
function manualClock(): { now: () => number; advance: (ms: number) => void } {
  let ms = Date.now()
  return { now: () => ms, advance: (d) => { ms += d } }
}

t.test('a signed-in user queries with a Bearer token; current_user() is the subject', async (t) => {
  const s = await setup()
  t.teardown(() => s.close())
  const token = await s.token('alice')
  const r = await s.query('select current_user()', token)
  t.equal(r.status, 200, r.body)
  t.match(JSON.parse(r.body).dataset, [['alice']])
  const line = s.logs.find((l) => (l as { path?: string }).path === '/exec') as Record<string, unknown>
  t.match(line, { user: 'alice', name: 'Alice Analyst', status: 200 }, 'the request log names sub and name')
  t.notMatch(JSON.stringify(s.logs), token, 'the token is never logged')
})

t.test('no token, garbage, malformed, revoked, expired: 401 with QuestDB\'s body', async (t) => {
  const s = await setup()
  t.teardown(() => s.close())
  t.equal((await s.query('select 1')).status, 401, 'no Authorization header')
  const garbage = await s.query('select 1', 'garbage-token-123')
  t.equal(garbage.status, 401)
  t.equal(garbage.body, 'Unauthorized\r\n')
  t.equal((await s.query('select 1', 'Bearer a b c')).status, 401, 'malformed header')
  t.equal((await s.query('select 1', 'Bearer ' + 'x'.repeat(20000))).status, 401, 'oversized token, refused without a provider call')
  t.equal((await s.query('select 1', 'Bearer <script>')).status, 401, 'not token68')
  // revoked at the provider: refused once the cache entry is gone
  const revoked = await s.token('alice')
  t.equal((await s.query('select 1', revoked)).status, 200)
  const rv = await fetch(`${s.idp.issuer}/token/revocation`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: revoked, client_id: CONSOLE }) })
  t.equal(rv.status, 200, 'revoked at the provider')
  t.equal(s.guard.invalidate('alice'), 1, 'flushing alice drops her cached identity')
  t.equal((await s.query('select 1', revoked)).status, 401, 'revoked token: 401 after the flush')
  // expired: accepted while valid, refused once the provider's clock is past its expiry
  const short = await s.token('alice')
  t.equal((await s.query('select 1', short)).status, 200)
  await s.idp.expireAccessToken(short)
  s.guard.invalidate()
  t.equal((await s.query('select 1', short)).status, 401, 'expired token: 401')
})

t.test('a token issued to another client id (a script) works in user-info mode', async (t) => {
  const s = await setup()
  t.teardown(() => s.close())
  const r = await s.query('select current_user()', await s.token('alice', SCRIPT))
  t.equal(r.status, 200, r.body)
})

t.test('missing or empty groups: authenticated with no groups; wrong-typed groups: 401', async (t) => {
  const s = await setup()
  t.teardown(() => s.close())
  const bob = await s.guard.identify(await s.token('bob'))
  t.same(bob.groups, [], 'no groups claim: no groups')
  const carol = await s.guard.identify(await s.token('carol'))
  t.same(carol.groups, [])
  const p = await s.guard.principal(await s.token('carol'), 'HTTP')
  t.match(p, { name: 'carol', kind: 'external', externalGroups: [] })
  t.equal((await s.query('select 1', await s.token('dave'))).status, 401, 'groups: 42 is refused')
})

t.test('the cache: one provider call per token per TTL, single flight, negative cache, bounded', async (t) => {
  const clock = manualClock()
  const s = await setup({ cacheTtlMs: 30_000, negativeCacheTtlMs: 60_000, now: clock.now })
  t.teardown(() => s.close())
  const token = await s.token('alice')
  const before = s.guard.stats().validations
  const replies = await Promise.all(Array.from({ length: 20 }, () => s.query('select 1', token)))
  t.same(replies.map((r) => r.status), Array(20).fill(200))
  t.equal(s.guard.stats().validations - before, 1, '20 concurrent requests, one validation')
  await s.query('select 1', token)
  t.equal(s.guard.stats().validations - before, 1, 'cached')
  clock.advance(29_999)
  await s.query('select 1', token)
  t.equal(s.guard.stats().validations - before, 1, 'still cached 1 ms before cache.ttl')
  clock.advance(1)
  await s.query('select 1', token)
  t.equal(s.guard.stats().validations - before, 2, 'stale at cache.ttl: validated again')
  const v = s.guard.stats().validations
  for (let i = 0; i < 10; i++) t.equal((await s.query('select 1', 'bad-token')).status, 401)
  t.equal(s.guard.stats().validations - v, 1, 'ten requests with one bad token, one provider call')
})

t.test('cache.ttl=0: every request asks the provider', async (t) => {
  const s = await setup({ cacheTtlMs: 0 })
  t.teardown(() => s.close())
  const token = await s.token('alice')
  const v = s.guard.stats().validations
  for (let i = 0; i < 3; i++) t.equal((await s.query('select 1', token)).status, 200)
  t.equal(s.guard.stats().validations - v, 3)
})

t.test('a group change at the provider shows after cache.ttl, not before', async (t) => {
  const clock = manualClock()
  const s = await setup({ cacheTtlMs: 800, now: clock.now })
  t.teardown(() => s.close())
  const token = await s.token('alice')
  t.same((await s.guard.identify(token)).groups, ['analysts', 'cn=readers,dc=example'])
  s.users.get('alice')!.groups = ['ops']
  t.same((await s.guard.identify(token)).groups, ['analysts', 'cn=readers,dc=example'], 'not at once')
  clock.advance(799)
  t.same((await s.guard.identify(token)).groups, ['analysts', 'cn=readers,dc=example'], 'not 1 ms before the TTL')
  clock.advance(1)
  t.same((await s.guard.identify(token)).groups, ['ops'], 'at the TTL')
})

t.test('provider down: 503 "identity provider unreachable", then recovery', async (t) => {
  const s = await setup({ httpTimeoutMs: 2000, cacheTtlMs: 0 })
  t.teardown(() => s.close())
  const token = await s.token('alice')
  t.equal((await s.query('select 1', token)).status, 200)
  const port = new URL(s.idp.issuer).port
  await s.idp.close()
  const down = await s.query('select 1', token)
  t.equal(down.status, 503)
  t.match(JSON.parse(down.body).error, /^identity provider unreachable/)
  await new Promise<void>((resolve) => s.idp.server.listen(Number(port), '127.0.0.1', resolve))
  t.equal((await s.query('select 1', token)).status, 200, 'served again once the provider is back')
})

t.test('/settings publishes the console keys without authentication', async (t) => {
  const s = await setup({ scope: 'openid profile', stateRequired: true, redirectUri: 'http://localhost:9000/' })
  t.teardown(() => s.close())
  const { get } = await import('../http/helpers.js')
  const r = await get(s.port, '/settings')
  t.equal(r.status, 200)
  const c = JSON.parse(r.body).config
  t.match(c, {
    'acl.enabled': true, 'acl.oidc.enabled': true, 'acl.oidc.client.id': CONSOLE, 'acl.oidc.scope': 'openid profile',
    'acl.oidc.redirect.uri': 'http://localhost:9000/', 'acl.oidc.pkce.required': true, 'acl.oidc.state.required': true,
    'acl.oidc.groups.encoded.in.token': false,
    'acl.oidc.authorization.endpoint': `${s.idp.issuer}/auth`, 'acl.oidc.token.endpoint': `${s.idp.issuer}/token`,
    'acl.oidc.end.session.endpoint': `${s.idp.issuer}/session/end`,
  })
})

t.test('Basic for local users keeps working beside Bearer', async (t) => {
  const s = await setup()
  t.teardown(() => s.close())
  const basic = 'Basic ' + Buffer.from('admin:quest').toString('base64')
  t.equal((await s.query('select current_user()', basic)).status, 200)
  t.equal((await s.query('select 1', 'Basic ' + Buffer.from('admin:wrong').toString('base64'))).status, 401)
})
