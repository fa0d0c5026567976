/**
 * Password guessing over pgwire with access control on: SCRAM and cleartext guesses against the
 * engine's users — unknown user names included, which run against the mock verifier — are
 * counted by the login throttle, and a locked-out client is refused even with the right password.
 */
import pg from 'pg'
import t from 'tap'
import { Database, LoginThrottle } from '../../lib/index.js'
import { startServer } from '../adapters/pgwire/helpers.js'

async function login(port: number, user: string, password: string): Promise<string> {
  const c = new pg.Client({ host: '127.0.0.1', port, user, password, database: 'qdb', connectionTimeoutMillis: 10_000 })
  c.on('error', () => undefined)
  try { await c.connect(); return 'ok' } catch (e) { return (e as { code?: string }).code ?? (e as Error).message } finally { await c.end().catch(() => undefined) }
}

for (const authMethod of ['scram-sha-256', 'password'] as const) {
  t.test(`${authMethod}: unknown users and wrong passwords are counted alike; then 28000 even for the right password`, { timeout: 60_000 }, async (t) => {
    const db = await Database.open({ acl: { enabled: true, admin: { user: 'root', password: 'pw1' } } })
    await db.query("create user alice with password 'a-pw'")
    await db.query('grant pgwire to alice')
    const srv = await startServer({ authMethod, loginThrottle: new LoginThrottle({ maxFailuresPerAddress: 4, maxFailuresPerUser: 0, lockoutMs: 30_000 }) }, db)
    t.teardown(() => srv.close())
    const codes: string[] = []
    for (let i = 0; i < 8; i++) codes.push(await login(srv.port, i % 2 === 0 ? 'alice' : `ghost${i}`, `guess${i}`))
    t.same(codes, ['28P01', '28P01', '28P01', '28P01', '28000', '28000', '28000', '28000'])
    t.equal(await login(srv.port, 'alice', 'a-pw'), '28000', 'locked out with the right password')
  })
}
