/**
 * pg.security.readonly: every statement that changes data or the catalog is refused with 25006
 * read_only_sql_transaction before it runs — over the simple protocol (alone and inside a
 * multi-statement Query) and the extended protocol (Parse / Bind / Execute) — while queries,
 * catalog queries, SET, SHOW, EXPLAIN and BEGIN / COMMIT / ROLLBACK keep working. Nothing
 * changes on disk or in the catalog.
 */
import { spawn } from 'node:child_process'
import t from 'tap'
import pg from 'pg'
import { pgConfig, startServer } from '../adapters/pgwire/helpers.js'

t.setTimeout(60_000)
const srv = await startServer({ readOnly: true })
t.teardown(() => srv.close())
const client = new pg.Client(pgConfig(srv.port))
await client.connect()
t.teardown(() => client.end())

const WRITES = [
  "insert into t (ts, i) values ('2024-02-01', 1)",
  'insert into t select * from t',
  'update t set i = 5',
  'create table n (a int)',
  'create table n as (select * from t)',
  'drop table t',
  'truncate table t',
  'rename table t to u',
  'alter table t add column z int',
  'delete from t',
  'copy t from stdin',
]

/** The tables and the row count of t: what a refused write must leave as it was. */
async function state(): Promise<unknown> {
  const tables = (await srv.db.query('select table_name from tables() order by 1')).rows
  const rows = (await srv.db.query('select count() c, sum(i) s from t')).rows
  const cols = (await srv.db.query("select count() from table_columns('t')")).rows
  return { tables, rows, cols }
}
const before = await state()

t.test('simple protocol: each write is refused with 25006', async (t) => {
  for (const sql of WRITES) {
    await t.rejects(client.query(sql), { code: '25006', message: /^cannot execute .* in read-only mode \(pg\.security\.readonly\)$/ }, sql)
  }
  t.same(await state(), before, 'nothing changed')
})

t.test('extended protocol (Parse / Bind / Execute): each write is refused with 25006', async (t) => {
  await t.rejects(client.query("insert into t (ts, i) values ($1, $2)", ['2024-02-01T00:00:00Z', 4]), { code: '25006' }, 'INSERT with parameters')
  await t.rejects(client.query('update t set i = $1 where i = 3', [9]), { code: '25006' }, 'UPDATE with parameters')
  for (const sql of WRITES) {
    await t.rejects(client.query({ text: sql, queryMode: 'extended' } as pg.QueryConfig), { code: '25006' }, sql)
  }
  let n = 0
  for (const sql of WRITES) await t.rejects(client.query({ name: `w${n++}`, text: sql }), { code: '25006' }, `named: ${sql}`)
  t.same(await state(), before, 'nothing changed')
})

t.test('a multi-statement Query stops at the write', async (t) => {
  await t.rejects(client.query("select 1; insert into t (ts) values ('2024-03-01'); create table m (a int)"), { code: '25006', message: /INSERT/ })
  t.same(await state(), before, 'nothing changed')
})

t.test('reads, SET, SHOW, EXPLAIN and transactions keep working', async (t) => {
  t.same((await client.query('select i from t where i = $1', [3])).rows, [{ i: 3 }])
  t.same((await client.query('select count() c from t')).rows, [{ c: '2' }])
  t.ok((await client.query("select relname from pg_class where relname = 't'")).rows.length === 1, 'catalog query')
  await client.query("SET datestyle = 'ISO'")
  t.ok((await client.query('show server_version')).rows.length === 1)
  t.ok((await client.query('show tables')).rows.length >= 1)
  t.ok((await client.query('explain select * from t')).rows.length >= 1, 'EXPLAIN')
  await client.query('begin')
  t.same((await client.query('select 1 as x')).rows, [{ x: 1 }])
  await client.query('commit')
  await client.query('begin')
  await t.rejects(client.query('drop table t'), { code: '25006' })
  await t.rejects(client.query('select 1'), { code: '25P02' }, 'the refused write aborted the transaction, as any error does')
  await client.query('rollback')
  t.same((await client.query('select 1 as x')).rows, [{ x: 1 }])
  t.same(await state(), before)
})

t.test('psql sees the refusal', async (t) => {
  const out = await new Promise<{ code: number | null; out: string }>((resolve) => {
    const p = spawn('psql', ['-h', '127.0.0.1', '-p', String(srv.port), '-U', 'admin', '-d', 'qdb', '-X', '-A', '-t',
      '-c', 'select 41 + 1', '-c', 'create table p (a int)'], { env: { ...process.env, PGPASSWORD: 'quest' } })
    let s = ''
    p.stdout.on('data', (d: Buffer) => { s += d.toString() })
    p.stderr.on('data', (d: Buffer) => { s += d.toString() })
    p.on('close', (code) => resolve({ code, out: s }))
  })
  t.match(out.out, /^42$/m)
  t.match(out.out, /ERROR: {2}cannot execute CREATE TABLE in read-only mode \(pg\.security\.readonly\)/)
  t.not(out.code, 0)
  t.same(await state(), before)
})

t.test('a server without the setting still writes', async (t) => {
  const rw = await startServer({}, srv.db)
  t.teardown(() => rw.close())
  const c = new pg.Client(pgConfig(rw.port))
  await c.connect()
  await c.query('create table rw_probe (a int)')
  await c.query('drop table rw_probe')
  await c.end()
})
