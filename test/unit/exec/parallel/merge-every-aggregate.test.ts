/**
 * Every aggregate runs in parallel through its kernel's `merge` (the physical planner chooses
 * "Async Group By" / "Async Sample By"), and answers what one thread answers: doubles up to
 * rounding (a sum split between threads adds in another order), everything else exactly —
 * first/last, string_agg, sparkline and isordered included, since partials merge in row order.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { PARALLEL_STATS } from '../../../../lib/exec/parallel/parallel-aggregate.js'
import { PARALLELISM, workerPool } from '../../../../lib/exec/parallel/pool.js'
import { PHYSICAL_TUNING } from '../../../../lib/plan/physical/index.js'

const N = 30_000

function close(a: unknown[][], b: unknown[][]): boolean {
  if (a.length !== b.length) return false
  return a.every((row, i) => row.every((x, j) => {
    const y = b[i]![j]
    if (typeof x === 'number' && typeof y === 'number') return x === y || Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y))
    return JSON.stringify(x, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)) === JSON.stringify(y, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))
  }))
}

const AGGREGATES = [
  'count()', 'count(v)', 'count_distinct(i)', 'approx_count_distinct(l)', 'sum(v)', 'sum(i)', 'sum(l)', 'avg(v)',
  'min(v)', 'max(i)', 'min(ts)', 'max(c)', 'first(v)', 'last(sym)', 'first_not_null(v)', 'last_not_null(i)',
  'ksum(v)', 'nsum(v)', 'stddev_samp(v)', 'stddev_pop(v)', 'var_samp(v)', 'var_pop(v)',
  'covar_samp(v, i)', 'covar_pop(v, i)', 'corr(v, i)', 'regr_slope(v, i)', 'regr_intercept(v, i)', 'regr_r2(v, i)',
  'regr_count(v, i)', 'regr_avgx(v, i)', 'regr_avgy(v, i)', 'regr_sxx(v, i)', 'regr_syy(v, i)', 'regr_sxy(v, i)',
  "string_agg(cast(i % 3 as string), ',')", 'bool_and(v > -1)', 'bool_or(v > 90)', 'mode(i % 5)', 'isordered(ts)',
  'weighted_stddev_rel(v, i)', 'weighted_stddev_freq(v, i)', 'sum(d)', 'avg(d)', 'min(d)', 'max(d)',
  'skewness_samp(v)', 'skewness_pop(v)', 'kurtosis_samp(v)', 'kurtosis_pop(v)', 'weighted_avg(v, i)', 'geomean(v)', 'twap(v, ts)', 'bit_xor(l)', 'bit_or(i)', 'bit_and(l)',
  'arg_max(v, l)', 'arg_min(ts, v)', 'arg_max(l, i)', 'haversine_dist_deg(v / 2, i, ts)', 'sparkline(v)', 'sparkline(i, 0, NULL, 16)',
  "string_distinct_agg(cast(i % 3 as string), ',')", 'string_distinct_agg(sym, \'|\')',
]

t.test('every aggregate, split across threads, equals one thread', async (t) => {
  const db = await Database.open()
  const minRows = PHYSICAL_TUNING.minRows
  PHYSICAL_TUNING.minRows = 1000
  t.teardown(async () => { PHYSICAL_TUNING.minRows = minRows; PARALLELISM.enabled = true; await db.close() })
  await db.query('create table t (ts timestamp, sym symbol, v double, i int, l long, c char, d decimal(12, 2)) timestamp(ts) partition by day')
  await db.query(`insert into t select
      '2024-01-01'::timestamp + x * 7_000_000L, case when x % 11 = 0 then null else 's' || (x % 7) end,
      case when x % 13 = 0 then null else ((x * 31) % 1000) / 10.0 end, cast(x % 100 as int), x * 3, cast(65 + x % 26 as char),
      cast(x % 1000 as decimal(12, 2)) / 4
    from long_sequence(${N})`)
  const parallel = workerPool() !== undefined
  const queries = [
    ...AGGREGATES.map((a) => `select sym, ${a} from t order by sym`),
    `select ${AGGREGATES.join(', ')} from t`,
    `select ts, sym, ${AGGREGATES.join(', ')} from t sample by 1h`,
  ]
  for (const q of queries) {
    PARALLELISM.enabled = false
    const serial = await db.query(q)
    PARALLELISM.enabled = true
    const before = PARALLEL_STATS.runs
    const split = await db.query(q)
    t.ok(close(split.rows, serial.rows), `${q.slice(0, 60)}: same rows (${serial.rows.length})`)
    t.equal(PARALLEL_STATS.runs - before, parallel ? 1 : 0, 'the parallel path ran')
  }
  if (parallel) {
    const plan = (await db.query(`explain select sym, first(v), string_agg(cast(i as string), ',') from t where v > 3`)).rows.map((r) => String(r[0]))
    t.match(plan[0], /^Async Group By workers: \d+ keys: 1 values: first,string_agg$/, 'EXPLAIN shows the parallel aggregation')
    t.match(plan.join('\n'), /Filter\n\s+Row forward scan/, 'over the filtered scan')
    t.match((await db.query('explain select ts, count() from t sample by 1h')).rows[0]![0], /^Async Sample By workers: \d+/)
    PARALLELISM.enabled = false
    t.match((await db.query('explain select sym, count() from t')).rows[0]![0], /^GroupBy keys: 1/, 'no workers: one thread')
    PARALLELISM.enabled = true
  }
  PHYSICAL_TUNING.minRows = N + 1
  t.match((await db.query('explain select sym, count() from t')).rows[0]![0], /^GroupBy keys: 1/, 'a table under minRows: one thread')
})
