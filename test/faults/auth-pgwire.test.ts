/**
 * Password guessing over pgwire: failed logins are limited per client address and per user.
 * Other client addresses are 127.0.0.2, 127.0.0.3, ... (the whole 127/8 is loopback on Linux).
 * Small limits and a short lock-out keep every case fast.
 */
import t from 'tap'
import pg from 'pg'
import { LoginThrottle } from '../../lib/index.js'
import type { PgwireOptions } from '../../adapters/pgwire/index.js'
import { startServer } from '../adapters/pgwire/helpers.js'
import { WireClient, serialize } from '../adapters/pgwire/wire-client.js'

const USERS: Record<string, string> = { alice: 'pw-alice', bob: 'pw-bob' }
const hook: PgwireOptions['authenticate'] = (c) => (USERS[c.user] === c.password ? { name: c.user, groups: [], admin: false } : null)

/** One cleartext login over a raw socket: 'ok', or the SQLSTATE and message of the refusal. */
async function attempt(port: number, user: string, password: string, from = '127.0.0.1'): Promise<{ code: string; message: string }> {
  const c = await WireClient.open(port, from)
  try {
    c.send(serialize.startup({ user, database: 'qdb' }))
    const first = await Promise.race([c.until('authenticationCleartextPassword'), c.until('error')])
    if (first?.name === 'authenticationCleartextPassword') {
      c.send(serialize.password(password))
      await Promise.race([c.until('readyForQuery'), c.until('error')])
    }
    const e = c.messages.find((m) => m.name === 'error') as { code: string; message: string } | undefined
    if (e !== undefined) return { code: e.code, message: e.message }
    return { code: c.messages.some((m) => m.name === 'readyForQuery') ? 'ok' : 'closed', message: '' }
  } finally {
    c.end()
  }
}

t.test('N wrong passwords from one address: the next login is refused with 28000, even with the right password', { timeout: 30_000 }, async (t) => {
  const srv = await startServer({ authenticate: hook, loginThrottle: new LoginThrottle({ maxFailuresPerAddress: 3, maxFailuresPerUser: 10, lockoutMs: 1500 }) })
  t.teardown(() => srv.close())
  for (let i = 0; i < 3; i++) {
    const bad = new pg.Client({ host: '127.0.0.1', port: srv.port, user: 'bob', password: `guess${i}`, database: 'qdb' })
    const e = await bad.connect().catch((x: unknown) => x) as { code: string }
    t.equal(e.code, '28P01', `guess ${i + 1}: wrong password`)
    await bad.end().catch(() => undefined)
  }
  const right = new pg.Client({ host: '127.0.0.1', port: srv.port, user: 'bob', password: 'pw-bob', database: 'qdb' })
  const e = await right.connect().catch((x: unknown) => x) as { code: string; message: string; severity: string }
  t.equal(e.code, '28000', 'the right password is refused while locked out')
  t.match(e.message, /^too many failed login attempts, retry in [12] s$/)
  await right.end().catch(() => undefined)
  t.same(await attempt(srv.port, 'bob', 'pw-bob', '127.0.0.2'), { code: 'ok', message: '' }, 'the same user from another address logs in')
  t.same(await attempt(srv.port, 'alice', 'pw-alice', '127.0.0.3'), { code: 'ok', message: '' }, 'another user from another address logs in')
  await new Promise((r) => setTimeout(r, 1600))
  const after = new pg.Client({ host: '127.0.0.1', port: srv.port, user: 'bob', password: 'pw-bob', database: 'qdb' })
  await after.connect()
  t.same((await after.query('select 1 as x')).rows, [{ x: 1 }], 'the window expiry restores the address')
  await after.end()
})

t.test('a raw-socket guessing loop gets only N password checks per window', { timeout: 60_000 }, async (t) => {
  const throttle = new LoginThrottle({ maxFailuresPerAddress: 5, maxFailuresPerUser: 0, lockoutMs: 60_000 })
  const srv = await startServer({ loginThrottle: throttle })
  t.teardown(() => srv.close())
  const codes = new Map<string, number>()
  const started = Date.now()
  // 10 parallel guessers, 300 attempts in all
  await Promise.all(Array.from({ length: 10 }, async (_, w) => {
    for (let i = 0; i < 30; i++) {
      const r = await attempt(srv.port, 'admin', `guess-${w}-${i}`)
      codes.set(r.code, (codes.get(r.code) ?? 0) + 1)
    }
  }))
  t.comment(`300 attempts in ${Date.now() - started} ms: ${JSON.stringify(Object.fromEntries(codes))}`)
  t.equal(codes.get('28P01'), 5, 'exactly 5 passwords were checked')
  t.equal(codes.get('28000'), 295, 'every other attempt was refused as locked out')
  t.equal((await attempt(srv.port, 'admin', 'quest')).code, '28000', 'the right password too')
  t.equal((await attempt(srv.port, 'admin', 'quest', '127.0.0.2')).code, 'ok', 'while the admin logs in from elsewhere')
})

t.test('distributed guessing locks the user for new addresses, not for the addresses it logged in from', { timeout: 30_000 }, async (t) => {
  const srv = await startServer({ authenticate: hook, loginThrottle: new LoginThrottle({ maxFailuresPerAddress: 2, maxFailuresPerUser: 6, lockoutMs: 60_000 }) })
  t.teardown(() => srv.close())
  t.equal((await attempt(srv.port, 'bob', 'pw-bob', '127.0.0.1')).code, 'ok', 'bob logs in from his usual address')
  for (let a = 10; a < 13; a++) for (let i = 0; i < 2; i++) t.equal((await attempt(srv.port, 'bob', 'x', `127.0.0.${a}`)).code, '28P01')
  const fresh = await attempt(srv.port, 'bob', 'pw-bob', '127.0.0.50')
  t.equal(fresh.code, '28000', 'bob from a new address is refused')
  t.equal((await attempt(srv.port, 'bob', 'pw-bob', '127.0.0.1')).code, 'ok', 'bob from his remembered address is not')
  t.equal((await attempt(srv.port, 'alice', 'pw-alice', '127.0.0.50')).code, 'ok', 'alice is not affected')
})

t.test('memory stays bounded while an attacker rotates user names', { timeout: 60_000 }, async (t) => {
  const throttle = new LoginThrottle({ maxFailuresPerAddress: 10_000, maxFailuresPerUser: 3, maxEntries: 50 })
  const srv = await startServer({ loginThrottle: throttle })
  t.teardown(() => srv.close())
  await Promise.all(Array.from({ length: 10 }, async (_, w) => {
    for (let i = 0; i < 40; i++) await attempt(srv.port, `user-${w}-${i}`, 'x', `127.0.1.${w + 1}`)
  }))
  t.ok(throttle.size.users <= 50, `user entries ${throttle.size.users} <= 50 after 400 names`)
  t.ok(throttle.size.addresses <= 50)
})

t.test('SCRAM: a wrong proof is counted by the limiter', { timeout: 30_000 }, async (t) => {
  const srv = await startServer({ authMethod: 'scram-sha-256', password: 's3cret', loginThrottle: new LoginThrottle({ maxFailuresPerAddress: 2, lockoutMs: 60_000 }) })
  t.teardown(() => srv.close())
  const login = async (password: string): Promise<string> => {
    const c = new pg.Client({ host: '127.0.0.1', port: srv.port, user: 'admin', password, database: 'qdb' })
    try { await c.connect(); return 'ok' } catch (e) { return (e as { code: string }).code } finally { await c.end().catch(() => undefined) }
  }
  t.equal(await login('s3cret'), 'ok')
  t.equal(await login('nope1'), '28P01')
  t.equal(await login('nope2'), '28P01')
  t.equal(await login('s3cret'), '28000', 'locked out: the right password is refused too')
})

t.test('unknown users are refused like known ones (SCRAM mock verifier)', { timeout: 30_000 }, async (t) => {
  const srv = await startServer({ authMethod: 'scram-sha-256', password: 's3cret', loginThrottle: false })
  t.teardown(() => srv.close())
  const c = new pg.Client({ host: '127.0.0.1', port: srv.port, user: 'ghost', password: 's3cret', database: 'qdb' })
  const e = await c.connect().catch((x: unknown) => x) as { code: string; message: string }
  t.equal(e.code, '28P01')
  t.equal(e.message, 'password authentication failed for user "ghost"')
  await c.end().catch(() => undefined)
})

t.test('a pool opening 20 connections at once through a slow hook is not locked out', { timeout: 30_000 }, async (t) => {
  const slow: PgwireOptions['authenticate'] = async (c) => { await new Promise((r) => setTimeout(r, 50)); return hook!(c) }
  const srv = await startServer({ authenticate: slow, loginThrottle: new LoginThrottle({ maxFailuresPerAddress: 3 }) })
  t.teardown(() => srv.close())
  const results = await Promise.all(Array.from({ length: 20 }, () => attempt(srv.port, 'alice', 'pw-alice')))
  t.same(results.map((r) => r.code), Array(20).fill('ok'), 'every login of the pool succeeds')
})
