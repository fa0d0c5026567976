// COPY ... TO ... WITH FORMAT PARQUET lays files out as QuestDB 9's export does: a table keeps its
// own partitions (one `<partition>.parquet` each in the directory `dest`, or the one file `dest.parquet`
// when there is one), PARTITION_BY re-partitions a table or a query by its designated timestamp,
// a query or PARTITION_BY NONE is one file; DuckDB reads every file with the engine's answers.
import '../../parquet/resolve-hook.js'
import t from 'tap'
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../../../lib/index.js'
import { duckRows, tmpDir } from '../../parquet/helpers.js'

const exp = tmpDir(t)
const db = await Database.open({ exportRoot: exp })
t.teardown(() => db.close())
// 2024-01-30 .. 2024-02-02: four days over two months
await db.query(`CREATE TABLE t AS (SELECT x, rnd_symbol('a', 'b') s, timestamp_sequence('2024-01-30', 3600000000) ts FROM long_sequence(96, 5, 6)) TIMESTAMP(ts) PARTITION BY DAY`)
const files = (d: string): string[] => readdirSync(join(exp, d)).sort()
const duckSum = async (glob: string): Promise<[number, number]> => {
  const r = await duckRows(`SELECT count(*), sum(x) FROM read_parquet('${join(exp, glob)}')`)
  return [Number(r[0]![0]), Number(r[0]![1])]
}

t.test('a partitioned table: one file per partition in the directory dest', async (t) => {
  await db.query(`COPY t TO 'days' WITH FORMAT PARQUET`)
  t.same(files('days'), ['2024-01-30.parquet', '2024-01-31.parquet', '2024-02-01.parquet', '2024-02-02.parquet'])
  t.same(await duckSum('days/*.parquet'), [96, 4656], 'DuckDB reads them all')
  t.same(await duckSum('days/2024-01-31.parquet'), [24, 24 * 24 + 300], 'each holds its day')
  t.notOk(readdirSync(exp).some((f) => f.startsWith('tmp_')), 'no temporary directory left')
})

t.test('PARTITION_BY re-partitions a table or a query; NONE and a plain query give one file', async (t) => {
  await db.query(`COPY t TO 'months' WITH FORMAT PARQUET PARTITION_BY MONTH`)
  t.same(files('months'), ['2024-01.parquet', '2024-02.parquet'])
  t.same(await duckSum('months/2024-02.parquet'), [48, 3480])
  await db.query(`COPY (SELECT * FROM t WHERE s = 'a') TO 'qa' WITH FORMAT PARQUET PARTITION_BY YEAR`)
  t.ok(existsSync(join(exp, 'qa.parquet')), 'a single partition is the file dest.parquet')
  const a = (await db.query(`SELECT count(), sum(x) FROM t WHERE s = 'a'`)).rows[0]!
  t.same(await duckSum('qa.parquet'), [Number(a[0]), Number(a[1])])
  await db.query(`COPY t TO 'whole' WITH FORMAT PARQUET PARTITION_BY NONE`)
  await db.query(`COPY (SELECT * FROM t) TO 'query' WITH FORMAT PARQUET`)
  t.same(await duckSum('whole.parquet'), [96, 4656])
  t.same(await duckSum('query.parquet'), [96, 4656])
  await db.query(`CREATE TABLE plain (x LONG)`)
  await db.query(`INSERT INTO plain VALUES (1), (2)`)
  await db.query(`COPY plain TO 'plain' WITH FORMAT PARQUET`)
  t.same(await duckSum('plain.parquet'), [2, 3], 'a table not partitioned is one file')
})

t.test('an existing directory takes the new files, replacing those of the same name; a file there is replaced', async (t) => {
  mkdirSync(join(exp, 'again'))
  writeFileSync(join(exp, 'again', 'keep.txt'), 'x')
  writeFileSync(join(exp, 'again', '2024-01-30.parquet'), 'old')
  await db.query(`COPY t TO 'again' WITH FORMAT PARQUET`)
  t.same(files('again'), ['2024-01-30.parquet', '2024-01-31.parquet', '2024-02-01.parquet', '2024-02-02.parquet', 'keep.txt'])
  t.same(await duckSum('again/*.parquet'), [96, 4656])
  writeFileSync(join(exp, 'wasfile'), 'a file')
  await db.query(`COPY t TO 'wasfile' WITH FORMAT PARQUET`)
  t.equal(files('wasfile').length, 4)
})

t.test('errors', async (t) => {
  await t.rejects(db.query(`COPY (SELECT x FROM t) TO 'nots' WITH FORMAT PARQUET PARTITION_BY DAY`), { code: '22023', message: 'partitioning is possible only on tables with designated timestamps' })
  await t.rejects(db.query(`COPY t TO 'bad' WITH FORMAT PARQUET PARTITION_BY FORTNIGHT`), { code: '22023', message: /'NONE', 'HOUR', 'DAY', 'WEEK', 'MONTH' or 'YEAR' expected/ })
  await t.rejects(db.query(`COPY t TO '../up' WITH FORMAT PARQUET`), { code: '22023', message: /relative path is not allowed/ })
  t.notOk(existsSync(join(exp, 'nots.parquet')) || existsSync(join(exp, 'nots')), 'nothing written')
})
