import t from 'tap'
import { Database } from '../../lib/index.js'

t.test('INSERTs inside BEGIN are invisible until COMMIT and dropped by ROLLBACK', async (t) => {
  const db = await Database.open()
  const s = db.session()
  const count = async () => (await db.query('select count() from t')).rows[0]![0]
  await db.query('create table t (id int)')
  await db.query('begin', [], { session: s })
  await db.query('insert into t values (1), (2)', [], { session: s })
  t.equal(await count(), 0n, 'not visible before commit')
  await db.query('rollback', [], { session: s })
  t.equal(await count(), 0n, 'rolled back')
  await db.query('begin', [], { session: s })
  await db.query('insert into t values (3)', [], { session: s })
  await db.query('insert into t select x::int from long_sequence(2)', [], { session: s })
  await db.query('insert into t values (9)')
  t.equal(await count(), 1n, 'another session autocommits meanwhile')
  await db.query('commit', [], { session: s })
  t.same((await db.query('select id from t')).rows, [[9], [3], [1], [2]])
  await db.query('insert into t values (4)', [], { session: s })
  t.equal(await count(), 5n, 'autocommit again after COMMIT')
})

t.test('a failing INSERT inside a transaction buffers nothing', async (t) => {
  const db = await Database.open()
  const s = db.session()
  await db.query('create table t (id int, ts timestamp) timestamp(ts)')
  await db.query('begin', [], { session: s })
  await t.rejects(db.query("insert into t values (1, 'x')", [], { session: s }), { code: '22P02' })
  await db.query("insert into t values (2, '2024-01-01')", [], { session: s })
  await db.query('commit', [], { session: s })
  t.same((await db.query('select id from t')).rows, [[2]])
})
