import t from 'tap'
import { LoginThrottle, addressKey } from '../../../lib/security/login-throttle.js'

function clock(): { now: () => number; advance: (ms: number) => void } {
  let t0 = 1_000_000
  return { now: () => t0, advance: (ms) => { t0 += ms } }
}

/** One attempt that fails (true when it was admitted). */
function fail(th: LoginThrottle, user: string, addr: string): boolean {
  const a = th.begin(user, addr)
  if (a.allowed) a.failed()
  return a.allowed
}

t.test('N failures from one address lock it out, even for the right password; others are unaffected', async (t) => {
  const c = clock()
  const events: unknown[] = []
  const th = new LoginThrottle({ maxFailuresPerAddress: 3, maxFailuresPerUser: 10, lockoutMs: 60_000, now: c.now, onLockout: (e) => events.push(e) })
  for (let i = 0; i < 3; i++) t.ok(fail(th, 'admin', '10.0.0.1'), `attempt ${i + 1} admitted`)
  t.same(events, [{ scope: 'address', key: '10.0.0.1', failures: 3, lockoutMs: 60_000 }], 'one lock-out event')
  const locked = th.begin('admin', '10.0.0.1')
  t.equal(locked.allowed, false, 'the 4th attempt is refused before any password check')
  t.equal(!locked.allowed && locked.retryAfterMs, 60_000)
  t.equal(th.begin('bob', '10.0.0.1').allowed, false, 'the address is locked for every user')
  t.ok(th.retryAfter('admin', '10.0.0.1') > 0)
  const other = th.begin('admin', '10.0.0.2')
  t.ok(other.allowed, 'the same user from another address still gets in')
  if (other.allowed) other.succeeded()
  c.advance(30_000)
  t.equal(th.retryAfter('admin', '10.0.0.1'), 30_000, 'retry-after counts down')
  c.advance(30_000)
  t.equal(th.retryAfter('admin', '10.0.0.1'), 0, 'the window expiry restores the address')
  t.ok(fail(th, 'admin', '10.0.0.1'), 'and counting starts over')
})

t.test('a success refunds its own charge; failures expire with the window', async (t) => {
  const c = clock()
  const th = new LoginThrottle({ maxFailuresPerAddress: 3, maxFailuresPerUser: 0, lockoutMs: 1000, now: c.now })
  for (let i = 0; i < 20; i++) {
    const a = th.begin('u', '1.1.1.1')
    t.ok(a.allowed)
    if (a.allowed) a.succeeded()
  }
  fail(th, 'u', '1.1.1.1'); fail(th, 'u', '1.1.1.1')
  c.advance(1001)
  fail(th, 'u', '1.1.1.1'); fail(th, 'u', '1.1.1.1')
  t.equal(th.retryAfter('u', '1.1.1.1'), 0, 'two failures per window never reach three')
})

t.test('attempts in progress count against the limit, but only failures lock', async (t) => {
  const strict = new LoginThrottle({ maxFailuresPerAddress: 5, maxFailuresPerUser: 0, maxPending: 0, now: clock().now })
  const burst = Array.from({ length: 100 }, () => strict.begin('admin', '10.0.0.9'))
  t.equal(burst.filter((a) => a.allowed).length, 5, 'only 5 of 100 simultaneous attempts reach the password check')
  t.match(burst[99], { allowed: false, reason: 'busy' })
  const th = new LoginThrottle({ maxFailuresPerAddress: 5, maxFailuresPerUser: 0, now: clock().now })
  const pool = Array.from({ length: 100 }, () => th.begin('app', '10.0.0.8'))
  t.equal(pool.filter((a) => a.allowed).length, 37, 'by default 5 + 32 may be checked at once (a connection pool)')
  for (const a of pool) if (a.allowed) a.succeeded()
  t.equal(th.retryAfter('app', '10.0.0.8'), 0, 'a pool of right passwords locks nothing')
  t.ok(th.begin('app', '10.0.0.8').allowed, 'and the next login goes ahead')
})

t.test('the per-user limit: distributed guessing locks the user, but not from a remembered address', async (t) => {
  const c = clock()
  const th = new LoginThrottle({ maxFailuresPerAddress: 3, maxFailuresPerUser: 6, lockoutMs: 60_000, now: c.now })
  const home = th.begin('admin', '192.168.1.10')
  t.ok(home.allowed)
  if (home.allowed) home.succeeded()
  for (let i = 0; i < 6; i++) fail(th, 'admin', `203.0.113.${i}`)
  t.equal(th.begin('admin', '198.51.100.7').allowed, false, 'a new address is refused for the locked user')
  t.ok(th.begin('bob', '198.51.100.7').allowed, 'other users are not')
  const again = th.begin('admin', '192.168.1.10')
  t.ok(again.allowed, "the admin's remembered address still gets in")
  if (again.allowed) again.succeeded()
  t.equal(th.begin('admin', '192.168.1.11').allowed, false, 'a neighbour address is not remembered')
})

t.test('memory stays bounded under rotating user names and addresses', async (t) => {
  const c = clock()
  const th = new LoginThrottle({ maxFailuresPerAddress: 1000, maxFailuresPerUser: 5, maxEntries: 500, now: c.now })
  for (let i = 0; i < 20_000; i++) {
    fail(th, `user${i}`, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)
    if (i % 1000 === 0) c.advance(10)
  }
  t.ok(th.size.users <= 500, `users ${th.size.users}`)
  t.ok(th.size.addresses <= 500, `addresses ${th.size.addresses}`)
  for (let i = 0; i < 20_000; i++) {
    const a = th.begin('u', `10.9.${(i >> 8) & 255}.${i & 255}`)
    if (a.allowed) a.succeeded()
  }
  t.ok(th.size.pairs <= 500, `pairs ${th.size.pairs}`)
  c.advance(120_000)
  fail(th, 'x', '1.2.3.4')
  t.ok(th.size.users <= 500, 'expired entries are swept as new ones arrive')
})

t.test('addressKey: IPv4-mapped as IPv4, IPv6 by /64', async (t) => {
  t.equal(addressKey('::ffff:127.0.0.1'), '127.0.0.1')
  t.equal(addressKey('127.0.0.1'), '127.0.0.1')
  t.equal(addressKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64')
  t.equal(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64')
  t.equal(addressKey('::1'), '0:0:0:0::/64')
  t.equal(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64')
  t.equal(addressKey(undefined), 'local')
})
