/**
 * UPDATE prunes by the designated timestamp as a query does (`extract-timestamp-intervals`, then
 * the execution's runtime bounds): `UPDATE t SET ... WHERE ts IN '2024-01-03'` reads and writes
 * only that day's partition, and a bound narrower than a partition reads only its rows (range
 * reads). Not timed: what is checked is what storage read (`STORAGE_STATS`) and which partitions
 * `_meta` names new files for, and that the rows updated are those a full check would update.
 */
import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { packr } from '../../lib/storage/durable/wal-codec.js'
import { STORAGE_STATS, resetStorageStats } from '../../lib/storage/durable/part-cache.js'
import { tmpDir } from '../unit/storage/helpers.js'

const tableDir = (root: string): string => join(root, readdirSync(root).find((e) => e.startsWith('t~'))!)
type Entry = { name: string; files?: string[] }
const changedParts = (root: string): string[] =>
  (packr.unpack(readFileSync(join(tableDir(root), '_meta'))) as { partitions: Entry[] }).partitions.filter((p) => p.files !== undefined).map((p) => p.name)

/** 10 DAY partitions of 100 rows, every row checkpointed, the database reopened (nothing loaded). */
async function make(dir: string, tsType = 'TIMESTAMP'): Promise<Database> {
  let db = await Database.open({ path: dir })
  await db.query(`CREATE TABLE t AS (SELECT rnd_symbol('a','b','c') s, x, 'v' || x v,
    timestamp_sequence('2024-01-01', 864000000)::${tsType} ts FROM long_sequence(1000)) TIMESTAMP(ts) PARTITION BY DAY`)
  await db.close()
  db = await Database.open({ path: dir })
  return db
}

/** The rows a query of the same filter finds, for comparing with what UPDATE changed. */
const countWhere = async (db: Database, where: string, params: unknown[] = []): Promise<bigint> =>
  (await db.query(`SELECT count() FROM t WHERE ${where}`, params)).rows[0]![0] as bigint

t.test('UPDATE ... WHERE ts IN a day reads and writes that day\'s partition only', async (t) => {
  const dir = tmpDir(t)
  const db = await make(dir)
  t.teardown(() => db.close())
  resetStorageStats()
  const r = await db.query(`UPDATE t SET x = x + 1000 WHERE ts IN '2024-01-03'`)
  t.equal(r.rowCount, 100)
  t.equal(STORAGE_STATS.partitionLoads, 1, 'one partition read (the other 9 not opened)')
  t.same(changedParts(dir), ['2024-01-03'], 'one partition written')
  t.same((await db.query(`SELECT min(x), max(x) FROM t WHERE ts IN '2024-01-03'`)).rows, [[1201n, 1300n]])
  t.same((await db.query(`SELECT sum(x) FROM t`)).rows, [[500500n + 100_000n]])
})

t.test('with another conjunct, and with a bound narrower than a partition: only the rows in range are read', async (t) => {
  const dir = tmpDir(t)
  const db = await make(dir)
  t.teardown(() => db.close())
  // 2024-01-04T00:00..01:59 holds 9 rows of the day's 100 (one row every 14.4 minutes): few enough for range reads
  const where = `ts >= '2024-01-04' AND ts < '2024-01-04T02:00:00' AND x % 2 = 0`
  const expected = await db.query(`SELECT x FROM t WHERE ${where} ORDER BY x`)
  await db.close()
  const again = await Database.open({ path: dir })
  t.teardown(() => again.close())
  resetStorageStats()
  const none = await again.query(`UPDATE t SET v = 'none' WHERE ts >= '2024-01-04' AND ts < '2024-01-04T02:00:00' AND x < 0`)
  t.equal(none.rowCount, 0)
  t.equal(STORAGE_STATS.partitionLoads, 0, 'no whole column read: the range of rows only')
  t.ok(STORAGE_STATS.bytesLoaded > 0 && STORAGE_STATS.bytesLoaded <= 2 * 9 * 8, `only the rows in range were read (${STORAGE_STATS.bytesLoaded} bytes)`)
  t.same(changedParts(dir), [], 'nothing written')
  resetStorageStats()
  const r = await again.query(`UPDATE t SET v = 'even' WHERE ${where}`)
  t.equal(r.rowCount, expected.rows.length)
  t.same((await again.query(`SELECT x FROM t WHERE v = 'even' ORDER BY x`)).rows, expected.rows)
  t.same(changedParts(dir), ['2024-01-04'])
})

t.test('runtime bounds (a parameter, now()-relative) prune too; an unresolvable one prunes nothing and the filter reports it', async (t) => {
  const dir = tmpDir(t)
  const db = await make(dir)
  t.teardown(() => db.close())
  resetStorageStats()
  const r = await db.query(`UPDATE t SET x = -x WHERE ts IN $1`, ['2024-01-07'])
  t.equal(r.rowCount, 100)
  t.equal(STORAGE_STATS.partitionLoads, 1, 'ts IN $1: one partition read')
  resetStorageStats()
  const r2 = await db.query(`UPDATE t SET x = -x WHERE ts > dateadd('d', -1, now())`)
  t.equal(r2.rowCount, 0, 'no row in the last day')
  t.equal(STORAGE_STATS.partitionLoads, 0, 'nothing read for a bound past the table\'s end')
  t.same(changedParts(dir), ['2024-01-07'])
  const bad = await db.query(`SELECT count() FROM t WHERE ts IN $1`, ['not a time']).then(() => undefined, (e: { code: string; message: string }) => e)
  t.ok(bad !== undefined, 'SELECT refuses the text')
  await t.rejects(db.query(`UPDATE t SET x = 0 WHERE ts IN $1`, ['not a time']), { code: bad!.code, message: bad!.message }, 'UPDATE refuses it as SELECT does')
  t.equal(await countWhere(db, 'x < 0'), 100n)
})

t.test('TIMESTAMP_NS tables prune by the microseconds covering the bound', async (t) => {
  const dir = tmpDir(t)
  const db = await make(dir, 'TIMESTAMP_NS')
  t.teardown(() => db.close())
  resetStorageStats()
  const r = await db.query(`UPDATE t SET x = 0 WHERE ts IN '2024-01-02'`)
  t.equal(r.rowCount, 100)
  t.equal(STORAGE_STATS.partitionLoads, 1)
  t.same(changedParts(dir), ['2024-01-02'])
  // the first row of the day exactly, to the nanosecond
  const one = await db.query(`UPDATE t SET x = -7 WHERE ts = '2024-01-03T00:00:00.000000000Z'`)
  t.equal(one.rowCount, 1)
  t.same((await db.query(`SELECT x FROM t WHERE x = -7`)).rows.length, 1)
})

t.test('a Parquet partition outside the bounds does not refuse the UPDATE; one inside does', async (t) => {
  const dir = tmpDir(t)
  const db = await make(dir)
  t.teardown(() => db.close())
  await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2024-01-01'`)
  t.equal((await db.query(`UPDATE t SET x = 1 WHERE ts IN '2024-01-05'`)).rowCount, 100)
  await t.rejects(db.query(`UPDATE t SET x = 1 WHERE ts IN '2024-01-01'`), { code: '0A000' })
  t.same(changedParts(dir), ['2024-01-05'])
})
