/**
 * `groups.encoded.in.token`: ID tokens from a real oidc-provider verified locally with its key
 * set — audience list, expiry, forged keys, key rotation (an unknown kid reloads the set at
 * once) and the rate limit on reloads.
 */
import t from 'tap'
import { SignJWT, importJWK, type JWK } from 'jose'
import { newSigningKey, startDevProvider } from '../../../examples/oidc/provider.js'
import { CONSOLE, REDIRECT, SCRIPT, setup } from './helpers.js'

t.test('ID tokens verify locally; the provider is never asked per request', async (t) => {
  const s = await setup({ groupsEncodedInToken: true })
  t.teardown(() => s.close())
  const token = await s.token('alice')
  const r = await s.query('select current_user()', token)
  t.equal(r.status, 200, r.body)
  t.match(JSON.parse(r.body).dataset, [['alice']])
  t.same((await s.guard.identify(token)).groups, ['analysts', 'cn=readers,dc=example'], 'groups from the ID token')
  t.equal(s.guard.stats().keyFetches, 1, 'the key set fetched once')
  t.equal((await s.query('select 1', 'not.a.jwt')).status, 401)
})

t.test('audience: the console\'s client id by default; a list admits a script\'s tokens', async (t) => {
  const s = await setup({ groupsEncodedInToken: true })
  t.teardown(() => s.close())
  t.equal((await s.query('select 1', await s.token('alice', SCRIPT))).status, 401, 'aud nightly-report refused by default')
  const s2 = await setup({ groupsEncodedInToken: true, audience: [CONSOLE, SCRIPT] })
  t.teardown(() => s2.close())
  t.equal((await s2.query('select 1', await s2.token('alice', SCRIPT))).status, 200, 'accepted when listed')
})

t.test('expired ID token: 401, exactly at exp past the clock tolerance', async (t) => {
  // the guard's clock is injected and set by the test: no waiting, whatever the machine's load
  let clock = Date.now()
  const s = await setup({ groupsEncodedInToken: true, clockToleranceSec: 5, cacheTtlMs: 0, now: () => clock }, { idTokenTtl: () => 60 })
  t.teardown(() => s.close())
  const token = await s.token('alice')
  const exp = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp * 1000
  clock = Date.now()
  t.equal((await s.query('select 1', token)).status, 200, 'valid when issued')
  clock = exp + 5000 - 1000
  t.equal((await s.query('select 1', token)).status, 200, 'a second before exp + tolerance: accepted')
  clock = exp + 5000
  t.equal((await s.query('select 1', token)).status, 401, 'at exp + tolerance: refused')
  clock = exp + 3600_000
  t.equal((await s.query('select 1', token)).status, 401, 'an hour later: refused')
})

t.test('forged tokens: 401; an unknown kid reloads the key set at most once per cool-down', async (t) => {
  const s = await setup({ groupsEncodedInToken: true, jwksRefreshCooldownMs: 60_000, negativeCacheTtlMs: 0 })
  t.teardown(() => s.close())
  const real = await s.token('alice')
  t.equal((await s.query('select 1', real)).status, 200)
  const realKid = JSON.parse(Buffer.from(real.split('.')[0]!, 'base64url').toString()).kid as string
  const forger = await importJWK(newSigningKey() as JWK, 'RS256')
  const forge = (kid: string): Promise<string> => new SignJWT({ groups: ['admins'] }).setProtectedHeader({ alg: 'RS256', kid })
    .setSubject('mallory').setAudience(CONSOLE).setIssuer(s.idp.issuer).setIssuedAt().setExpirationTime('5m').sign(forger)
  t.equal((await s.query('select 1', await forge(realKid))).status, 401, 'the provider\'s kid, another key: bad signature')
  const fetches = s.guard.stats().keyFetches
  t.equal((await s.query('select 1', await forge('unknown-1'))).status, 401, 'unknown kid')
  t.equal(s.guard.stats().keyFetches, fetches + 1, 'an unknown kid reloads the key set')
  for (let i = 0; i < 5; i++) t.equal((await s.query('select 1', await forge(`unknown-x${i}`))).status, 401)
  t.equal(s.guard.stats().keyFetches, fetches + 1, 'no more reloads within the cool-down')
  const hs = await new SignJWT({}).setProtectedHeader({ alg: 'HS256', kid: realKid }).setSubject('mallory').setAudience(CONSOLE).setExpirationTime('5m').sign(new TextEncoder().encode('secret'))
  t.equal((await s.query('select 1', hs)).status, 401, 'HS256 refused')
})

t.test('key rotation: tokens signed by a new key verify at once, the old key keeps working while published', async (t) => {
  const keyA = newSigningKey()
  const s = await setup({ groupsEncodedInToken: true, jwksRefreshCooldownMs: 0 }, { keys: [keyA] })
  t.teardown(() => s.close())
  const old = await s.token('alice')
  t.equal((await s.query('select 1', old)).status, 200)
  // the provider restarts on the same address signing with B and still publishing A
  const port = Number(new URL(s.idp.issuer).port)
  await s.idp.close()
  const rotated = await startDevProvider({ port, users: s.users, clients: { [CONSOLE]: [REDIRECT] }, keys: [newSigningKey(), keyA] })
  t.teardown(() => rotated.close())
  const fresh = (await rotated.signIn('alice', CONSOLE, REDIRECT)).id_token!
  t.not(JSON.parse(Buffer.from(fresh.split('.')[0]!, 'base64url').toString()).kid, JSON.parse(Buffer.from(old.split('.')[0]!, 'base64url').toString()).kid)
  const before = s.guard.stats().keyFetches
  t.equal((await s.query('select 1', fresh)).status, 200, 'new kid: the key set reloaded at once')
  t.equal(s.guard.stats().keyFetches, before + 1)
  s.guard.invalidate()
  t.equal((await s.query('select 1', old)).status, 200, 'the old key is still published')
})
