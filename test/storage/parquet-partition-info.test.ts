// table_partitions('t') / SHOW PARTITIONS report a partition converted to Parquet as QuestDB does:
// isParquet true and parquetFileSize the file's bytes; back to native, false and -1 again.
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { tmpDir } from '../unit/parquet/helpers.js'

t.test('isParquet and parquetFileSize follow CONVERT PARTITION TO PARQUET | NATIVE', async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  await db.query(`CREATE TABLE t AS (SELECT x, x * 1.5 d, timestamp_sequence('2024-01-01', 3600000000) ts FROM long_sequence(100)) TIMESTAMP(ts) PARTITION BY DAY`)
  const info = async () => (await db.query(`SELECT name, isParquet, parquetFileSize, hasParquetGenerated FROM table_partitions('t')`)).rows
  t.same((await info()).map((r) => r[1]), [false, false, false, false, false])
  await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2024-01-01', '2024-01-02'`)
  const tableDir = join(dir, readdirSync(dir).find((e) => e.startsWith('t~'))!)
  const fileSize = (day: string): number => statSync(join(tableDir, readdirSync(tableDir).find((e) => e.startsWith(day + '.'))!, 'data.parquet')).size
  t.same(await info(), [
    ['2024-01-01', true, BigInt(fileSize('2024-01-01')), false],
    ['2024-01-02', true, BigInt(fileSize('2024-01-02')), false],
    ['2024-01-03', false, -1n, false],
    ['2024-01-04', false, -1n, false],
    ['2024-01-05', false, -1n, false],
  ])
  const show = await db.query('SHOW PARTITIONS FROM t')
  t.equal(show.rows[0]![show.columns.findIndex((c) => c.name === 'isParquet')], true, 'SHOW PARTITIONS too')
  await db.query(`ALTER TABLE t CONVERT PARTITION TO NATIVE LIST '2024-01-01'`)
  t.same((await info()).map((r) => [r[1], r[2]]), [[false, -1n], [true, BigInt(fileSize('2024-01-02'))], [false, -1n], [false, -1n], [false, -1n]])
})
