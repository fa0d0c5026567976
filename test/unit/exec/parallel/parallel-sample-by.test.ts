import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { PARALLEL_STATS } from '../../../../lib/exec/parallel/parallel-aggregate.js'
import { PARALLEL_MIN_ROWS } from '../../../../lib/plan/physical/index.js'
import { PARALLELISM, workerPool } from '../../../../lib/exec/parallel/pool.js'

// Every query runs twice, with worker threads and without; the results must be the same, doubles
// up to rounding (a sum split between threads adds in another order).
function close(a: unknown[][], b: unknown[][]): boolean {
  if (a.length !== b.length) return false
  return a.every((row, i) => row.every((x, j) => {
    const y = b[i]![j]
    if (typeof x === 'number' && typeof y === 'number') return x === y || Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y))
    return x === y
  }))
}
const N = PARALLEL_MIN_ROWS + 54_321

t.test('parallel SAMPLE BY returns exactly what the single-threaded operator returns', async (t) => {
  const db = await Database.open()
  await db.query('create table t (ts timestamp, sym symbol, v double, i int) timestamp(ts) partition by day')
  const ts = new Float64Array(N)
  const v = new Float64Array(N)
  const i32 = new Int32Array(N)
  const sym: (string | null)[] = []
  for (let k = 0; k < N; k++) {
    ts[k] = 1704067200000000 + k * 997_000 // ~1 s apart: buckets of every size get split between threads
    sym.push(k % 17 === 0 ? null : `s${(k * 7) % 5}`)
    v[k] = k % 13 === 0 ? NaN : ((k * 31) % 1000) / 10
    i32[k] = k % 100
  }
  await db.append('t', { ts, sym, v, i: i32 })
  const queries = [
    'select ts, avg(v), min(v), max(v), count(), sum(i) from t sample by 1h',
    'select ts, sym, avg(v), min(v), max(v), count(v), sum(v) from t sample by 7m',
    'select ts, sym, count() from t where v > 50 sample by 1d',
    "select ts, count(), sum(i) from t sample by 1d align to calendar time zone 'Europe/Berlin'",
    "select ts, sym, max(i) from t sample by 2h align to calendar with offset '00:30'",
    'select ts, first(v) from t sample by 1h',
    // aligned to the first observation (#15): every share buckets from the input's first row,
    // which a filter can move (row 0 has v null)
    'select ts, avg(v), count() from t sample by 7m align to first observation',
    'select ts, sym, max(i), first(v) from t where v > 50 sample by 1d align to first observation',
    "select ts, count() from t where i > 98 and ts > '2024-01-01T00:07:11.5Z' sample by 13m align to first observation",
  ]
  for (const q of queries) {
    PARALLELISM.enabled = false
    const serial = await db.query(q)
    PARALLELISM.enabled = true
    const before = PARALLEL_STATS.runs
    const parallel = await db.query(q)
    t.ok(close(parallel.rows, serial.rows), `${q}: same rows (${serial.rows.length})`)
    t.same(parallel.columns, serial.columns)
    t.equal(parallel.timestampIndex, serial.timestampIndex)
    const expectParallel = workerPool() !== undefined
    t.equal(PARALLEL_STATS.runs - before, expectParallel ? 1 : 0, `${q}: ${expectParallel ? 'parallel' : 'single-threaded'} path`)
    if (expectParallel) t.match((await db.query(`explain ${q}`)).rows[0]![0], /^Async Sample By/, `${q}: EXPLAIN shows it`)
  }
  await db.close()
})
