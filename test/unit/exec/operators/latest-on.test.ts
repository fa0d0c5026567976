import t from 'tap'
import { Database } from '../../../../lib/index.js'

// LATEST ON over several batches: the backward scan (symbol key, other keys, with a filter) and
// the forward pass (a subquery input) against a plain-JS definition of "the latest row per key".
const N = 300_000

t.test('LATEST ON equals the latest row per key, in timestamp order', async (t) => {
  const db = await Database.open()
  await db.query('create table t (ts timestamp, sym symbol, k int, v int) timestamp(ts)')
  const ts = Float64Array.from({ length: N }, (_, i) => Math.floor(i / 2) * 10) // pairs of equal timestamps
  const sym = Array.from({ length: N }, (_, i) => (i === 17 ? null : `s${(i * 31) % 97}`))
  const k = Int32Array.from({ length: N }, (_, i) => (i * 7919) % 5003)
  const v = Int32Array.from({ length: N }, (_, i) => i)
  await db.append('t', { ts, sym, k, v })
  const latest = (key: (i: number) => unknown, keep: (i: number) => boolean): number[] => {
    const last = new Map<unknown, number>()
    for (let i = 0; i < N; i++) if (keep(i)) last.set(key(i), i)
    return [...last.values()].sort((a, b) => a - b)
  }
  const cases: [string, number[]][] = [
    ['select v from t latest on ts partition by sym', latest((i) => sym[i], () => true)],
    ['select v from t where v % 3 = 0 latest on ts partition by sym', latest((i) => sym[i], (i) => i % 3 === 0)],
    ['select v from t latest on ts partition by k', latest((i) => k[i], () => true)],
    ['select v from t latest on ts partition by sym, k', latest((i) => `${sym[i]}|${k[i]}`, () => true)],
    ['select v from (select ts, k, v from t where v >= 0) latest on ts partition by k', latest((i) => k[i], () => true)],
  ]
  for (const [sql, exp] of cases) {
    const got = (await db.query(sql)).rows.map((r) => r[0])
    t.same(got, exp, sql)
  }
})
