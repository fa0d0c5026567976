import t from 'tap'
import { Database, SqlError } from '../../lib/index.js'
import { tmpDir } from './storage/helpers.js'

t.test('query: columns, rows as JS values, designated timestamp index', async (t) => {
  const db = await Database.open({ clock: () => 1704067200000001 })
  await db.query('create table t (ts timestamp, sym symbol, v double, n long, d date) timestamp(ts) partition by day')
  await db.query("insert into t values (now(), 'a', 1.5, 9223372036854775807, '2024-01-02T03:04:05.006Z')")
  const r = await db.query('select * from t')
  t.same(r.columns.map((c) => `${c.name}:${c.type}`), ['ts:TIMESTAMP', 'sym:SYMBOL', 'v:DOUBLE', 'n:LONG', 'd:DATE'])
  t.equal(r.timestampIndex, 0)
  t.same(r.rows, [[1704067200000001n, 'a', 1.5, 9223372036854775807n, new Date('2024-01-02T03:04:05.006Z')]])
  t.equal((await db.query('select v, ts from t')).timestampIndex, 1)
  t.equal((await db.query('select v from t')).timestampIndex, -1)
  t.equal((await db.query("insert into t values ('2024-01-03', 'b', 2, 1, null)")).rowCount, 1)
})

t.test('parameters: $n everywhere, including table-function arguments', async (t) => {
  const db = await Database.open()
  await db.query('create table t (ts timestamp, sym symbol, v double) timestamp(ts)')
  await db.query('insert into t values ($1, $2, $3)', [new Date('2024-01-01T00:00:00Z'), 'a', 1.5])
  await db.query('insert into t values ($1, $2, $3)', ['2024-01-02', 'b', 2.5])
  t.same((await db.query('select v from t where sym = $1 and v > $2', ['b', 2])).rows, [[2.5]])
  t.same((await db.query('select x from long_sequence($1)', [2])).rows, [[1n], [2n]])
  t.same((await db.query('select "column" from table_columns($1)', ['t'])).rows, [['ts'], ['sym'], ['v']])
  const p = db.prepare('select count() from t where v < $1')
  t.same((await p.query([2])).rows, [[1n]])
  t.same((await p.query([3])).rows, [[2n]])
})

t.test('stream yields batches without materializing the result', async (t) => {
  const db = await Database.open()
  let rows = 0
  let batches = 0
  for await (const b of db.stream('select x from long_sequence(200000)')) {
    rows += b.length
    batches++
    if (batches === 1) t.same(b.row(0), [1n])
  }
  t.equal(rows, 200000)
  t.ok(batches > 1, 'more than one batch')
})

t.test('append: columnar bulk load, missing columns are null, bad input is a SqlError', async (t) => {
  const db = await Database.open()
  await db.query('create table t (ts timestamp, sym symbol, v double, i int) timestamp(ts)')
  await db.append('t', { ts: Float64Array.of(2, 1), sym: ['x', null as unknown as string], v: Float64Array.of(1, 2) })
  t.same((await db.query('select * from t')).rows, [[1n, null, 2, null], [2n, 'x', 1, null]])
  await t.rejects(db.append('t', { nope: [1] }), { code: '42703' })
  await t.rejects(db.append('t', { ts: Float64Array.of(1), v: Float64Array.of(1, 2) }), { code: '22023' })
  await t.rejects(db.append('missing', {}), { code: '42P01' })
})

t.test('a failing statement changes nothing; errors carry SQLSTATE and position', async (t) => {
  const db = await Database.open()
  await db.query('create table t (ts timestamp, v int) timestamp(ts)')
  await t.rejects(db.query("insert into t values ('2024-01-01', 1), ('bad', 2)"), { code: '22P02' })
  t.same((await db.query('select count() from t')).rows, [[0n]])
  const e = await db.query('select nope from t').catch((x: unknown) => x)
  t.ok(e instanceof SqlError)
  t.match(e, { code: '42703', position: 7 })
  await t.rejects(db.query('delete from t'), { code: '0A000', message: /use UPDATE, TRUNCATE or DROP PARTITION/ })
  await t.rejects(db.query('declare c cursor for select 1'), { code: '0A000', message: /forward-only/ })
  await db.close()
  await t.rejects(db.query('select 1'), { code: '57P01' })
})

t.test('timestamp_sequence restarts per statement and feeds CREATE TABLE AS', async (t) => {
  const db = await Database.open()
  const q = "select timestamp_sequence('2024-01-01', 1000000) ts from long_sequence(2)"
  t.same((await db.query(q)).rows, [[1704067200000000n], [1704067201000000n]])
  t.same((await db.query(q)).rows, [[1704067200000000n], [1704067201000000n]])
  await db.query('create table z as (select x, timestamp_sequence(0, 3600000000) ts from long_sequence(48)) timestamp(ts) partition by day')
  t.same((await db.query("select count() from z where ts in '1970-01-02'")).rows, [[24n]])
})

t.test('text parameters take the type their use asks for; describe reports it', async (t) => {
  const db = await Database.open()
  await db.query('create table t (id int, ts timestamp, s symbol, v double) timestamp(ts)')
  await db.query('insert into t values ($1, $2, $3, $4)', ['1', '2024-01-01', 'a', '1.5'])
  await db.query('insert into t values ($1, $2, $3, $4)', ['2', '2024-01-02T00:00:00Z', 'b', '2.5'])
  t.same((await db.query('select id, v from t where id = $1 and v > $2', ['2', '1'])).rows, [[2, 2.5]])
  t.same((await db.query("select $1 || s, coalesce($2, v) from t where ts > $3", ['x', '9', '2024-01-01T12:00'])).rows, [['xb', 9]])
  const d = db.describe(db.parse('select id, v + $2 from t where id = $1 and ts < $3 and s = $4')[0]!)
  t.same(d.params, ['INT', 'DOUBLE', 'TIMESTAMP', 'SYMBOL'])
  t.same(d.columns, [{ name: 'id', type: 'INT' }, { name: 'column', type: 'DOUBLE' }])
  t.same(db.describe(db.parse('update t set v = $1 where id = $2')[0]!).params, ['DOUBLE', 'INT'])
  t.same(db.describe(db.parse('insert into t (s, id) values ($1, $2)')[0]!).params, ['SYMBOL', 'INT'])
  t.same(db.describe(db.parse('select $1')[0]!).params, ['STRING'])
  // a table function's argument takes the type the function declares
  t.same(db.describe(db.parse('select x from long_sequence($1)')[0]!).params, ['LONG'])
  t.same((await db.query('select count() from long_sequence($1)', ['4'])).rows, [[4n]])
  await t.rejects(db.query('select * from t where id = $1', ['abc']), { code: '22P02' })
})

t.test('declared parameter types convert the value and type the parameter wherever it is used', async (t) => {
  const db = await Database.open()
  const r = await db.query('select $1 as ts, $2 as plain', ['2024-01-02T03:04:05.678901Z', '2024-01-02'], { paramTypes: ['TIMESTAMP'] })
  t.same(r.columns, [{ name: 'ts', type: 'TIMESTAMP' }, { name: 'plain', type: 'STRING' }])
  t.same(r.rows, [[1704164645678901n, '2024-01-02']], 'to the microsecond; the undeclared one stays text')
  await t.rejects(db.query('select $1', ['not a time'], { paramTypes: ['TIMESTAMP'] }), { code: '22P02' }, 'a value that is not one is refused')
})

t.test('an array parameter is the list of IN ($n); anywhere else it is refused', async (t) => {
  const db = await Database.open()
  await db.query('create table t (ts timestamp, s symbol, v varchar, i int) timestamp(ts)')
  await db.query("insert into t values ('2024-01-01', 'a', 'x', 1), ('2024-01-02', 'b', 'y', 2), ('2024-01-03', null, null, 3), ('2024-01-04', 'c', 'z', 4)")
  const ids = async (sql: string, params: unknown[]): Promise<unknown[]> => (await db.query(sql, params)).rows.map((r) => r[0])
  t.same(await ids('select i from t where s in ($1)', [['a', 'c']]), [1, 4], 'symbols')
  t.same(await ids('select i from t where v in ($1)', [['y', 'z', 'nope']]), [2, 4], 'varchar')
  t.same(await ids('select i from t where i in ($1)', [['1', 4]]), [1, 4], 'elements convert as parameters do')
  t.same(await ids('select i from t where s not in ($1)', [['a']]), [2, 3, 4], 'NOT IN')
  t.same(await ids('select i from t where s in ($1)', [[]]), [], 'an empty array matches nothing')
  t.same(await ids('select i from t where s not in ($1)', [[]]), [1, 2, 3, 4], '... and NOT IN it matches everything')
  t.same(await ids('select i from t where s in ($1, $2) and i > $3', [['a'], 'b', 0]), [1, 2], 'beside other parameters')
  t.same(await ids('select i from t where s in ($1)', ['b']), [2], 'a scalar is still a scalar')
  const prepared = db.prepare('select i from t where s in ($1)')
  t.same((await prepared.query([['b', 'c']])).rows, [[2], [4]], 'one prepared statement, lists of any length')
  t.same((await prepared.query([['a']])).rows, [[1]])
  await t.rejects(db.query('select $1', [['a']]), { code: '42804' }, 'outside an IN list: 42804')
  await t.rejects(db.query('select i from t where i in ($1)', [['x']]), { code: '22P02' }, 'an element that does not convert: 22P02')
})

t.test('PostgreSQL type names, as tools write them, map to engine types', async (t) => {
  const db = await Database.open()
  await db.query('create table pg (ts timestamp without time zone, t2 timestamp with time zone, t3 timestamptz, d double precision, f53 float(53), f10 float(10), s varchar(50), c character varying(20), c2 character varying, x text, n bigint)')
  t.same((await db.query("select type from table_columns('pg')")).rows.map((r) => r[0]),
    ['TIMESTAMP', 'TIMESTAMP', 'TIMESTAMP', 'DOUBLE', 'DOUBLE', 'FLOAT', 'VARCHAR', 'VARCHAR', 'VARCHAR', 'STRING', 'LONG'])
  t.same((await db.query("select '2024-01-01'::timestamp without time zone a, 1::double precision b, cast('x' as character varying) c")).rows, [[1704067200000000n, 1, 'x']])
  await t.rejects(db.query('create table bad (d long128)'), { code: '42704', message: /unsupported column type: long128/ }, 'types EpochDB lacks are still refused')
  await t.rejects(db.query('create table bad (c char(5))'), { code: '42704' })
})

t.test('an internal failure surfaces as SqlError XX000 with the original error as cause', async (t) => {
  const db = await Database.open()
  // an AST no parser produces: binding it breaks an invariant (a TypeError inside the binder)
  const bogus = { kind: 'select', pos: 0, distinct: false, columns: [{ expr: { kind: 'bogus', pos: 0 } }], joins: [] } as unknown as Parameters<Database['execute']>[0]
  const e = await db.execute(bogus, []).then(() => undefined, (x: unknown) => x)
  t.ok(e instanceof SqlError, 'a SqlError')
  t.match(e, { code: 'XX000', message: /^internal error: / })
  t.ok((e as SqlError).cause instanceof Error, 'the cause is kept')
  t.same((await db.query('select 1')).rows, [[1]], 'the database keeps working')
})

t.test('close({ cancel: true }) cancels running statements with 57P01; a cancelled write changes nothing', async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ path: dir })
  await db.query('create table c (ts timestamp, x long) timestamp(ts)')
  await db.query("insert into c values ('2024-01-01', 1)")
  const long = db.query('insert into c select x::timestamp, x from long_sequence(300000000) where x % 100000000 = 0').catch((e: unknown) => e)
  const read = db.query('select count() from long_sequence(300000000) where x % 7 = 0').catch((e: unknown) => e)
  await new Promise((r) => setTimeout(r, 200))
  const t0 = Date.now()
  await db.close({ cancel: true })
  t.ok(Date.now() - t0 < 3000, `close waited only for the cancellation (${Date.now() - t0} ms)`)
  t.match(await long, { code: '57P01', message: /shutting down/ })
  t.match(await read, { code: '57P01' })
  await t.rejects(db.query('select 1'), { code: '57P01' }, 'a closed database refuses new statements')
  const again = await Database.open({ path: dir })
  t.same((await again.query('select x from c')).rows, [[1n]], 'the cancelled INSERT left nothing')
  await again.close()
})
