/**
 * PIVOT errors carry QuestDB's messages and point at the offending part of the statement.
 */
import t from 'tap'
import { Database, SqlError } from '../../../lib/index.js'

const db = await Database.open()
await db.query('create table tr (sym symbol, side symbol, price double)')
await db.query("insert into tr values ('a', 'buy', 1.0), ('b', 'sell', 2.0)")

async function errorOf(sql: string): Promise<SqlError> {
  try { await db.query(sql) } catch (e) { if (e instanceof SqlError) return e; throw e }
  throw new Error(`no error: ${sql}`)
}

t.test('positions of PIVOT errors', async (t) => {
  const cases: [string, string, string, string][] = [
    ["tr PIVOT (now() FOR sym IN ('a'))", '42803', 'expected aggregate function [col=now()]', 'now()'],
    ["tr PIVOT (sum(price) FOR sym IN ('a', 'a'))", '42601', "duplicate value in PIVOT IN list: 'a'", "'a')"],
    ['tr PIVOT (sum(price) FOR sym IN ())', '42601', 'missing constant', '))'],
    ["tr PIVOT (sum(price) FOR nope IN ('a'))", '42703', 'Invalid column: nope', "nope IN"],
    ['tr PIVOT (sum(price) FOR sym IN (select sym from tr where price < 0))', '42601', 'PIVOT IN subquery returned empty result set', 'sym IN'],
  ]
  for (const [sql, code, message, at] of cases) {
    const e = await errorOf(sql)
    t.equal(e.code, code, sql)
    t.equal(e.message, message, sql)
    t.equal(e.position, sql.lastIndexOf(at), `${sql}: position at ${at}`)
  }
})

t.test('the window-function error names the aggregate, the column limit counts every column', async (t) => {
  const w = await errorOf("tr PIVOT (sum(price) over () FOR sym IN ('a'))")
  t.equal(w.message, 'Window function is not allowed in context of aggregation. Use sub-query.')
  t.equal(w.position, 10)
  const many = await errorOf('select * from long_sequence(1) pivot (sum(x) FOR x IN (select x from long_sequence(5001)))')
  t.equal(many.code, '54000')
  t.equal(many.message, 'PIVOT produces too many columns: 5001, limit is 5000')
})
