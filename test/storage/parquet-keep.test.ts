// Partitions converted to Parquet stay Parquet after the writes that make a checkpoint rewrite them
// (an out-of-order append, ADD/DROP/RENAME COLUMN, an UPDATE), as in QuestDB; partitions the write
// did not reach keep their file as it was. DuckDB reads the files after each write.
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { injectFault } from '../../lib/storage/durable/io.js'
import { duckRows, tmpDir } from '../unit/parquet/helpers.js'
import { packr } from '../../lib/storage/durable/wal-codec.js'

const DAYS = ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05', '2024-01-06', '2024-01-07']
async function make(dir: string): Promise<Database> {
  const db = await Database.open({ path: dir })
  await db.query(`CREATE TABLE t AS (SELECT rnd_symbol('a','b','c', null) s, x, rnd_double() d,
    timestamp_sequence('2024-01-01', 1800000000) ts FROM long_sequence(480, 1, 2)) TIMESTAMP(ts) PARTITION BY DAY`)
  await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET WHERE ts < '2024-01-08'`)
  return db
}
const tableDir = (root: string): string => join(root, readdirSync(root).find((e) => e.startsWith('t~'))!)
function safeList(p: string): string[] { try { return readdirSync(p) } catch { return [] } }
/** The partition directories holding a Parquet file, sorted. */
const parquetDirs = (root: string): string[] => readdirSync(tableDir(root)).filter((e) => safeList(join(tableDir(root), e)).includes('data.parquet')).sort()
const days = (dirs: readonly string[]): string[] => dirs.map((d) => d.slice(0, 10))

/** The partitions table_partitions() reports as Parquet. */
async function parquetNames(db: Database): Promise<string[]> {
  return (await db.query(`SELECT name FROM table_partitions('t') WHERE isParquet ORDER BY name`)).rows.map((r) => String(r[0]))
}

/** Waits (bounded: proves it happens, not how fast) until the `want` days are Parquet again. */
async function parquetAgain(t: { same: (a: unknown, b: unknown, m: string) => unknown }, root: string, db: Database, want: readonly string[] = DAYS): Promise<string[]> {
  const until = Date.now() + 20_000
  while ((await parquetNames(db)).length < want.length && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
  t.same(await parquetNames(db), want, 'the converted partitions are Parquet again')
  const dirs = parquetDirs(root)
  t.same(days(dirs), want, 'one Parquet file each in the data directory')
  return dirs
}

t.test('an out-of-order append into a Parquet partition: rewritten as Parquet, untouched partitions keep their files', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  const converted = parquetDirs(dir)
  t.same(days(converted), DAYS)
  await db.query(`INSERT INTO t VALUES ('z', 9999, 0.5, '2024-01-04T12:15:00Z')`)
  const expect = (await db.query('SELECT * FROM t ORDER BY ts')).rows
  await db.close()
  const dirs = parquetDirs(dir)
  t.same(dirs, converted, 'every converted partition is Parquet after the checkpoint, in its directory')
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same((await db.query('SELECT * FROM t ORDER BY ts')).rows, expect, 'the same rows after a restart')
  t.same((await db.query(`SELECT count(), max(x) FROM t WHERE ts IN '2024-01-04'`)).rows, [[49n, 9999n]])
  const duck = await duckRows(`SELECT count(*), max(x), sum(x) FROM read_parquet('${tableDir(dir)}/*/data.parquet')`)
  const epoch = await db.query(`SELECT count(), max(x), sum(x) FROM t WHERE ts < '2024-01-08'`)
  t.same(duck.map((r) => r.map(Number)), epoch.rows.map((r) => r.map(Number)), 'DuckDB reads the late row in the Parquet file')
  t.same(epoch.rows.map((r) => r.map(Number)), [[337, 9999, 336 * 337 / 2 + 9999]])
})

t.test('ADD, RENAME and DROP COLUMN and an UPDATE keep the converted partitions Parquet (while open)', async (t) => {
  const dir = tmpDir(t)
  const db = await make(dir)
  t.teardown(() => db.close())
  const files = (): string[] => readdirSync(tableDir(dir)).filter((e) => !e.startsWith('_')).sort()
  const before = files()
  // ADD and RENAME COLUMN rewrite no partition: the Parquet files stay as they were (QuestDB's column top)
  await db.query('ALTER TABLE t ADD COLUMN n INT')
  await parquetAgain(t, dir, db)
  const cols = await duckRows(`SELECT column_name FROM (DESCRIBE SELECT * FROM read_parquet('${tableDir(dir)}/*/data.parquet'))`)
  t.same(cols.map((r) => r[0]), ['s', 'x', 'd', 'ts'], 'the files are as they were: the new column has no values in them')
  await db.query('ALTER TABLE t RENAME COLUMN n TO m')
  await db.query('ALTER TABLE t RENAME COLUMN x TO y')
  await parquetAgain(t, dir, db)
  t.same(files(), before, 'no partition was rewritten')
  t.same((await db.query(`SELECT count(), count(m), sum(y) FROM t WHERE ts < '2024-01-08'`)).rows, [[336n, 0n, BigInt(336 * 337 / 2)]], 'the renamed columns read from the files under their old names')
  await db.query('ALTER TABLE t RENAME COLUMN y TO x')
  await db.query('ALTER TABLE t DROP COLUMN m')
  await parquetAgain(t, dir, db)
  // an UPDATE of native rows (the active partition) rewrites every partition
  await db.query(`UPDATE t SET x = -1 WHERE ts >= '2024-01-10'`)
  await parquetAgain(t, dir, db)
  const duck = await duckRows(`SELECT count(*), sum(x), count(DISTINCT s) FROM read_parquet('${tableDir(dir)}/*/data.parquet')`)
  const epoch = await db.query(`SELECT count(), sum(x), count_distinct(s) FROM t WHERE ts < '2024-01-08'`)
  t.same(duck.map((r) => r.map(Number)), epoch.rows.map((r) => r.map(Number)), 'DuckDB and EpochDB agree on the converted history')
  t.same((await db.query(`SELECT count(), sum(x) FROM t WHERE ts >= '2024-01-10'`)).rows, [[48n, -48n]])
  t.same((await db.query('SELECT "column" FROM table_columns(\'t\')')).rows.map((r) => r[0]), ['s', 'x', 'd', 'ts'])
})

t.test('a partition converted back TO NATIVE stays native, and a dropped table is left alone', async (t) => {
  const dir = tmpDir(t)
  const db = await make(dir)
  t.teardown(() => db.close())
  await db.query(`ALTER TABLE t CONVERT PARTITION TO NATIVE LIST '2024-01-07'`)
  await db.query(`INSERT INTO t VALUES ('z', 1, 0.5, '2024-01-02T12:15:00Z')`)
  await db.query('ALTER TABLE t ADD COLUMN n INT')
  await parquetAgain(t, dir, db, DAYS.slice(0, 6))
  await db.query('ALTER TABLE t DROP COLUMN n')
  await db.query('DROP TABLE t')
  await new Promise((r) => setTimeout(r, 100))
  t.same(readdirSync(dir).filter((e) => e.startsWith('t~')), [], 'no directory comes back for the dropped table')
})

t.test('a conversion back that did not happen (failed, or the process stopped first) is done when the directory is next opened', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  // out of order into the first partition: every partition moves to memory, and is written at the next checkpoint
  await db.query(`INSERT INTO t VALUES ('z', 9999, 0.5, '2024-01-01T12:15:00Z')`)
  // writing Parquet files fails from now on (the engine reads them through node:fs, not this hook)
  const restore = injectFault(['openSync'], 'EIO', (p) => String(p).includes('data.parquet'))
  try {
    // ADD COLUMN first writes the rows in memory (the column then starts after them): the partition the late row
    // landed in is written as column files; those the merge moved to memory but added no row to keep their Parquet file
    await db.query('ALTER TABLE t ADD COLUMN n INT')
    await db.close()
  } finally {
    restore()
  }
  const meta = packr.unpack(readFileSync(join(tableDir(dir), '_meta'))) as { partitions: { name: string; format?: string; parquetFrom?: { dir: string } }[] }
  const pending = meta.partitions.filter((p) => p.format === undefined && p.parquetFrom !== undefined)
  t.same(pending.map((p) => p.name), ['2024-01-01'], 'the failed conversion left it column files, recorded in _meta as on its way back to Parquet')
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  await parquetAgain(t, dir, db)
  t.same((await db.query(`SELECT count(), sum(x), count(n) FROM t`)).rows, [[481n, BigInt(480 * 481 / 2 + 9999), 0n]])
  const duck = await duckRows(`SELECT count(*), max(x) FROM read_parquet('${tableDir(dir)}/*/data.parquet')`)
  t.same(duck.map((r) => r.map(Number)), [[337, 9999]], 'DuckDB reads the late row')
})

t.test('an in-order append into the last partition converted by LIST keeps it Parquet', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2024-01-10'`)
  await db.query(`INSERT INTO t VALUES ('z', 7, 0.5, '2024-01-10T23:59:00Z')`)
  await db.query(`INSERT INTO t VALUES ('z', 8, 0.5, '2024-01-11T00:30:00Z')`)
  await db.close()
  t.same(days(parquetDirs(dir)), [...DAYS, '2024-01-10'])
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same((await db.query(`SELECT count(), sum(x) FROM t WHERE ts >= '2024-01-10'`)).rows, [[50n, BigInt((433 + 480) * 48 / 2 + 15)]])
  const duck = await duckRows(`SELECT count(*), max(ts)::VARCHAR FROM read_parquet('${tableDir(dir)}/2024-01-10.*/data.parquet')`)
  t.same(duck.map((r) => [Number(r[0]), r[1]]), [[49, '2024-01-10 23:59:00+00']])
})

t.test('a damaged or hostile _parquet_keep is ignored at open: the database opens and answers', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  const before = (await db.query('SELECT count(), sum(x) FROM t')).rows
  await db.close()
  const { writeFileSync } = await import('node:fs')
  const bodies = [
    Buffer.from([0xff, 0xfe, 0x00, 0x7b]), // not text
    '{"1": ', // cut short
    '["2024-01-01"]', // not a map
    '{"999": ["2024-01-01"], "abc": ["x"], "1": "2024-01-01"}', // unknown ids, names not a list
    `{"1": [5, null, {"a": 1}, "../../etc", "${'9'.repeat(10_000)}"]}`, // names that are no partition
  ]
  for (const body of bodies) {
    writeFileSync(join(dir, '_parquet_keep'), body)
    db = await Database.open({ path: dir })
    t.same((await db.query('SELECT count(), sum(x) FROM t')).rows, before, `answers unchanged after ${JSON.stringify(String(body).slice(0, 20))}`)
    await db.close()
    t.same(days(parquetDirs(dir)), DAYS, 'the converted partitions are still Parquet')
  }
})

t.test('TO NATIVE of a partition on its way back to Parquet keeps it native, also after a restart', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  // writing Parquet files fails: the late row leaves 2024-01-04 column files, recorded as on its way back
  const restore = injectFault(['openSync'], 'EIO', (p) => String(p).includes('data.parquet'))
  try {
    await db.query(`INSERT INTO t VALUES ('z', 9999, 0.5, '2024-01-04T12:15:00Z')`)
    await db.query(`ALTER TABLE t CONVERT PARTITION TO NATIVE LIST '2024-01-04'`)
    await db.close()
  } finally {
    restore()
  }
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  await parquetAgain(t, dir, db, DAYS.filter((d) => d !== '2024-01-04'))
  const meta = packr.unpack(readFileSync(join(tableDir(dir), '_meta'))) as { partitions: { name: string; format?: string; parquetFrom?: unknown }[] }
  t.same(meta.partitions.filter((p) => p.parquetFrom !== undefined).map((p) => p.name), [], 'nothing recorded as on its way back')
  t.same((await db.query(`SELECT count(), max(x) FROM t WHERE ts IN '2024-01-04'`)).rows, [[49n, 9999n]])
})
