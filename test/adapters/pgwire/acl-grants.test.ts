/**
 * pgwire with access control on and real users and grants, through `pg` and psql: the PGWIRE
 * endpoint permission (FATAL 42501), SCRAM and cleartext logins of created users, 42501
 * ErrorResponses for denied statements, a disabled user.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import pg from 'pg'
import t from 'tap'
import { Database } from '../../../lib/index.js'
import { attempt, startServer } from './helpers.js'

const run = promisify(execFile)

const db = await Database.open({ acl: { enabled: true, admin: { user: 'root', password: 'pw1' } } })
await db.query('create table t (ts timestamp, a int, secret string) timestamp(ts)')
await db.query("insert into t values ('2024-01-01T00:00:00Z', 1, 'x')")
await db.query("create user alice with password 'a-pw'")
await db.query("create user bob with password 'b-pw'")
await db.query('grant http to bob')
const servers = await Promise.all([startServer({ loginThrottle: false, authMethod: 'scram-sha-256' }, db), startServer({ loginThrottle: false, authMethod: 'password' }, db)])
t.teardown(() => Promise.all(servers.map((s) => s.close())))
const [scram, clear] = servers.map((s) => s.port) as [number, number]

t.test('PGWIRE vs HTTP: a user without PGWIRE is refused with FATAL 42501 after a right password', async (t) => {
  for (const port of [scram, clear]) {
    t.same(await attempt(port, 'alice', 'a-pw'), { code: '42501', message: 'Access denied for alice [PGWIRE]', severity: 'FATAL' })
    t.same(await attempt(port, 'bob', 'b-pw'), { code: '42501', message: 'Access denied for bob [PGWIRE]', severity: 'FATAL' }, 'HTTP is not PGWIRE')
    t.equal((await attempt(port, 'alice', 'wrong')).code, '28P01', 'a wrong password is still 28P01')
  }
  await db.query('grant pgwire to alice')
  t.same(await attempt(scram, 'alice', 'a-pw'), { rows: [['alice']] }, 'SCRAM against the stored verifier')
  t.same(await attempt(clear, 'alice', 'a-pw'), { rows: [['alice']] }, 'cleartext')
})

t.test('unknown user and wrong password: the same 28P01 over SCRAM and cleartext', async (t) => {
  for (const port of [scram, clear]) {
    const wrong = await attempt(port, 'alice', 'nope')
    const unknown = await attempt(port, 'nobody', 'nope')
    t.same([unknown.code, unknown.severity, unknown.message], [wrong.code, wrong.severity, wrong.message!.replace('"alice"', '"nobody"')])
  }
})

t.test('denied statements: ErrorResponse 42501 with QuestDB\'s text; the connection stays usable', async (t) => {
  const c = new pg.Client({ host: '127.0.0.1', port: scram, user: 'alice', password: 'a-pw', database: 'qdb' })
  await c.connect()
  t.teardown(() => c.end())
  const e = await c.query('select a from t').catch((x: { code: string; message: string }) => x)
  t.match(e, { code: '42501', message: 'Access denied for alice [SELECT on t(a)]' })
  await db.query('grant select on t(a) to alice')
  t.same((await c.query({ text: 'select a from t', rowMode: 'array' })).rows, [[1]], 'a grant applies to the next statement of an open session')
  t.match(await c.query('select * from t').catch((x: { code: string }) => x), { code: '42501' }, 'select * over a column not granted')
  t.match(await c.query("insert into t values ('2024-01-02T00:00:00Z', 2, 'y')").catch((x: { code: string }) => x), { code: '42501' })
  await db.query('grant select on t to alice with grant option')
  await c.query('grant select on t to bob')
  await db.query('grant pgwire to bob')
  t.same(await attempt(scram, 'bob', 'b-pw', 'select a from t'), { rows: [[1]] }, 'alice passed SELECT on to bob with her grant option')
  t.match(await attempt(scram, 'bob', 'b-pw', 'grant select on t to alice'), { code: '42501' }, 'bob holds no grant option')
})

t.test('psql: login as a created user, a denial as psql prints it', async (t) => {
  const psql = (user: string, password: string, sql: string): Promise<{ stdout: string; stderr: string }> =>
    run('psql', ['-h', '127.0.0.1', '-p', String(scram), '-U', user, '-d', 'qdb', '-X', '-At', '-v', 'ON_ERROR_STOP=1', '-c', sql], { env: { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: '5' }, timeout: 20_000 })
  t.equal((await psql('alice', 'a-pw', 'select current_user()')).stdout.trim(), 'alice')
  await db.query('create table hidden (ts timestamp, v int) timestamp(ts)')
  const e = await psql('alice', 'a-pw', 'select v from hidden').catch((x: { stderr: string }) => x)
  t.match(e.stderr, 'ERROR:  Access denied for alice [SELECT on hidden(v)]')
})

t.test('a disabled user cannot log in (28P01); its open session fails its next statement', async (t) => {
  const c = new pg.Client({ host: '127.0.0.1', port: clear, user: 'alice', password: 'a-pw', database: 'qdb' })
  c.on('error', () => undefined)
  await c.connect()
  t.teardown(() => c.end().catch(() => undefined))
  await db.query('alter user alice disable')
  t.equal((await attempt(scram, 'alice', 'a-pw')).code, '28P01')
  t.equal((await attempt(clear, 'alice', 'a-pw')).code, '28P01')
  const next = await c.query('select 1').catch((x: { code: string }) => x)
  t.ok((next as { code?: string }).code !== undefined, `the open session's next statement fails (${(next as { code?: string }).code})`)
  await db.query('alter user alice enable')
  t.same(await attempt(clear, 'alice', 'a-pw'), { rows: [['alice']] })
})
