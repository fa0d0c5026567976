/**
 * Password guessing over REST Basic auth: failed logins are limited per client address and per
 * user; a locked-out client gets 429 with Retry-After and a QuestDB-style JSON error. Other
 * client addresses are 127.0.0.2, ... (loopback). Small limits keep every case fast.
 */
import t from 'tap'
import { LoginThrottle } from '../../lib/index.js'
import { basicAuth, selectOneFrom, startServer } from '../adapters/http/helpers.js'

const basic = basicAuth

const query = selectOneFrom

t.test('N wrong Basic passwords: 429 with Retry-After, even for the right password; others unaffected; expiry restores', { timeout: 30_000 }, async (t) => {
  const srv = await startServer({ user: 'joe', password: 'pw', loginThrottle: new LoginThrottle({ maxFailuresPerAddress: 3, maxFailuresPerUser: 10, lockoutMs: 1500 }) })
  t.teardown(() => srv.close())
  t.equal((await query(srv.port, undefined)).status, 401, 'no credentials: 401, not counted')
  t.equal((await query(srv.port, undefined)).status, 401)
  for (let i = 0; i < 3; i++) t.equal((await query(srv.port, basic('joe', `guess${i}`))).status, 401, `guess ${i + 1}`)
  const locked = await query(srv.port, basic('joe', 'pw'))
  t.equal(locked.status, 429, 'the right password is refused while locked out')
  t.match(locked.headers['retry-after'], /^[12]$/)
  t.match(locked.headers['content-type'], /^application\/json/)
  t.match(JSON.parse(locked.body), { query: '', error: /^too many failed login attempts, retry in [12] s$/, position: 0 })
  t.equal((await query(srv.port, basic('joe', 'pw'), '127.0.0.2')).status, 200, 'the same user from another address is served')
  await new Promise((r) => setTimeout(r, 1600))
  t.equal((await query(srv.port, basic('joe', 'pw'))).status, 200, 'the window expiry restores the address')
})

t.test('a guessing loop gets only N checks; pgwire and REST can share one throttle', { timeout: 30_000 }, async (t) => {
  const throttle = new LoginThrottle({ maxFailuresPerAddress: 5, maxFailuresPerUser: 0 })
  const srv = await startServer({ user: 'admin', password: 'quest', loginThrottle: throttle })
  t.teardown(() => srv.close())
  const statuses = new Map<number, number>()
  await Promise.all(Array.from({ length: 10 }, async (_, w) => {
    for (let i = 0; i < 20; i++) {
      const s = (await query(srv.port, basic('admin', `g${w}-${i}`))).status
      statuses.set(s, (statuses.get(s) ?? 0) + 1)
    }
  }))
  t.same(Object.fromEntries(statuses), { 401: 5, 429: 195 })
  t.equal(throttle.retryAfter('admin', '127.0.0.1') > 0, true, 'the shared throttle sees the lock (a pgwire adapter given it refuses too)')
})

t.test('memory stays bounded while an attacker rotates user names', { timeout: 30_000 }, async (t) => {
  const throttle = new LoginThrottle({ maxFailuresPerAddress: 10_000, maxFailuresPerUser: 3, maxEntries: 40 })
  const srv = await startServer({ user: 'admin', password: 'quest', loginThrottle: throttle })
  t.teardown(() => srv.close())
  for (let i = 0; i < 200; i++) await query(srv.port, basic(`u${i}`, 'x'), `127.0.2.${(i % 50) + 1}`)
  t.ok(throttle.size.users <= 40, `user entries ${throttle.size.users}`)
  t.ok(throttle.size.addresses <= 40, `address entries ${throttle.size.addresses}`)
})
