// An out-of-order write into a Parquet partition rewrites only that partition, and in it only the
// row groups the new rows land in (as QuestDB does): the other row groups' bytes are copied, the
// other Parquet partitions keep their files. DuckDB reads the files after each write. Appends are
// not held up while the partition is written back.
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { parquetMetadata } from 'hyparquet'
import { Database } from '../../lib/index.js'
import { duckRows, tmpDir } from '../unit/parquet/helpers.js'

// 288,000 rows a day (one each 0.3 s): row groups of 100,000, 100,000 and 88,000 rows
const PER_DAY = 288_000
const tableDir = (root: string): string => join(root, readdirSync(root).find((e) => e.startsWith('t~'))!)
const fileOf = (root: string, day: string): string => {
  const d = readdirSync(tableDir(root)).find((e) => e.startsWith(day) && existsSync(join(tableDir(root), e, 'data.parquet')))!
  return join(tableDir(root), d, 'data.parquet')
}

async function make(dir: string, dedup = false): Promise<Database> {
  const db = await Database.open({ path: dir, checkpointBytes: 1 })
  await db.query(`CREATE TABLE t AS (SELECT x, rnd_symbol('a','b','c') s, timestamp_sequence('2024-01-01', 300000) ts
    FROM long_sequence(${3 * PER_DAY})) TIMESTAMP(ts) PARTITION BY DAY`)
  if (dedup) await db.query('ALTER TABLE t DEDUP ENABLE UPSERT KEYS(ts)')
  await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2024-01-01', '2024-01-02'`)
  return db
}

/** Files whose name starts with `data.parquet` in the table's partition directories (a file being written included). */
function parquetFiles(root: string): number {
  let n = 0
  for (const d of readdirSync(tableDir(root))) {
    try { n += readdirSync(join(tableDir(root), d)).filter((f) => f.startsWith('data.parquet')).length } catch { /* a file, or removed meanwhile */ }
  }
  return n
}

async function parquetNames(db: Database): Promise<string[]> {
  return (await db.query(`SELECT name FROM table_partitions('t') WHERE isParquet ORDER BY name`)).rows.map((r) => String(r[0]))
}

/** Waits (bounded: proves it happens, not how fast) until both history days are Parquet again. */
async function parquetAgain(db: Database): Promise<string[]> {
  const until = Date.now() + 60_000
  while ((await parquetNames(db)).length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
  return parquetNames(db)
}

/** Waits (bounded) until the files at `paths` differ from `before` and both days are Parquet. */
async function rewritten(db: Database, paths: readonly string[], before: readonly Buffer[]): Promise<void> {
  const until = Date.now() + 60_000
  const changed = (): boolean => paths.every((p, i) => { try { return !readFileSync(p).equals(before[i]!) } catch { return false } })
  while (!(changed() && (await parquetNames(db)).length === 2) && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
}

/** Each row group's row count and column-chunk bytes. */
function groups(path: string): { rows: number; bytes: Buffer }[] {
  const file = readFileSync(path)
  const md = parquetMetadata(file.buffer.slice(file.byteOffset, file.byteOffset + file.length) as ArrayBuffer)
  return md.row_groups.map((g) => {
    const from = Math.min(...g.columns.map((c) => Number(c.meta_data!.dictionary_page_offset ?? c.meta_data!.data_page_offset)))
    const to = Math.max(...g.columns.map((c) => Number(c.meta_data!.dictionary_page_offset ?? c.meta_data!.data_page_offset) + Number(c.meta_data!.total_compressed_size)))
    return { rows: Number(g.num_rows), bytes: file.subarray(from, to) }
  })
}

async function agree(t: { same: (a: unknown, b: unknown, m: string) => unknown }, db: Database, root: string, msg: string): Promise<void> {
  const duck = await duckRows(`SELECT count(*), sum(x), max(x) FROM read_parquet('${tableDir(root)}/*/data.parquet')`)
  const epoch = await db.query(`SELECT count(), sum(x), max(x) FROM t WHERE ts < '2024-01-03'`)
  t.same(duck.map((r) => r.map(Number)), epoch.rows.map((r) => r.map(Number)), msg)
}

t.test('a late row rewrites only the row group it lands in; the other groups and partitions keep their bytes', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  const day1 = fileOf(dir, '2024-01-01')
  const day2 = fileOf(dir, '2024-01-02')
  const before1 = groups(day1)
  const before2 = readFileSync(day2)
  t.same(before1.map((g) => g.rows), [100_000, 100_000, 88_000])
  await agree(t, db, dir, 'DuckDB and EpochDB agree after the conversion')
  // in the second row group of the first day (rows 100,000..199,999 are 30000 s .. 60000 s after midnight)
  await db.query(`INSERT INTO t VALUES (-7, 'z', '2024-01-01T12:00:00.000001Z')`)
  await rewritten(db, [day1], [readFileSync(day1)])
  t.same(await parquetAgain(db), ['2024-01-01', '2024-01-02'], 'both days Parquet again')
  t.equal(fileOf(dir, '2024-01-01'), day1, 'the touched partition keeps its directory and file name')
  t.ok(readFileSync(fileOf(dir, '2024-01-02')).equals(before2), 'the untouched Parquet partition is byte for byte as it was')
  const after1 = groups(day1)
  t.same(after1.map((g) => g.rows), [100_000, 100_001, 88_000], 'the touched group re-encoded with the late row, the others kept')
  t.ok(after1[0]!.bytes.equals(before1[0]!.bytes), 'the first row group copied byte for byte')
  t.ok(after1[2]!.bytes.equals(before1[2]!.bytes), 'the last row group copied byte for byte')
  await agree(t, db, dir, 'DuckDB reads the late row')
  t.same((await db.query(`SELECT x, s, ts FROM t WHERE ts IN '2024-01-01T12:00:00' LIMIT 2`)).rows.map((r) => r[0]), [144001n, -7n])
  // rows in the gap after the last group, and before the first: new groups, nothing re-encoded
  await db.query(`INSERT INTO t VALUES (-8, 'z', '2024-01-01T23:59:59.900000Z'), (-9, 'z', '2024-01-02T00:00:00.000000Z')`)
  await rewritten(db, [day1, day2], [readFileSync(day1), readFileSync(day2)])
  t.same(await parquetAgain(db), ['2024-01-01', '2024-01-02'])
  t.same(groups(day1).map((g) => g.rows), [100_000, 100_001, 88_000, 1], 'a row after the last group: one group appended')
  t.same(groups(fileOf(dir, '2024-01-02')).map((g) => g.rows), [100_001, 100_000, 88_000], 'a row equal to the first timestamp: that group re-encoded with it, as one group')
  await agree(t, db, dir, 'DuckDB reads all three late rows')
  const expect = (await db.query(`SELECT count(), sum(x), min(x) FROM t`)).rows
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same((await db.query(`SELECT count(), sum(x), min(x) FROM t`)).rows, expect, 'the same rows after a restart')
  t.same(expect, [[BigInt(3 * PER_DAY + 3), BigInt(3 * PER_DAY * (3 * PER_DAY + 1) / 2 - 24), -9n]])
})

t.test('appends go on while a partition is written back to Parquet', async (t) => {
  const dir = tmpDir(t)
  const db = await make(dir)
  t.teardown(() => db.close())
  // each round: a late row makes the first day column files; an append is timed against its way back
  // (a round can miss: the write-back may finish before the append returns, as it did at times with 5 rounds)
  let during = 0
  let round = 0
  for (; round < 20 && during === 0; round++) {
    await db.query(`INSERT INTO t VALUES (${-round}, 'z', '2024-01-01T06:00:00Z')`)
    // the checkpoint (after every commit here) has made it column files, and its Parquet file is being written
    const until = Date.now() + 5_000
    while (!(!(await parquetNames(db)).includes('2024-01-01') && parquetFiles(dir) > 2) && Date.now() < until) await new Promise((r) => setImmediate(r))
    await db.query(`INSERT INTO t VALUES (1, 'y', '2024-01-03T23:00:00Z')`)
    // the append returned while the day was still on its way back
    if (!(await parquetNames(db)).includes('2024-01-01')) during++
    await parquetAgain(db)
  }
  t.ok(during > 0, `an append completed while the partition was being written back (in ${round} of at most 20 rounds)`)
  t.same(await parquetNames(db), ['2024-01-01', '2024-01-02'])
  await agree(t, db, dir, 'DuckDB and EpochDB agree')
})

t.test('DEDUP: an upsert replacing a row rewrites only its row group; the other partition keeps its file', async (t) => {
  const dir = tmpDir(t)
  const db = await make(dir, true)
  t.teardown(() => db.close())
  const day1 = fileOf(dir, '2024-01-01')
  const day2 = fileOf(dir, '2024-01-02')
  const before1 = groups(day1)
  const before2 = readFileSync(day2)
  // replaces the row at 12:00:00 (x = 144001): same row count, another value
  await db.query(`INSERT INTO t VALUES (-7, 'z', '2024-01-01T12:00:00.000000Z')`)
  await rewritten(db, [day1], [readFileSync(day1)])
  t.same(await parquetAgain(db), ['2024-01-01', '2024-01-02'], 'both days Parquet again')
  t.ok(readFileSync(fileOf(dir, '2024-01-02')).equals(before2), 'the untouched Parquet partition is byte for byte as it was')
  const after1 = groups(day1)
  t.same(after1.map((g) => g.rows), [100_000, 100_000, 88_000], 'the same row count')
  t.ok(after1[0]!.bytes.equals(before1[0]!.bytes) && after1[2]!.bytes.equals(before1[2]!.bytes), 'the first and last row groups copied byte for byte')
  t.notOk(after1[1]!.bytes.equals(before1[1]!.bytes), 'the group holding the replaced row re-encoded')
  const duck = await duckRows(`SELECT x FROM read_parquet('${day1}') WHERE ts = '2024-01-01T12:00:00Z'::TIMESTAMPTZ`)
  t.same(duck.map((r) => Number(r[0])), [-7], 'DuckDB reads the replaced value')
  await agree(t, db, dir, 'DuckDB and EpochDB agree')
  t.same((await db.query(`SELECT count(), sum(x) FROM t`)).rows, [[BigInt(3 * PER_DAY), BigInt(3 * PER_DAY * (3 * PER_DAY + 1) / 2 - 144001 - 7)]])
})
