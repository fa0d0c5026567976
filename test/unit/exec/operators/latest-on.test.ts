import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { LATEST_ON_STATS } from '../../../../lib/exec/operators/latest-on.js'
import { tmpDir } from '../../storage/helpers.js'

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

t.test('LATEST ON over an interval reads backward from the interval\'s end and stops once every key is found', async (t) => {
  const dir = tmpDir(t, 'epochdb-latest-')
  let db = await Database.open({ path: dir })
  const DAY = 86_400_000_000
  const START = Date.UTC(2024, 0, 1) * 1000
  // 10 days, 20,000 rows a day; symbols a..d every day, 'e' only on the first day, a null on day 3
  await db.query('create table t (ts timestamp, sym symbol, k int, v long) timestamp(ts) partition by day')
  await db.query('create table ti (ts timestamp, sym symbol index, k int, v long) timestamp(ts) partition by day')
  const n = 200_000
  const ts = Float64Array.from({ length: n }, (_, i) => START + Math.floor(i / 20_000) * DAY + (i % 20_000) * 4_000_000)
  const sym = Array.from({ length: n }, (_, i) => (i === 0 ? 'e' : i === 2 * 20_000 + 5 ? null : 'abcd'[i % 4]!))
  const k = Int32Array.from({ length: n }, (_, i) => i % 4)
  const v = Float64Array.from({ length: n }, (_, i) => i)
  await db.append('t', { ts, sym, k, v })
  await db.append('ti', { ts, sym, k, v })
  await db.query('create table u (ts timestamp, sym symbol, v long) timestamp(ts) partition by day')
  const uSym = Array.from({ length: n }, (_, i) => (i === 7 * 20_000 - 9 ? null : 'abcd'[i % 4]!))
  await db.append('u', { ts, sym: uSym, v })
  // reopened: each day is a partition on disk, a part of its own
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  const latest = (lo: number, hi: number, key: (i: number) => unknown): string[] => {
    const last = new Map<unknown, number>()
    for (let i = 0; i < n; i++) if (ts[i]! >= lo && ts[i]! <= hi) last.set(key(i), i)
    return [...last.values()].sort((a, b) => a - b).map(String)
  }
  const day = (d: number) => START + d * DAY
  const read = async (sql: string) => {
    LATEST_ON_STATS.parts = 0
    LATEST_ON_STATS.rows = 0
    const rows = (await db.query(sql)).rows.map((r) => String(r[0]))
    return { rows, parts: LATEST_ON_STATS.parts, read: LATEST_ON_STATS.rows }
  }
  for (const table of ['t', 'ti']) {
    // days 2..5: every symbol a..d and the null (day 3) are in it; 'e' is not
    const where = "ts >= '2024-01-03' and ts < '2024-01-07'"
    const r = await read(`select v from ${table} where ${where} latest on ts partition by sym`)
    t.same(r.rows, latest(day(2), day(6) - 1, (i) => sym[i]), `${table}: the latest row of each key inside the interval`)
    if (table === 't') {
      // the symbol dictionary has 'e', which the interval lacks: every row of the interval is read, no other
      t.equal(r.parts, 4, `${table}: only the interval's 4 partitions (${r.parts})`)
      t.equal(r.read, 4 * 20_000, `${table}: only the interval's rows`)
    }
    const plan = (await db.query(`explain select v from ${table} where ${where} latest on ts partition by sym`)).rows.flat().join('\n')
    t.match(plan, /Interval backward scan/, `${table}: EXPLAIN shows the backward interval scan`)
    // today as the 6th day: all keys (with 'e' and the null) only when the interval reaches day 0
    const all = await read(`select v from ${table} where ts <= '2024-01-06T23:59:59.999999Z' latest on ts partition by sym`)
    t.same(all.rows, latest(-Infinity, day(6) - 1, (i) => sym[i]), `${table}: open start`)
    // an int key: key count unknown, the interval read backwards whole
    const ik = await read(`select v from ${table} where ts in '2024-01-05' latest on ts partition by k`)
    t.same(ik.rows, latest(day(4), day(5) - 1, (i) => k[i]), `${table}: int keys`)
  }
  // a table of a..d and a null near the end of day 6: a symbol key stops once each is found (when
  // the null is not met, it is looked for in the older rows' symbol column alone, natively)
  const u = await read("select v from u where ts < '2024-01-08' latest on ts partition by sym")
  t.same(u.rows, latest(-Infinity, day(7) - 1, (i) => uSym[i]), 'u: the latest of each of a..d and null')
  t.equal(u.parts, 1, 'u: one partition opened (the interval\'s last)')
  t.equal(u.read, 20_000, 'u: the rows of the interval\'s last partition only (one batch from its end)')
  const f = await read("select v from u where ts < '2024-01-08' and v % 3 = 0 latest on ts partition by sym")
  const keep = new Map<unknown, number>()
  for (let i = 0; i < n; i++) if (ts[i]! < day(7) && i % 3 === 0) keep.set(uSym[i], i)
  t.same(f.rows, [...keep.values()].sort((a, b) => a - b).map(String), 'u: with a filter')
})
