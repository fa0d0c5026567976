/**
 * Time-range filters and scans split across threads (#16 part 6): the physical planner chooses
 * "Async Filter" for a filter over a scan, and a parallel GROUP BY / SAMPLE BY now also over a
 * scan with timestamp intervals, when the rows in range are many; the answers are exactly the
 * single-threaded ones, in the same order.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { PARALLEL_STATS } from '../../../../lib/exec/parallel/parallel-aggregate.js'
import { PARALLELISM, workerPool } from '../../../../lib/exec/parallel/pool.js'
import { PHYSICAL_TUNING } from '../../../../lib/plan/physical/index.js'
import { FILTER_WINDOW } from '../../../../lib/exec/parallel/parallel-filter.js'

const N = 60_000

function same(a: unknown[][], b: unknown[][]): boolean {
  if (a.length !== b.length) return false
  const text = (x: unknown) => JSON.stringify(x, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))
  return a.every((row, i) => row.every((x, j) => {
    const y = b[i]![j]
    if (typeof x === 'number' && typeof y === 'number') return x === y || Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y))
    return text(x) === text(y)
  }))
}

t.test('parallel filters and range aggregations answer what one thread answers', async (t) => {
  const db = await Database.open()
  const minRows = PHYSICAL_TUNING.minRows
  const window = FILTER_WINDOW.rows
  PHYSICAL_TUNING.minRows = 5000
  PHYSICAL_TUNING.filters = true // off by default (docs/benchmarks.md)
  FILTER_WINDOW.rows = 4096 // several windows per part
  t.teardown(async () => { PHYSICAL_TUNING.minRows = minRows; PHYSICAL_TUNING.filters = false; FILTER_WINDOW.rows = window; PARALLELISM.enabled = true; await db.close() })
  await db.query('create table t (ts timestamp, host symbol, s string, v double, i int) timestamp(ts) partition by hour')
  await db.query(`insert into t select '2024-01-01'::timestamp + x * 250_000L, 'h' || (x % 9), 'row' || x,
      case when x % 17 = 0 then null else ((x * 37) % 1000) / 10.0 end, cast(x % 1000 as int) from long_sequence(${N})`)
  const parallel = workerPool() !== undefined
  const cases: [string, 'filter' | 'aggregate' | 'none'][] = [
    ['select * from t where v > 90', 'filter'],
    ["select ts, host, s from t where v > 50 and ts >= '2024-01-01T01:00:00Z' and ts < '2024-01-01T03:30:00Z'", 'filter'],
    ["select * from t where ts in '2024-01-01T02;45m' and i % 7 = 0", 'filter'],
    ["select * from t where v < 1 limit 5", 'filter'],
    ["select count(), avg(v) from t where ts >= '2024-01-01T00:30:00Z' and ts < '2024-01-01T03:00:00Z'", 'aggregate'],
    ["select ts, host, max(v), first(s) from t where ts >= '2024-01-01T01:00:00Z' and ts < '2024-01-01T03:00:00Z' sample by 5m", 'none'],
    ["select ts, host, max(v), count() from t where ts >= '2024-01-01T01:00:00Z' and ts < '2024-01-01T03:00:00Z' sample by 5m", 'aggregate'],
    ["select host, count() from t where ts >= '2024-01-01T01:00:00Z' and ts < '2024-01-01T01:01:00Z' order by host", 'none'],
  ]
  if (parallel) {
    const before = { ...PARALLEL_STATS }
    PARALLELISM.enabled = false
    const serial = await db.query('select count() from t where v > (select avg(v) from t)')
    PARALLELISM.enabled = true
    t.same((await db.query('select count() from t where v > (select avg(v) from t)')).rows, serial.rows, 'a subquery: same answer')
    t.equal(PARALLEL_STATS.runs - before.runs, 1, 'the uncorrelated subquery gets its physical plan too (a parallel aggregation)')
  }
  for (const [q, path] of cases) {
    PARALLELISM.enabled = false
    const serial = await db.query(q)
    PARALLELISM.enabled = true
    const before = { ...PARALLEL_STATS }
    const split = await db.query(q)
    t.ok(serial.rows.length > 0, `${q}: rows to compare`)
    t.ok(same(split.rows, serial.rows), `${q}: same rows in the same order (${serial.rows.length})`)
    if (!parallel) continue
    const plan = (await db.query(`explain ${q}`)).rows.map((r) => String(r[0])).join('\n')
    t.equal(PARALLEL_STATS.filters - before.filters, path === 'filter' ? 1 : 0, `${q}: parallel filter ${path === 'filter' ? '' : 'not '}taken`)
    t.equal(PARALLEL_STATS.runs - before.runs, path === 'aggregate' ? 1 : 0, `${q}: parallel aggregation ${path === 'aggregate' ? '' : 'not '}taken`)
    if (path === 'filter') t.match(plan, /Async Filter workers: \d+\n\s+(Row|Interval) forward scan/, 'EXPLAIN shows it')
    if (path === 'aggregate') t.match(plan, /Async (Group|Sample) By workers: \d+[^\n]*\n\s+(Filter\n\s+)?Interval forward scan/, 'EXPLAIN shows it over the interval scan')
  }
})
