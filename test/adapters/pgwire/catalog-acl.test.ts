/**
 * pg_catalog emulation with access control on, through real clients: a user sees in pg_class,
 * information_schema and psql's `\dt` / `\d` only the tables it holds a permission on, and a
 * denied query is an ErrorResponse 42501 with QuestDB's text. The login goes through the
 * server's `authenticate` hook to the engine's users (`db.authenticate`).
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import t from 'tap'
import pg from 'pg'
import { Database } from '../../../lib/index.js'
import { startServer } from './helpers.js'

const run = promisify(execFile)
const db = await Database.open({ acl: { enabled: true, passwordHashIterations: 1 } })
await db.query('create table trades (ts timestamp, sym symbol, price double) timestamp(ts) partition by day')
await db.query('create table secret (ts timestamp, pin int) timestamp(ts) partition by day')
await db.query("create user bob with password 'pw'")
await db.query('grant pgwire to bob')
await db.query('grant select on trades to bob')
const srv = await startServer({ authenticate: (c) => db.authenticate(c.user, c.password) }, db)
t.teardown(() => srv.close())

const connect = async (user: string, password: string): Promise<pg.Client> => {
  const c = new pg.Client({ host: '127.0.0.1', port: srv.port, user, password, database: 'qdb' })
  await c.connect()
  t.teardown(() => c.end())
  return c
}
const rows = async (c: pg.Client, sql: string): Promise<unknown[][]> => (await c.query({ text: sql, rowMode: 'array' } as pg.QueryArrayConfig)).rows

t.test('pg_class and information_schema list only the tables the user may see', async (t) => {
  const bob = await connect('bob', 'pw')
  const admin = await connect('admin', 'quest')
  const classes = "select relname from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' order by relname"
  t.same(await rows(bob, classes), [['trades']])
  t.same(await rows(admin, classes), [['secret'], ['trades']])
  t.same(await rows(bob, "select table_name from information_schema.tables where table_schema = 'public' order by table_name"), [['trades']])
  t.same((await rows(bob, "select column_name from information_schema.columns where table_name = 'secret'")).length, 0)
  t.same((await rows(admin, "select column_name from information_schema.columns where table_name = 'secret'")).length, 2)
})

t.test('a denied query is ErrorResponse 42501', async (t) => {
  const bob = await connect('bob', 'pw')
  const err = await bob.query('select pin from secret').catch((e: { code: string; message: string }) => e)
  t.match(err, { code: '42501', message: 'Access denied for bob [SELECT on secret(pin)]' })
  t.same(await rows(bob, 'select count(*) from trades'), [['0']])
})

const hasPsql = await run('psql', ['--version']).then(() => true, () => false)
t.test('psql \\dt and \\d', { skip: hasPsql ? false : 'psql is not installed' }, async (t) => {
  const psql = (args: string[]) => run('psql', ['-h', '127.0.0.1', '-p', String(srv.port), '-U', 'bob', '-d', 'qdb', '-X', ...args],
    { env: { ...process.env, PGPASSWORD: 'pw', PGCONNECT_TIMEOUT: '5' }, timeout: 20_000 })
  const dt = await psql(['-At', '-c', '\\dt'])
  t.match(dt.stdout, /trades/)
  t.notMatch(dt.stdout, /secret/)
  const d = await psql(['-c', '\\d secret']).catch((e: { stderr: string }) => e)
  t.match(d.stderr, /Did not find any relation named "secret"/)
  t.match((await psql(['-c', '\\d trades'])).stdout, /price/)
})
