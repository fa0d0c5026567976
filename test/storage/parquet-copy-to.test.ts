// COPY t TO ... WITH FORMAT PARQUET of a durable table by its own partitions copies a partition
// that is already one Parquet file (CONVERT PARTITION TO PARQUET) byte for byte, as QuestDB does,
// and encodes the others; a partition with rows beside its file, a query, or another partitioning
// encodes everything. DuckDB reads every export with the engine's answers.
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { duckRows, tmpDir } from '../unit/parquet/helpers.js'

const root = tmpDir(t)
const exp = tmpDir(t)
const db = await Database.open({ path: root, exportRoot: exp })
t.teardown(() => db.close())
// four days of 240 rows
await db.query(`CREATE TABLE t AS (SELECT x, rnd_symbol('a', 'b', null) s, rnd_double() d, timestamp_sequence('2024-01-01', 360000000) ts
  FROM long_sequence(960, 5, 6)) TIMESTAMP(ts) PARTITION BY DAY`)
await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2024-01-01', '2024-01-02'`)
const tableDir = join(root, readdirSync(root).find((e) => e.startsWith('t~'))!)
const partFile = (day: string): Buffer => {
  const d = readdirSync(tableDir).find((e) => e.startsWith(day) && existsSync(join(tableDir, e, 'data.parquet')))!
  return readFileSync(join(tableDir, d, 'data.parquet'))
}
type Tap = { same: (a: unknown, b: unknown, m: string) => unknown }
const out = (dir: string, day: string): Buffer => readFileSync(join(exp, dir, `${day}.parquet`))
async function agree(t: Tap, glob: string, where = ''): Promise<void> {
  const duck = await duckRows(`SELECT count(*), sum(x), count(s), min(ts)::VARCHAR FROM read_parquet('${join(exp, glob)}')`)
  const ours = await db.query(`SELECT count(), sum(x), count(s), min(ts) FROM t ${where}`)
  const r = ours.rows[0]!
  t.same(duck.map((x) => [Number(x[0]), Number(x[1]), Number(x[2])]), [[Number(r[0]), Number(r[1]), Number(r[2])]], `DuckDB reads ${glob} as EpochDB`)
}

/** Each file of `dir` (by day) and the codec DuckDB finds in it. */
async function codecs(dir: string): Promise<string[][]> {
  const r = await duckRows(`SELECT DISTINCT regexp_extract(file_name, '(2024-01-0.)', 1), compression FROM parquet_metadata('${join(exp, dir, '*.parquet')}') ORDER BY 1`)
  return r.map((x) => x.map(String))
}

t.test('Parquet partitions are copied byte for byte, the others encoded', async (t) => {
  await db.query(`COPY t TO 'days' WITH FORMAT PARQUET`)
  t.same(readdirSync(join(exp, 'days')).sort(), ['2024-01-01.parquet', '2024-01-02.parquet', '2024-01-03.parquet', '2024-01-04.parquet'])
  t.ok(out('days', '2024-01-01').equals(partFile('2024-01-01')), 'the first Parquet day is its partition file')
  t.ok(out('days', '2024-01-02').equals(partFile('2024-01-02')), 'the second too')
  await agree(t, 'days/*.parquet')
  await agree(t, 'days/2024-01-03.parquet', `WHERE ts IN '2024-01-03'`)
  // as QuestDB: the options apply to the encoded partitions; the copied ones stay as they are
  await db.query(`COPY t TO 'zstd' WITH FORMAT PARQUET compression_codec zstd`)
  t.ok(out('zstd', '2024-01-02').equals(partFile('2024-01-02')), 'copied whatever the options')
  t.same(await codecs('zstd'), [['2024-01-01', 'SNAPPY'], ['2024-01-02', 'SNAPPY'], ['2024-01-03', 'ZSTD'], ['2024-01-04', 'ZSTD']],
    'copied: snappy (the partition files); encoded: zstd')
  await agree(t, 'zstd/*.parquet')
})

t.test('a query, another partitioning or a partition with rows beside its file: encoded', async (t) => {
  await db.query(`COPY (SELECT * FROM t) TO 'query' WITH FORMAT PARQUET PARTITION_BY DAY compression_codec zstd`)
  t.same(await codecs('query'), [['2024-01-01', 'ZSTD'], ['2024-01-02', 'ZSTD'], ['2024-01-03', 'ZSTD'], ['2024-01-04', 'ZSTD']], 'a query is encoded')
  await agree(t, 'query/*.parquet')
  await db.query(`COPY t TO 'month' WITH FORMAT PARQUET PARTITION_BY MONTH`)
  t.ok(existsSync(join(exp, 'month.parquet')), 'one month: one file')
  await agree(t, 'month.parquet')
  // the last day converted, then a row appended in order into it (in memory until a checkpoint)
  await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2024-01-04'`)
  await db.query(`INSERT INTO t VALUES (-5, 'z', 0.5, '2024-01-04T23:59:59Z')`)
  await db.query(`COPY t TO 'late' WITH FORMAT PARQUET compression_codec zstd`)
  t.same(await codecs('late'), [['2024-01-01', 'SNAPPY'], ['2024-01-02', 'SNAPPY'], ['2024-01-03', 'ZSTD'], ['2024-01-04', 'ZSTD']],
    'whole Parquet days copied; the last one, with a row beside its file, encoded')
  t.ok(out('late', '2024-01-01').equals(partFile('2024-01-01')))
  await agree(t, 'late/*.parquet')
  await agree(t, 'late/2024-01-04.parquet', `WHERE ts IN '2024-01-04'`)
})
