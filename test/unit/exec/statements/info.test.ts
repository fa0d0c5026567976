/**
 * StatementInfo: `db.statementInfo(stmt)`, `db.describe(stmt)` and `db.prepare(sql).info` give a
 * statement's parameter types, result columns, returns-rows, command tag, writes and permissions,
 * worked out once per statement and schema version.
 */
import t from 'tap'
import { Database, SqlError } from '../../../../lib/index.js'

const open = async (): Promise<Database> => {
  const db = await Database.open()
  await db.query('create table t (ts timestamp, id int, v double, s symbol) timestamp(ts) partition by day')
  return db
}

t.test('the facts of each statement kind', async (t) => {
  const db = await open()
  const info = (sql: string) => db.statementInfo(db.parse(sql)[0]!)
  const facts = (sql: string) => { const i = info(sql); return [i.returnsRows, i.commandTag, i.writes] }
  t.same(facts('select * from t'), [true, 'SELECT', false])
  t.same(facts('select 1 union select 2'), [true, 'SELECT', false])
  t.same(facts('show tables'), [true, 'SELECT', false])
  t.same(facts('explain select 1'), [true, 'EXPLAIN', false])
  t.same(facts('insert into t values (now(), 1, 2, null)'), [false, 'INSERT', true])
  t.same(facts('update t set v = 1'), [false, 'UPDATE', true])
  t.same(facts('create table u (x int)'), [false, 'CREATE TABLE', true])
  t.same(facts('create table u as (select * from t)'), [false, 'SELECT', true])
  t.same(facts('drop table t'), [false, 'DROP TABLE', true])
  t.same(facts('truncate table t'), [false, 'TRUNCATE TABLE', true])
  t.same(facts('rename table t to u'), [false, 'ALTER TABLE', true])
  t.same(facts('alter table t add column x int'), [false, 'ALTER TABLE', true])
  t.same(facts('begin'), [false, 'BEGIN', false])
  t.same(facts("set time zone 'UTC'"), [false, 'SET', false])
  t.same(facts('delete from t'), [false, 'DELETE', true])
  t.same(info('select id, v from t').columns, [{ name: 'id', type: 'INT' }, { name: 'v', type: 'DOUBLE' }])
  t.equal(info('insert into t values (now(), 1, 2, null)').columns, undefined)
  t.same(info('select v from t where id = $1 and s = $2').params, ['INT', 'SYMBOL'])
  t.same(info('select 1').params, [])
})

t.test('computed once per statement and schema version; DDL makes it anew', async (t) => {
  const db = await open()
  const stmt = db.parse('select * from t')[0]!
  const a = db.statementInfo(stmt)
  t.equal(db.statementInfo(stmt), a, 'the same object while the schema stands')
  t.equal(db.statementInfo(db.parse('select * from t')[0]!), a, 'the same text is the same parsed statement')
  t.same(a.permissions, [{ permission: 'SELECT', table: 't', columns: ['ts', 'id', 'v', 's'] }])
  await db.query('alter table t add column w long')
  const b = db.statementInfo(stmt)
  t.not(b, a)
  t.same(b.permissions, [{ permission: 'SELECT', table: 't', columns: ['ts', 'id', 'v', 's', 'w'] }])
  t.same(b.columns?.map((c) => c.name), ['ts', 'id', 'v', 's', 'w'])
})

t.test('a statement that does not bind: statementInfo answers, describe throws its error', async (t) => {
  const db = await open()
  const stmt = db.parse('select nope from t where id = $1')[0]!
  const info = db.statementInfo(stmt)
  t.same(info.params, ['STRING'], 'parameters default to STRING')
  t.equal(info.columns, undefined)
  t.equal(info.returnsRows, true)
  t.same(info.permissions, [{ permission: 'SELECT', table: 't' }])
  let err: unknown
  try { db.describe(stmt) } catch (e) { err = e }
  t.ok(err instanceof SqlError && err.code === '42703', 'describe throws 42703')
  await t.rejects(db.query('select nope from t where id = $1', [1]), { code: '42703' })
})

t.test('describe and prepare offer the same facts', async (t) => {
  const db = await open()
  const d = db.describe(db.parse('update t set v = $1 where id = $2')[0]!)
  t.same(d.params, ['DOUBLE', 'INT'])
  t.equal(d.commandTag, 'UPDATE')
  t.equal(d.writes, true)
  t.same(d.permissions, [{ permission: 'UPDATE', table: 't', columns: ['v'] }, { permission: 'SELECT', table: 't', columns: ['id'] }])
  t.same(db.describe(db.parse('select v from t where id = $1')[0]!, ['LONG']).params, ['LONG'], 'declared types kept')
  const ps = db.prepare('insert into t (ts, v) values ($1, $2)')
  t.same(ps.info.params, ['TIMESTAMP', 'DOUBLE'])
  t.equal(ps.info.returnsRows, false)
  t.same(ps.info.permissions, [{ permission: 'INSERT', table: 't' }])
  t.equal((await ps.query([new Date('2024-01-01T00:00:00Z'), 1.5])).rowCount, 1)
})

t.test('a big INSERT ... VALUES is not bound for its facts', async (t) => {
  const db = await open()
  const rows = Array.from({ length: 20000 }, (_, i) => `('2024-01-01T00:00:00Z', ${i}, ${i}.5, 'x')`).join(',')
  const info = db.statementInfo(db.parse(`insert into t values ${rows}`)[0]!)
  t.same(info.params, [])
  t.same(info.permissions, [{ permission: 'INSERT', table: 't' }])
})
