import t from 'tap'
import { Database } from '../../../lib/index.js'

t.test('table_partitions sees the partitions of its own database, not those of another with the same table', async (t) => {
  const a = await Database.open()
  const b = await Database.open()
  t.teardown(async () => { await a.close(); await b.close() })
  for (const db of [a, b]) await db.query('create table t (ts timestamp, v long) timestamp(ts) partition by day')
  await a.query("insert into t values ('2024-01-01T00:00:00Z', 1), ('2024-01-02T00:00:00Z', 2), ('2024-01-03T00:00:00Z', 3)")
  await b.query("insert into t values ('2025-06-01T00:00:00Z', 1)")
  const names = async (db: Database) => (await db.query("select name from table_partitions('t')")).rows.map((r) => r[0])
  t.same(await names(a), ['2024-01-01', '2024-01-02', '2024-01-03'])
  t.same(await names(b), ['2025-06-01'])
  t.same((await b.query('show partitions from t')).rows.map((r) => r[2]), ['2025-06-01'], 'SHOW PARTITIONS agrees')
})
