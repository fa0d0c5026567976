/**
 * The filter over a symbol-index scan (exec/operators/indexed-filter.ts) gathers the predicate's
 * columns at the indexed rows and the other columns only at the rows it keeps, with the same
 * answers as the plain filter (the property test comparing indexed and unindexed tables is in
 * test/unit/storage/symbol-index.test.ts).
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { INDEXED_FILTER_STATS } from '../../../../lib/exec/operators/indexed-filter.js'

const START = Date.UTC(2024, 0, 1) * 1000

t.test('a filter over the index gathers the predicate\'s columns at the indexed rows, the others only at the rows it keeps', async (t) => {
  const db = await Database.open()
  await db.query('create table t (s symbol index, a double, b double, c double, d double, w varchar, ts timestamp) timestamp(ts) partition by day')
  const n = 4000
  await db.append('t', {
    s: Array.from({ length: n }, (_, i) => `h${i % 4}`),
    a: Float64Array.from({ length: n }, (_, i) => i),
    b: Float64Array.from({ length: n }, (_, i) => -i),
    c: Float64Array.from({ length: n }, (_, i) => i % 10),
    d: Float64Array.from({ length: n }, (_, i) => i / 2),
    w: Array.from({ length: n }, (_, i) => `w${i}`),
    ts: Float64Array.from({ length: n }, (_, i) => START + i * 60_000_000),
  })
  t.match((await db.query("explain select * from t where s = 'h1' and a > 3990")).rows.flat().join('\n'), /Index forward scan on: s/)
  const before = INDEXED_FILTER_STATS.gathered
  const rows = (await db.query("select * from t where s = 'h1' and a > 3990")).rows
  t.same(rows.map((r) => r[1]), [3993, 3997])
  t.same(rows.map((r) => r[5]), ['w3993', 'w3997'])
  const gathered = INDEXED_FILTER_STATS.gathered - before
  // s and a at the host's 1,000 rows, the 5 other columns at the 2 rows kept (every column at every row: 7,000)
  t.equal(gathered, 2 * 1000 + 5 * 2)
  await db.close()
})

t.test('with a projection, a predicate on text, and parts without the indexed key', async (t) => {
  const db = await Database.open()
  await db.query('create table t (s symbol index, a double, w varchar, ts timestamp) timestamp(ts) partition by hour')
  const n = 600
  await db.append('t', {
    s: Array.from({ length: n }, (_, i) => (i < 300 ? `h${i % 3}` : 'other')),
    a: Float64Array.from({ length: n }, (_, i) => i),
    w: Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : `w${i % 5}`)),
    ts: Float64Array.from({ length: n }, (_, i) => START + i * 60_000_000),
  })
  const q = "select ts, a from t where s in ('h1', 'h2') and w = 'w2' and ts >= '2024-01-01T01:00:00Z'"
  const indexed = (await db.query(q)).rows
  await db.query('alter table t alter column s drop index')
  t.notMatch((await db.query(`explain ${q}`)).rows.flat().join('\n'), /Index forward scan/)
  t.same(indexed, (await db.query(q)).rows)
  t.ok(indexed.length > 10)
  await db.close()
})
