// CONVERT PARTITION and the active (last) partition, as QuestDB 9's TableWriter does it: a WAL
// table (the default) converts it by LIST and by WHERE; a BYPASS WAL table skips it TO PARQUET,
// silently, in both forms (QuestDB's testConvertLastPartition / testConvertLastPartitionWal);
// TO NATIVE takes it either way. DuckDB reads what was converted.
import '../../parquet/resolve-hook.js'
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { duckRows, tmpDir } from '../../parquet/helpers.js'

const parquet = async (db: Database, table: string): Promise<string[]> =>
  (await db.query(`SELECT name FROM table_partitions('${table}') WHERE isParquet ORDER BY name`)).rows.map((r) => String(r[0]))

async function make(db: Database, name: string, wal: string): Promise<void> {
  // three daily partitions, 2024-06-10 .. 2024-06-12; the last is active
  await db.query(`CREATE TABLE ${name} AS (SELECT x, timestamp_sequence('2024-06-10', 3600000000) ts FROM long_sequence(72)) TIMESTAMP(ts) PARTITION BY DAY ${wal}`)
}

t.test('a BYPASS WAL table skips its active partition TO PARQUET, by LIST and WHERE, without an error', async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  await make(db, 'b', 'BYPASS WAL')
  t.equal((await db.query(`ALTER TABLE b CONVERT PARTITION TO PARQUET LIST '2024-06-12'`)).rowCount, 0, 'LIST of the active partition: nothing converted, no error')
  t.same(await parquet(db, 'b'), [])
  t.equal((await db.query(`ALTER TABLE b CONVERT PARTITION TO PARQUET LIST '2024-06-11', '2024-06-12'`)).rowCount, 1, 'the others in the list are converted')
  t.same(await parquet(db, 'b'), ['2024-06-11'])
  t.equal((await db.query(`ALTER TABLE b CONVERT PARTITION TO PARQUET WHERE ts >= '2024-06-12'`)).rowCount, 0, 'WHERE matching only the active partition: nothing, no error')
  t.equal((await db.query(`ALTER TABLE b CONVERT PARTITION TO PARQUET WHERE ts > 0`)).rowCount, 1)
  t.same(await parquet(db, 'b'), ['2024-06-10', '2024-06-11'])
  await t.rejects(db.query(`ALTER TABLE b CONVERT PARTITION TO PARQUET WHERE ts < '2024-01-01'`), { code: '22023', message: 'no partitions matched WHERE clause' })
  // an out-of-order row before the first day makes a new partition; 2024-06-12 stays the active one
  await db.query(`INSERT INTO b VALUES (0, '2024-06-01')`)
  t.equal((await db.query(`ALTER TABLE b CONVERT PARTITION TO PARQUET LIST '2024-06-01'`)).rowCount, 1, 'a partition that is not the last converts')
  t.same((await db.query('SELECT count(), sum(x) FROM b')).rows, [[73n, 2628n]])
})

t.test('a WAL table converts its active partition too, by LIST and WHERE; TO NATIVE takes it back', async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  await make(db, 'w', 'WAL')
  await make(db, 'd', '')
  t.equal((await db.query(`ALTER TABLE w CONVERT PARTITION TO PARQUET LIST '2024-06-12'`)).rowCount, 1, 'LIST of the active partition converts it')
  t.same(await parquet(db, 'w'), ['2024-06-12'])
  t.equal((await db.query(`ALTER TABLE d CONVERT PARTITION TO PARQUET WHERE ts > 0`)).rowCount, 3, 'WHERE takes the active partition of a (default) WAL table')
  t.same(await parquet(db, 'd'), ['2024-06-10', '2024-06-11', '2024-06-12'])
  const files = (await db.query(`SELECT count() FROM table_partitions('d') WHERE isParquet AND active`)).rows
  t.same(files, [[1n]], 'the active partition is Parquet')
  const duck = await duckRows(`SELECT count(*), sum(x) FROM read_parquet('${dir}/d~*/2024-06-12.*/data.parquet')`)
  t.same(duck.map((r) => r.map(Number)), [[24, 1452]], 'DuckDB reads the active partition\'s file')
  t.equal((await db.query(`ALTER TABLE d CONVERT PARTITION TO NATIVE WHERE ts >= '2024-06-12'`)).rowCount, 1, 'TO NATIVE by WHERE takes the active partition')
  t.same(await parquet(db, 'd'), ['2024-06-10', '2024-06-11'])
  // rows appended to a converted active partition are answered with the rest
  t.equal((await db.query(`ALTER TABLE w CONVERT PARTITION TO PARQUET WHERE ts > 0`)).rowCount, 2)
  await db.query(`INSERT INTO w VALUES (100, '2024-06-12T23:59:59Z')`)
  t.same((await db.query(`SELECT count(), sum(x) FROM w WHERE ts IN '2024-06-12'`)).rows, [[25n, 1552n]])
  t.same((await db.query('SELECT count(), sum(x) FROM w')).rows, [[73n, 2728n]])
})
