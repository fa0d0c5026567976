/**
 * SHOW CREATE VIEW prints QuestDB 9's text (ShowCreateViewRecordCursorFactory, its tests):
 * `CREATE VIEW 'v' AS ( ` and the query on a line of its own, in one VARCHAR column `ddl`; the
 * text runs again as a statement and recreates the same view.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'

t.test('SHOW CREATE VIEW: QuestDB\'s text, and it recreates the view', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('CREATE TABLE t (s SYMBOL, ts TIMESTAMP) TIMESTAMP(ts) PARTITION BY DAY')
  await db.query('CREATE VIEW v AS (SELECT s FROM t)')
  const r = await db.query('SHOW CREATE VIEW v')
  t.same(r.columns.map((c) => c.name), ['ddl'])
  t.same(r.columns.map((c) => c.type), ['VARCHAR'])
  t.same(r.rows, [["CREATE VIEW 'v' AS ( \nSELECT s FROM t\n);"]])

  // comments and line breaks in the query are not kept (the stored text: tokens, single spaces)
  await db.query('CREATE OR REPLACE VIEW v AS (\n  SELECT s, -- the symbol\n  ts FROM t\n  WHERE s = \'a\'\n)')
  const ddl = String((await db.query('SHOW CREATE VIEW V')).rows[0]![0])
  t.equal(ddl, "CREATE VIEW 'v' AS ( \nSELECT s, ts FROM t WHERE s = 'a'\n);")

  await db.query('DROP VIEW v')
  await db.query(ddl)
  t.same((await db.query('SHOW CREATE VIEW v')).rows, [[ddl]], 'the printed statement recreates the view')
  t.same((await db.query("SELECT view_sql FROM views() WHERE view_name = 'v'")).rows, [["SELECT s, ts FROM t WHERE s = 'a'"]])
})
