/**
 * UPDATE ... FROM on a durable table (QuestDB's UPDATE with a join) takes the path plain UPDATE
 * takes: every row checkpointed first, the join reads the partitions as a query does (only those
 * its designated-timestamp bounds meet), and only the changed columns of the partitions with
 * matched rows are written as new files that `_meta` names. Each statement also runs on an
 * in-memory database, which must answer the same. Not timed: what is checked is what storage read
 * (`STORAGE_STATS`), which partitions `_meta` names new files for, and the rows.
 */
import t, { type Test } from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { packr } from '../../lib/storage/durable/wal-codec.js'
import { STORAGE_STATS, resetStorageStats } from '../../lib/storage/durable/part-cache.js'
import { tmpDir } from '../unit/storage/helpers.js'

const tableDir = (root: string): string => join(root, readdirSync(root).find((e) => e.startsWith('t~'))!)
type Entry = { name: string; dir: string; files?: string[] }
const metaOf = (root: string) => packr.unpack(readFileSync(join(tableDir(root), '_meta'))) as { txn: number; partitions: Entry[] }
const changedParts = (root: string): string[] => metaOf(root).partitions.filter((p) => p.files !== undefined).map((p) => p.name)

const SETUP = [
  `CREATE TABLE t AS (SELECT cast('s' || (x % 3) AS SYMBOL) s, x, 'v' || x v, timestamp_sequence('2024-01-01', 864000000) ts FROM long_sequence(1000)) TIMESTAMP(ts) PARTITION BY DAY`,
  // ids in days 2024-01-03 (x 201..300) and 2024-01-08 (x 701..800); 250 twice
  `CREATE TABLE p (id LONG, price DOUBLE, tag SYMBOL)`,
  `INSERT INTO p VALUES (250, 2.5, 'p1'), (260, 2.6, 'p2'), (750, 7.5, 'p3'), (250, 9.9, 'p4'), (5000, 50.0, 'p5')`,
]

/** A durable database with the tables, every row checkpointed, reopened (nothing loaded); and the same in memory. */
async function make(dir: string): Promise<{ db: Database; mem: Database }> {
  let db = await Database.open({ path: dir })
  for (const q of SETUP) await db.query(q)
  await db.close()
  db = await Database.open({ path: dir })
  const mem = await Database.open({})
  for (const q of SETUP) await mem.query(q)
  return { db, mem }
}

/** Runs `sql` on both databases: the same row count and the same table after. */
async function both(t: Test, db: Database, mem: Database, sql: string): Promise<number> {
  const a = await db.query(sql)
  const b = await mem.query(sql)
  t.equal(a.rowCount, b.rowCount, `${sql}: as many rows as in memory`)
  const all = 'SELECT s, x, v, ts FROM t ORDER BY ts'
  t.same((await db.query(all)).rows, (await mem.query(all)).rows, `${sql}: the same rows as in memory`)
  return a.rowCount ?? -1
}

t.test('UPDATE ... FROM writes only the changed columns of the partitions with matched rows; restart', async (t) => {
  const dir = tmpDir(t)
  let { db, mem } = await make(dir)
  t.teardown(() => mem.close())
  const txn = metaOf(dir).txn
  const n = await both(t, db, mem, `UPDATE t SET v = 'from ' || p.tag, s = p.tag FROM p WHERE t.x = p.id`)
  t.equal(n, 3, 'three target rows (250 matched twice counts once)')
  const m = metaOf(dir)
  t.equal(m.txn, txn + 1, 'one _meta written')
  t.same(changedParts(dir), ['2024-01-03', '2024-01-08'], 'only the partitions with matched rows')
  const e = m.partitions.find((p) => p.name === '2024-01-03')!
  t.same(e.files, [`s.u${m.txn}`, 'x', `v.u${m.txn}`, 'ts'], 'only the SET columns have new files')
  t.same(readdirSync(join(tableDir(dir), e.dir)).sort(), [`s.u${m.txn}.d`, 'ts.d', `v.u${m.txn}.d`, `v.u${m.txn}.o`, 'x.d'])
  t.same((await db.query(`SELECT x, s, v FROM t WHERE v LIKE 'from%' ORDER BY x`)).rows.map((r) => r.slice(0, 1)), [[250n], [260n], [750n]])
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  const all = 'SELECT s, x, v, ts FROM t ORDER BY ts'
  t.same((await db.query(all)).rows, (await mem.query(all)).rows, 'the same after a restart (new symbol values too)')
  t.equal((await db.query(`UPDATE t SET x = p.id FROM p WHERE t.x = p.id + 100000`)).rowCount, 0, 'no match')
  t.equal(metaOf(dir).txn, txn + 1, 'no match writes nothing')
})

t.test('the target\'s designated-timestamp bounds prune the join\'s scan', async (t) => {
  const dir = tmpDir(t)
  const { db, mem } = await make(dir)
  t.teardown(async () => { await db.close(); await mem.close() })
  resetStorageStats()
  const n = await db.query(`UPDATE t SET x = t.x + p.price::long FROM p WHERE t.x = p.id AND t.ts IN '2024-01-08'`)
  t.equal(n.rowCount, 1)
  t.equal(STORAGE_STATS.partitionLoads, 2, 'one partition of the target read, and p (11 without the bound)')
  t.same(changedParts(dir), ['2024-01-08'])
  await mem.query(`UPDATE t SET x = t.x + p.price::long FROM p WHERE t.x = p.id AND t.ts IN '2024-01-08'`)
  await both(t, db, mem, `UPDATE t x SET v = q.tag FROM p q JOIN p q2 ON q.id = q2.id WHERE x.x = q.id AND q2.price > 5`)
})

t.test('a matched row in a Parquet partition refuses the statement, before anything is written', async (t) => {
  const dir = tmpDir(t)
  const { db, mem } = await make(dir)
  t.teardown(async () => { await db.close(); await mem.close() })
  await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2024-01-08'`)
  const txn = metaOf(dir).txn
  await t.rejects(db.query(`UPDATE t SET v = p.tag FROM p WHERE t.x = p.id`), { code: '0A000', message: /partition=2024-01-08/ })
  t.equal(metaOf(dir).txn, txn, 'nothing written')
  t.equal((await db.query(`UPDATE t SET v = p.tag FROM p WHERE t.x = p.id AND p.id < 700`)).rowCount, 2, 'rows outside it update')
  t.same(changedParts(dir), ['2024-01-03'])
})

t.test('rows in memory are checkpointed first; the statement sees them', async (t) => {
  const dir = tmpDir(t)
  const { db, mem } = await make(dir)
  t.teardown(async () => { await db.close(); await mem.close() })
  for (const d of [db, mem]) await d.query(`INSERT INTO t VALUES ('a', 5000, 'new', '2024-01-11T01:00:00Z'), ('b', 250, 'late', '2024-01-05T12:00:00Z')`)
  const n = await both(t, db, mem, `UPDATE t SET v = p.tag FROM p WHERE t.x = p.id`)
  t.equal(n, 5, 'both new rows matched too')
})
