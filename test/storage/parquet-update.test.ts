// UPDATE and partitions converted to Parquet: as QuestDB, an UPDATE that would change a row of a
// Parquet partition is refused ("cannot update parquet-format partition"), before anything changes;
// an UPDATE that matches no row leaves the table (and its Parquet partitions) alone.
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { Database, SqlError } from '../../lib/index.js'
import { tmpDir } from '../unit/parquet/helpers.js'

t.test('UPDATE refuses rows of Parquet partitions, keeps them Parquet, and updates native ones', async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  await db.query(`CREATE TABLE t AS (SELECT x, x * 1.5 d, timestamp_sequence('2024-01-01', 3600000000) ts FROM long_sequence(100)) TIMESTAMP(ts) PARTITION BY DAY`)
  await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET WHERE ts < '2024-01-04'`)
  const formats = async () => (await db.query(`SELECT isParquet FROM table_partitions('t')`)).rows.map((r) => (r[0] === true ? 'P' : 'n')).join('')
  const sum = async () => (await db.query('SELECT sum(d) FROM t')).rows[0]![0]
  t.equal(await formats(), 'PPPnn')
  const before = await sum()
  for (const sql of [
    `UPDATE t SET d = 0 WHERE ts IN '2024-01-02'`,
    'UPDATE t SET d = 0',
    `UPDATE t SET d = 0 FROM (SELECT 1 k) WHERE ts IN '2024-01-01'`,
  ]) {
    const e = await db.query(sql).then(() => undefined, (x: unknown) => x)
    t.type(e, SqlError, sql)
    t.equal((e as SqlError).code, '0A000', sql)
    t.match((e as SqlError).message, /cannot update parquet-format partition \[table=t, partition=2024-01-0[12]\]/, sql)
  }
  t.equal(await sum(), before, 'nothing changed')
  t.equal((await db.query('UPDATE t SET d = 0 WHERE x < 0')).rowCount, 0)
  t.equal(await formats(), 'PPPnn', 'an UPDATE of no row leaves the Parquet partitions alone')
  t.equal((await db.query(`UPDATE t SET d = -1 WHERE ts IN '2024-01-05'`)).rowCount, 4, 'a native partition updates')
  t.same((await db.query(`SELECT sum(d) FROM t WHERE ts IN '2024-01-05'`)).rows, [[-4]])
  t.equal(await sum(), (before as number) - (97 + 98 + 99 + 100) * 1.5 - 4)
})
