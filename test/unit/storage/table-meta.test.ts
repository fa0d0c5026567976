import t from 'tap'
import { Database, SqlError } from '../../../lib/index.js'
import { Table, type TableMeta } from '../../../lib/storage/table.js'
import { BATCH_SIZE, getScalar } from '../../../lib/types/vector.js'

const META: TableMeta = {
  id: 1, name: 't', timestampIndex: 0, partitionBy: 'DAY', wal: true, dedupKeys: [], ttl: undefined, maxUncommittedRows: 1000, o3MaxLag: 0,
  columns: [
    { name: 'ts', type: 'TIMESTAMP', indexed: false, symbolCapacity: 256, symbolCached: true },
    { name: 'v', type: 'LONG', indexed: false, symbolCapacity: 256, symbolCached: true },
  ],
}

t.test('a snapshot keeps the metadata it was taken with; metadata cannot be changed in place', async (t) => {
  const table = new Table(structuredClone(META))
  const snap = table.snapshot()
  table.setMeta({ ...table.meta, columns: table.meta.columns.map((c) => (c.name === 'v' ? { ...c, name: 'w' } : c)) })
  t.equal(snap.meta.columns[1]!.name, 'v')
  t.equal(table.meta.columns[1]!.name, 'w')
  t.throws(() => { (table.meta.columns[1] as { name: string }).name = 'x' }, TypeError, 'frozen')
  t.throws(() => { (table.meta.columns as unknown[]).pop() }, TypeError, 'frozen')
})

/** A table with more rows than one batch, so a stream of it is open after its first batch. */
async function bigTable(db: Database): Promise<number> {
  const n = BATCH_SIZE + 10
  await db.query('create table t (ts timestamp, k long, s symbol, v long, w long) timestamp(ts) partition by day')
  await db.query(`insert into t select timestamp_sequence('2024-01-01', 1000000), -x, 'a', x, x * 10 from long_sequence(${n})`)
  return n
}

t.test('a stream open across RENAME COLUMN and DROP COLUMN reads the table as it started', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  const n = await bigTable(db)
  const ex = await db.execute(db.parse('select v, w from t')[0]!, [])
  const it = ex.batches[Symbol.asyncIterator]()
  const first = await it.next()
  t.notOk(first.done)
  await db.query('alter table t rename column v to vv')
  await db.query('alter table t drop column s')
  await db.query('alter table t rename column w to ww')
  let rows = first.value!.length
  let sum = 0
  const add = (b: { length: number; vectors: readonly import('../../../lib/types/vector.js').Vector[] }) => {
    for (let i = 0; i < b.length; i++) sum += Number(getScalar(b.vectors[1]!, i)) - 10 * Number(getScalar(b.vectors[0]!, i))
  }
  add(first.value!)
  for (let r = await it.next(); r.done !== true; r = await it.next()) { rows += r.value.length; add(r.value) }
  t.equal(rows, n)
  t.equal(sum, 0, 'w = 10 * v on every row')
  t.same(ex.columns.map((c) => c.name), ['v', 'w'])
  t.same((await db.query('select vv, ww from t limit 1')).rows, [[1, 10]], 'the new names afterwards')
})

t.test('a statement whose scan starts after DROP COLUMN fails with 40001, not with a wrong column', async (t) => {
  for (const sql of ['select v, w from t', 'select v, w from t latest on ts partition by s', 'select s, sum(v) from t']) {
    const db = await Database.open()
    t.teardown(() => db.close())
    await bigTable(db)
    const ex = await db.execute(db.parse(sql)[0]!, [])
    await db.query('alter table t drop column k')
    const err = await (async () => { try { for await (const _ of ex.batches) { /* drain */ } } catch (e) { return e } return undefined })()
    t.type(err, SqlError, sql)
    t.equal((err as SqlError).code, '40001', sql)
  }
})
