/**
 * node-postgres (`pg`) against the adapter: simple and prepared queries, text and binary result
 * formats, errors that leave the connection usable, transactions, pipelining and a cursor-style
 * Execute with a row limit.
 */
import t from 'tap'
import pg from 'pg'
import { pgConfig, startServer } from './helpers.js'

const srv = await startServer()
const client = new pg.Client(pgConfig(srv.port))
await client.connect()

t.test('simple query: every type in text format', async (t) => {
  const r = await client.query('select * from t order by ts')
  t.equal(r.command, 'SELECT')
  t.equal(r.rowCount, 2)
  t.same(r.fields.map((f) => f.dataTypeID), [1114, 1043, 701, 23, 20, 16, 1043, 1114, 2950, 1042, 1043, 700, 21])
  const row = r.rows[0]
  t.equal(row.sym, 'a')
  t.equal(row.v, 1.5)
  t.equal(row.i, 3)
  t.equal(row.l, '9007199254740993')
  t.equal(row.b, true)
  t.equal(row.s, 'héllo')
  t.equal(row.u, '11111111-2222-3333-4444-555555555555')
  t.equal(row.c, 'x')
  t.equal(row.ip, '1.2.3.4')
  t.equal(row.f, 2.5)
  t.equal(row.sh, 7)
  t.ok(row.ts instanceof Date)
  const nulls = r.rows[1]
  t.equal(nulls.v, null)
  t.equal(nulls.i, null)
  t.equal(nulls.s, null)
  t.equal(nulls.b, false)
})

t.test('timestamps keep microseconds in text', async (t) => {
  const r = await client.query({ text: 'select ts from t order by ts', types: { getTypeParser: () => (v: string) => v } } as unknown as pg.QueryConfig)
  t.equal(r.rows[0].ts, '2024-01-01 00:00:00.000001')
})

t.test('prepared statements with parameters', async (t) => {
  const r = await client.query('select i, s from t where i = $1', [3])
  t.same(r.rows, [{ i: 3, s: 'héllo' }])
  const named = { name: 'by-sym', text: 'select count(*) from t where sym = $1' }
  t.same((await client.query({ ...named, values: ['a'] })).rows, [{ count: '1' }])
  t.same((await client.query({ ...named, values: ['zz'] })).rows, [{ count: '0' }])
  const p = await client.query('select $1 as x', ['hi'])
  t.same(p.rows, [{ x: 'hi' }])
})

t.test('binary result format', async (t) => {
  const r = await client.query({ text: 'select i, l, v, b, ts, u, sh, f, s from t order by ts', binary: true } as pg.QueryConfig)
  const row = r.rows[0]
  t.equal(row.i, 3)
  t.equal(row.v, 1.5)
  t.equal(row.b, true)
  t.equal(row.s, 'héllo')
  t.equal(row.sh, 7)
  t.equal(row.f, 2.5)
  t.equal((row.ts as Date).toISOString(), '2024-01-01T00:00:00.000Z')
  t.equal(r.rows[1].i, null)
})

t.test('DDL, DML and command tags', async (t) => {
  const c = await client.query('create table w (ts timestamp, x int) timestamp(ts)')
  t.equal(c.command, 'CREATE')
  const ins = await client.query("insert into w values ('2024-01-01', 1), ('2024-01-02', 2)")
  t.equal(ins.command, 'INSERT')
  t.equal(ins.rowCount, 2)
  const insP = await client.query('insert into w values ($1, $2)', ['2024-01-03T00:00:00.000000Z', 3])
  t.equal(insP.rowCount, 1)
  const up = await client.query('update w set x = 10 where x > 1')
  t.equal(up.command, 'UPDATE')
  t.equal(up.rowCount, 2)
  t.same((await client.query('select sum(x) s from w')).rows, [{ s: '21' }])
  const d = await client.query('drop table w')
  t.equal(d.command, 'DROP')
})

t.test('errors keep the connection usable, with SQLSTATE and 1-based position', async (t) => {
  const e = await client.query('select nope from t').catch((x: unknown) => x) as pg.DatabaseError
  t.equal(e.code, '42703')
  t.equal(e.position, '8')
  t.equal(e.severity, 'ERROR')
  const e2 = await client.query('select * from missing where i = $1', [1]).catch((x: unknown) => x) as pg.DatabaseError
  t.equal(e2.code, '42P01')
  t.same((await client.query('select 1 as one')).rows, [{ one: 1 }])
  const e3 = await client.query('selec 1').catch((x: unknown) => x) as pg.DatabaseError
  t.equal(e3.code, '42601')
  const e4 = await client.query('declare c cursor for select 1').catch((x: unknown) => x) as pg.DatabaseError
  t.equal(e4.code, '0A000')
  t.match(e4.message, /forward-only/)
  t.same((await client.query('select 2 as two')).rows, [{ two: 2 }])
})

t.test('multi-statement simple query stops at the first error', async (t) => {
  const r = await client.query('select 1 as a; select 2 as b') as unknown as pg.QueryResult[]
  t.equal(r.length, 2)
  t.same(r[1]!.rows, [{ b: 2 }])
  const e = await client.query('select 1; select nope; select 3').catch((x: unknown) => x) as pg.DatabaseError
  t.equal(e.code, '42703')
  t.equal(e.position, '18')
})

t.test('transactions: status, failed transaction, rollback', async (t) => {
  await client.query('begin')
  await client.query('select 1')
  const e = await client.query('select nope').catch((x: unknown) => x) as pg.DatabaseError
  t.equal(e.code, '42703')
  const e2 = await client.query('select 1').catch((x: unknown) => x) as pg.DatabaseError
  t.equal(e2.code, '25P02')
  const rb = await client.query('commit')
  t.equal(rb.command, 'ROLLBACK')
  t.same((await client.query('select 3 as x')).rows, [{ x: 3 }])
})

t.test('SET and SHOW', async (t) => {
  t.equal((await client.query('SET extra_float_digits = 3')).command, 'SET')
  t.same((await client.query('show transaction_isolation')).rows, [{ transaction_isolation: 'read committed' }])
  t.equal((await client.query('show server_version')).rowCount, 1)
})

t.test('pipelined prepared inserts', async (t) => {
  await client.query('create table p (ts timestamp, x long) timestamp(ts)')
  const all = []
  for (let i = 0; i < 200; i++) all.push(client.query({ name: 'ins-p', text: 'insert into p values ($1, $2)', values: [new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString(), i] }))
  await Promise.all(all)
  t.same((await client.query('select count(*) n, sum(x) s from p')).rows, [{ n: '200', s: '19900' }])
})

t.test('IN ($1) with an array: lists of any length through one prepared statement', async (t) => {
  const q = async (v: unknown): Promise<unknown[]> => (await client.query({ name: 'in_list', text: 'select i from t where sym in ($1)', values: [v] })).rows
  t.same(await q(['a', 'b']), [{ i: 3 }], 'node pg sends the array untyped, as {a,b}')
  t.same(await q(['b']), [])
  t.same(await q([]), [], 'an empty array matches nothing')
  t.same(await q('a'), [{ i: 3 }], 'a scalar is still a scalar')
  t.same((await client.query('select i from t where s in ($1)', [['héllo', 'x,"y"']])).rows, [{ i: 3 }], 'quoted and UTF-8 elements')
  t.same((await client.query('select $1::string x', [['a']])).rows, [{ x: '{"a"}' }], 'outside an IN list an array literal is text, as in PostgreSQL')
})

t.test('empty query', async (t) => {
  const r = await client.query(';')
  t.equal(r.rowCount, null)
})

// root teardown would wait for process exit, which open sockets prevent: close in a last subtest
t.test('close', async () => {
  await client.end()
  await srv.close()
})
