// ALTER TABLE ... CONVERT PARTITION TO PARQUET | NATIVE on a data directory: the engine's answers
// do not change, DuckDB reads the partition files straight from the directory, and the converted
// state survives a restart, a crash (the directory as it is while open) and a failed commit.
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { cpSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { injectFault } from '../../lib/storage/durable/io.js'
import { duckRows, tmpDir } from '../unit/parquet/helpers.js'

const Q = 'SELECT s, x, d, v, ts FROM t ORDER BY ts'
async function make(dir: string): Promise<Database> {
  const db = await Database.open({ path: dir })
  await db.query(`CREATE TABLE t AS (SELECT rnd_symbol('a','b','c', null) s, x, rnd_double() d, rnd_varchar(1, 6, 4) v,
    timestamp_sequence('2024-01-01', 1800000000) ts FROM long_sequence(480, 1, 2)) TIMESTAMP(ts) PARTITION BY DAY`)
  return db
}
const tableDir = (root: string): string => join(root, readdirSync(root).find((e) => e.startsWith('t~'))!)
const parquetDirs = (root: string): string[] => readdirSync(tableDir(root)).filter((e) => safeList(join(tableDir(root), e)).includes('data.parquet')).sort()
function safeList(p: string): string[] { try { return readdirSync(p) } catch { return [] } }

t.test('converted partitions answer as before, with pruning, and DuckDB reads them from the data directory', async (t) => {
  const dir = tmpDir(t)
  const db = await make(dir)
  t.teardown(() => db.close())
  const before = (await db.query(Q)).rows
  const r = await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET WHERE ts < '2024-01-08'`)
  t.equal(r.rowCount, 7, 'seven partitions converted')
  t.same(parquetDirs(dir), ['2024-01-01.3', '2024-01-02.3', '2024-01-03.3', '2024-01-04.3', '2024-01-05.3', '2024-01-06.3', '2024-01-07.3'])
  t.same((await db.query(Q)).rows, before, 'the same rows, symbols included')
  t.same((await db.query(`SELECT count(), sum(x) FROM t WHERE ts IN '2024-01-03'`)).rows, [[48n, BigInt(sumDay(before, '2024-01-03'))]], 'an interval on a converted partition')
  t.same((await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2024-01-02'`)).rowCount, 0, 'already Parquet: nothing to do')
  // DuckDB over the converted history, next to the engine's answer for the same days
  const duck = await duckRows(`SELECT s, count(*), sum(x) FROM read_parquet('${tableDir(dir)}/*/data.parquet') GROUP BY s ORDER BY s NULLS FIRST`)
  const epoch = await db.query(`SELECT s, count(), sum(x) FROM t WHERE ts < '2024-01-08' ORDER BY s`)
  t.same(duck.map((x) => [x[0], Number(x[1]), Number(x[2])]), epoch.rows.map((x) => [x[0], Number(x[1]), Number(x[2])]))
  const ts = await duckRows(`SELECT min(ts)::VARCHAR, max(ts)::VARCHAR FROM read_parquet('${tableDir(dir)}/*/data.parquet')`)
  t.same(ts, [['2024-01-01 00:00:00+00', '2024-01-07 23:30:00+00']])
  // and back
  t.equal((await db.query(`ALTER TABLE t CONVERT PARTITION TO NATIVE WHERE ts >= '2024-01-05'`)).rowCount, 3)
  t.equal(parquetDirs(dir).length, 4)
  t.same((await db.query(Q)).rows, before)
})

function sumDay(rows: unknown[][], day: string): number {
  const lo = Date.parse(`${day}T00:00:00Z`) * 1000
  return rows.filter((r) => Number(r[4]) >= lo && Number(r[4]) < lo + 86_400_000_000).reduce((a, r) => a + Number(r[1]), 0)
}

t.test('errors', async (t) => {
  const dir = tmpDir(t)
  const db = await make(dir)
  t.teardown(() => db.close())
  await t.rejects(db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2023-05-05'`), { code: '22023', message: /no such partition/ })
  await t.rejects(db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET WHERE ts < '2000-01-01'`), { code: '22023', message: 'no partitions matched WHERE clause' })
  await t.rejects(db.query(`ALTER TABLE t CONVERT PARTITION TO CSV LIST '2024-01-01'`), { code: '42601', message: /expected PARQUET or NATIVE/ })
  await db.query('CREATE TABLE plain (x INT)')
  await t.rejects(db.query(`ALTER TABLE plain CONVERT PARTITION TO PARQUET LIST '2024'`), { code: '42601', message: 'table is not partitioned' })
  const mem = await Database.open()
  t.teardown(() => mem.close())
  await mem.query(`CREATE TABLE m (ts TIMESTAMP) TIMESTAMP(ts) PARTITION BY DAY`)
  await t.rejects(mem.query(`ALTER TABLE m CONVERT PARTITION TO PARQUET WHERE ts < '2025'`), { code: '0A000', message: /data directory/ })
  t.equal((await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET WHERE ts >= '2024-01-10'`)).rowCount, 1, 'a WAL table\'s active partition is converted, as QuestDB\'s writer does (BYPASS WAL: test/unit/exec/statements/convert-partition.test.ts)')
})

t.test('survives a restart, a crash and a failed commit', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  const before = (await db.query(Q)).rows
  await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2024-01-02', '2024-01-04'`)
  // a crash right after: the directory as it is while the database is open
  const copy = `${dir}-crash`
  t.teardown(() => rmSync(copy, { recursive: true, force: true }))
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true })
  for (const e of readdirSync(copy)) if (e.startsWith('_lock')) rmSync(join(copy, e))
  const crashed = await Database.open({ path: copy })
  t.same((await crashed.query(Q)).rows, before, 'the copy taken while open reads the same')
  t.same(parquetDirs(copy), ['2024-01-02.3', '2024-01-04.3'])
  await crashed.close()
  await db.close()
  db = await Database.open({ path: dir })
  t.same((await db.query(Q)).rows, before, 'after a restart')
  t.same(parquetDirs(dir), ['2024-01-02.3', '2024-01-04.3'])
  // the commit point (replacing _meta) fails: the old state stands and stays readable
  const restore = injectFault(['renameSync'], 'EIO', (p) => String(p).endsWith('_meta.tmp'))
  try {
    await t.rejects(db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2024-01-06'`), { code: '58030' })
  } finally {
    restore()
  }
  t.same((await db.query(Q)).rows, before, 'unchanged after the failed commit')
  await db.close()
  db = await Database.open({ path: dir })
  t.same(parquetDirs(dir), ['2024-01-02.3', '2024-01-04.3'], 'the failed conversion left nothing behind after reopening')
  t.same((await db.query(Q)).rows, before)
  // appends into a converted partition merge and rewrite it as column files
  await db.query(`INSERT INTO t VALUES ('z', 9999, 0.5, 'late', '2024-01-02T12:15:00Z')`)
  t.same((await db.query(`SELECT count() FROM t WHERE ts IN '2024-01-02'`)).rows, [[49n]])
  await db.close()
  db = await Database.open({ path: dir })
  t.same((await db.query(`SELECT count(), max(x) FROM t WHERE ts IN '2024-01-02'`)).rows, [[49n, 9999n]])
  await db.close()
})
