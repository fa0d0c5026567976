/**
 * An untyped parameter where a function takes any DECIMAL (`$1 + 1.5m`, `d = $1`) is
 * DECIMAL(76,38), as QuestDB 9's BindVariableServiceImpl.define gives such a bind variable, so
 * its value keeps its digits (it used to take its neighbour's type and round: 2.25 + 1.5m was
 * 3.7). A constant exact at a narrow column's scale is compared on the column's doubles.
 */
import t from 'tap'
import { Database } from '../../../lib/index.js'

const db = await Database.open()
t.teardown(() => db.close())

t.test('the parameter is DECIMAL(76,38) and keeps its digits', async (t) => {
  t.same(db.prepare('SELECT $1 + 1.5m').info.params, ['DECIMAL(76,38)'])
  const r = await db.query('SELECT $1 + 1.5m a, 1.5m - $1 b, $1 * 2.0m c', ['2.25'])
  t.same(r.columns.map((c) => c.type), ['DECIMAL(76,38)', 'DECIMAL(76,38)', 'DECIMAL(76,39)'])
  t.same(r.rows[0]!.map((v) => Number(v)), [3.75, -0.75, 4.5])
  t.same((await db.query('SELECT $1 = 1.5m, $1 < 1.5m', ['1.49999'])).rows, [[false, true]])
})

t.test('a DECIMAL(18,4) column compared with a parameter: right at every scale', async (t) => {
  await db.query("CREATE TABLE px AS (SELECT cast((x % 80) / 8.0 AS DECIMAL(18,4)) d FROM long_sequence(800))")
  const count = async (sql: string, p: string) => (await db.query(sql, [p])).rows[0]![0]
  t.equal(await count('SELECT count() FROM px WHERE d = $1', '2.5'), 10n)
  t.equal(await count('SELECT count() FROM px WHERE d = $1', '2.50000000'), 10n)
  t.equal(await count('SELECT count() FROM px WHERE d = $1', '2.50001'), 0n) // not exact at scale 4: the exact path
  t.equal(await count('SELECT count() FROM px WHERE d != $1', '2.50001'), 800n)
  t.equal(await count('SELECT count() FROM px WHERE $1 < d', '9.5'), 30n)
  t.equal(await count('SELECT count() FROM px WHERE d >= $1', '9.500001'), 30n)
})
