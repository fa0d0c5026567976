/**
 * A filter's conjunction runs left to right, each conjunct on the rows the earlier ones kept
 * (runFilter): a right side that would fail on rows the left side dropped is not evaluated
 * there, and answers equal the three-valued-logic reference `NOT (NOT a OR NOT b ...)` (which the
 * filter evaluates whole) over random data with NULLs.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'

t.test('the right side of AND sees only the rows the left side kept', async (t) => {
  const db = await Database.open()
  await db.query("create table t as (select x, case when x % 3 = 0 then 'bad' else cast(x as string) end s from long_sequence(5000))")
  await t.rejects(db.query('select x from t where cast(s as int) > 4'), { code: '22P02' }, 'the cast fails on its own')
  const r = await db.query("select count() from t where s != 'bad' and cast(s as int) > 4")
  t.same(r.rows, [[3331n]])
  const r3 = await db.query("select count() from t where x > 10 and s != 'bad' and cast(s as int) % 2 = 0")
  t.same(r3.rows, [[(await db.query("select count() from t where x > 10 and x % 3 != 0 and x % 2 = 0")).rows[0]![0]]])
  await db.close()
})

t.test('conjunctions equal their three-valued reference over random data with NULLs', async (t) => {
  const db = await Database.open()
  await db.query(`create table r as (select rnd_int(0, 9, 2) a, rnd_double(2) b, rnd_symbol('p', 'q', null) c, rnd_str('u', 'v', null) d,
    timestamp_sequence('2024-01-01', 1000000) ts from long_sequence(20000, 7, 11)) timestamp(ts)`)
  const conds = ['a > 4', 'b < 0.5', "c = 'p'", 'd is null', 'a % 2 = 0', "c != 'q'", 'b is not null', "ts > '2024-01-01T02:00:00Z'"]
  let n = 0
  for (let i = 0; i < conds.length; i++) {
    for (let j = 0; j < conds.length; j++) {
      if (i === j) continue
      const k = (i + j) % conds.length
      const parts = [conds[i]!, conds[j]!, conds[k]!]
      const fast = await db.query(`select a, b, c, d, ts from r where ${parts.join(' and ')}`)
      const ref = await db.query(`select a, b, c, d, ts from r where not (${parts.map((p) => `not (${p})`).join(' or ')})`)
      t.same(fast.rows, ref.rows, parts.join(' and '))
      n++
    }
  }
  t.ok(n > 40)
  await db.close()
})
