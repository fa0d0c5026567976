/**
 * pgwire with access control on: logins are checked against the engine's users (cleartext and
 * SCRAM-SHA-256, with `pg` and psql), unknown user and wrong password answer the same 28P01,
 * the `authenticate` hook keeps precedence.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import t, { type Test } from 'tap'
import { ADMIN, Database } from '../../../lib/index.js'
import type { PgwireOptions } from '../../../adapters/pgwire/index.js'
import { attempt, startServer } from './helpers.js'

const run = promisify(execFile)

async function aclServer(t: Test, options: PgwireOptions = {}): Promise<number> {
  const db = await Database.open({ acl: { enabled: true, admin: { user: 'root', password: 'pw1' } } })
  const srv = await startServer({ loginThrottle: false, ...options }, db)
  t.teardown(() => srv.close())
  return srv.port
}

for (const authMethod of ['password', 'scram-sha-256'] as const) {
  t.test(`acl on, ${authMethod}: the engine's admin logs in, unknown user and wrong password answer alike`, async (t) => {
    const port = await aclServer(t, { authMethod })
    if (authMethod === 'password') t.same(await attempt(port, 'root', 'pw1'), { rows: [['root']] }, 'statements run as the principal')
    const wrong = await attempt(port, 'root', 'nope')
    const unknown = await attempt(port, 'nobody', 'pw1')
    t.equal(wrong.code, '28P01')
    t.equal(unknown.code, '28P01')
    t.equal(unknown.message, wrong.message!.replace('"root"', '"nobody"'), 'the same message but for the name')
    t.equal((await attempt(port, 'admin', 'quest')).code, '28P01', 'pg.user defaults do not apply')
  })
}

t.test('acl on: the authenticate hook goes first; its null falls back to the engine', async (t) => {
  const port = await aclServer(t, { authenticate: (c) => (c.password === 'token-x' ? { ...ADMIN, name: 'sso-user' } : null) })
  t.same(await attempt(port, '_sso', 'token-x'), { rows: [['sso-user']] })
  t.same(await attempt(port, 'root', 'pw1'), { rows: [['root']] })
  t.equal((await attempt(port, 'root', 'bad')).code, '28P01')
})

t.test('acl on: psql logs in as the engine\'s admin; a wrong password is 28P01', async (t) => {
  const hasPsql = await run('psql', ['--version']).then(() => true, () => false)
  if (!hasPsql) { t.fail('psql is not installed'); return }
  const port = await aclServer(t)
  const psql = (user: string, password: string): Promise<{ stdout: string; stderr: string }> =>
    run('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', 'qdb', '-X', '-At', '-c', 'select current_user()'], { env: { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: '5' }, timeout: 20_000 })
  t.equal((await psql('root', 'pw1')).stdout.trim(), 'root')
  const e = await psql('root', 'x').catch((x: { stderr: string }) => x)
  t.match(e.stderr, 'password authentication failed for user "root"')
})
