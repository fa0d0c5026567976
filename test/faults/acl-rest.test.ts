/**
 * Attacks on REST logins with access control on: a huge Basic header, guessing REST tokens (the
 * login throttle locks the address, never a user), Basic guesses against the engine's users.
 * Other client addresses are 127.0.0.2, ... (loopback). Small limits keep every case fast.
 */
import t, { type Test } from 'tap'
import { Database, LoginThrottle } from '../../lib/index.js'
import { basicAuth, selectOneFrom, startServer } from '../adapters/http/helpers.js'

const basic = basicAuth

const query = selectOneFrom

async function aclServer(t: Test, throttle: LoginThrottle | false): Promise<number> {
  const db = await Database.open({ acl: { enabled: true, admin: { user: 'root', password: 'pw1' } } })
  const srv = await startServer({ loginThrottle: throttle }, db)
  t.teardown(() => srv.close())
  return srv.port
}

t.test('a huge Basic header is refused without harm; the server keeps serving', { timeout: 30_000 }, async (t) => {
  const port = await aclServer(t, false)
  const started = Date.now()
  const huge = await query(port, basic('root', 'x'.repeat(12_000)))
  t.equal(huge.status, 401, 'a 16 KB-class header is a wrong password')
  const tooBig = await query(port, 'Basic ' + 'A'.repeat(200_000)).catch(() => ({ status: 0 }))
  t.ok(tooBig.status === 431 || tooBig.status === 0 || tooBig.status === 401, `beyond the header limit: refused (${tooBig.status})`)
  t.ok(Date.now() - started < 20_000, 'did not freeze')
  t.equal((await query(port, basic('root', 'pw1'))).status, 200)
})

t.test('guessing REST tokens locks the address, not a user; other addresses are served', { timeout: 30_000 }, async (t) => {
  const throttle = new LoginThrottle({ maxFailuresPerAddress: 5, maxFailuresPerUser: 3, lockoutMs: 5_000 })
  const port = await aclServer(t, throttle)
  const statuses: number[] = []
  for (let i = 0; i < 40; i++) statuses.push((await query(port, `Bearer qt1guess${i}`)).status)
  t.same([statuses.filter((s) => s === 401).length, statuses.filter((s) => s === 429).length], [5, 35], 'only 5 tokens are checked')
  t.equal((await query(port, basic('root', 'pw1'))).status, 429, 'the address is locked, even for good credentials')
  // spread over addresses: each stays under its limit, and no user name gathers the failures
  for (let a = 2; a < 8; a++) for (let i = 0; i < 2; i++) t.equal((await query(port, `Bearer qt1spread${a}-${i}`, `127.0.0.${a}`)).status, 401)
  t.equal((await query(port, basic('root', 'pw1'), '127.0.0.9')).status, 200, 'root is not locked out by bad tokens')
})

t.test('Basic guesses against the engine\'s users: N checks, then 429; unknown users count alike', { timeout: 30_000 }, async (t) => {
  const throttle = new LoginThrottle({ maxFailuresPerAddress: 4, maxFailuresPerUser: 0 })
  const port = await aclServer(t, throttle)
  const statuses = new Map<number, number>()
  await Promise.all(Array.from({ length: 5 }, async (_, w) => {
    for (let i = 0; i < 10; i++) {
      const s = (await query(port, basic(i % 2 === 0 ? 'root' : `nobody${i}`, `g${w}-${i}`))).status
      statuses.set(s, (statuses.get(s) ?? 0) + 1)
    }
  }))
  // the engine's password check is asynchronous (PBKDF2 off the event loop): attempts in flight
  // when the limit is reached are still checked, so a burst of 5 gets at most 4 + 5 checks
  const checked = statuses.get(401) ?? 0
  t.ok(checked >= 4 && checked <= 9, `${checked} passwords checked`)
  t.equal(checked + (statuses.get(429) ?? 0), 50, 'every other attempt refused with 429')
  t.equal((await query(port, basic('root', 'pw1'))).status, 429, 'locked out, even with the right password')
})
