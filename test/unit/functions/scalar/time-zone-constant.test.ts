/**
 * A constant time zone argument is checked when the call is bound, as QuestDB's function factories
 * check it when the statement compiles: an unknown zone is refused with 22023 at the argument even
 * when the query computes no row (an empty table, a false filter), where a check at the first row
 * never ran. A zone read per row (a column) is not checked; an unknown one leaves the timestamp as
 * it is (QuestDB's ToTimezoneFunctionVar).
 */
import t from 'tap'
import { Database, SqlError } from '../../../../lib/index.js'

const db = await Database.open()
t.teardown(() => db.close())
await db.query('create table e (ts timestamp, zone string) timestamp(ts) partition by day')

async function refused(sql: string, message: string, position: number): Promise<void> {
  const e = await db.query(sql).then(() => undefined, (x: unknown) => x)
  t.type(e, SqlError, sql)
  t.equal((e as SqlError).code, '22023', `${sql}: SQLSTATE`)
  t.equal((e as SqlError).message, message, `${sql}: message`)
  t.equal((e as SqlError).position, position, `${sql}: at the zone argument`)
}

t.test('an unknown constant zone is refused at the argument with no row computed', async () => {
  const sql = "select to_timezone(ts, 'Nowhere/City') from e"
  await refused(sql, 'invalid timezone: Nowhere/City', sql.indexOf("'Nowhere"))
  const utc = "select to_utc(ts, 'Nowhere/City') from e where false"
  await refused(utc, 'invalid timezone: Nowhere/City', utc.indexOf("'Nowhere"))
  const add = "select dateadd('h', 1, ts, 'Nowhere/City') from e"
  await refused(add, 'invalid timezone: Nowhere/City', add.indexOf("'Nowhere"))
  const nul = 'select to_timezone(ts, null) from e'
  await refused(nul, 'timezone must not be null', nul.indexOf('null'))
  const sample = "select ts, count() from e where false sample by 1h align to calendar time zone 'bad'"
  await refused(sample, 'invalid timezone: bad', sample.indexOf("'bad'"))
  // the same refusal inside a subquery and a prepared statement (parsed only when prepared)
  const sub = "select * from (select to_timezone(ts, 'Nowhere/City') x from e)"
  await refused(sub, 'invalid timezone: Nowhere/City', sub.indexOf("'Nowhere"))
  await t.rejects(db.prepare("select to_timezone(ts, 'Nowhere/City') from e").query(), { code: '22023' }, 'a prepared statement refuses it on its run')
})

t.test('a zone read per row is not checked: an unknown one leaves the timestamp unchanged', async () => {
  await db.query("insert into e values ('2024-01-01T00:00:00Z', 'Nowhere/City'), ('2024-01-01T00:00:00Z', 'Europe/Berlin')")
  const r = await db.query('select to_timezone(ts, zone) from e order by zone')
  t.same(r.rows.map((x) => x[0]), [Date.UTC(2024, 0, 1, 1) * 1000, Date.UTC(2024, 0, 1) * 1000])
})
