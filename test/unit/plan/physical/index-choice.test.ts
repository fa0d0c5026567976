/**
 * Index or parallel scan (#15): a filter on an indexed SYMBOL column over a large table reads
 * through the index when it asks for few rows, and splits the whole scan across threads when
 * the index would gather a large share of the rows; either way the answers are the ones one
 * thread gives through the index.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { PARALLEL_STATS } from '../../../../lib/exec/parallel/parallel-aggregate.js'
import { PARALLELISM, parallelWorkers, workerPool } from '../../../../lib/exec/parallel/pool.js'
import { PHYSICAL_TUNING } from '../../../../lib/plan/physical/index.js'
import { indexRows, parallelScan } from '../../../../lib/plan/physical/index-choice.js'
import type { ScanNode } from '../../../../lib/plan/plan-node.js'

const N = 40_000
const hosts = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `'h${from + i}'`).join(',')

t.test('the index when selective, the split when not, same answers', async (t) => {
  const db = await Database.open()
  const tuning = { ...PHYSICAL_TUNING }
  PHYSICAL_TUNING.minRows = 5000
  PHYSICAL_TUNING.filters = true
  t.teardown(async () => { Object.assign(PHYSICAL_TUNING, tuning); PARALLELISM.enabled = true; await db.close() })
  await db.query('create table t (ts timestamp, hostname symbol index, v double) timestamp(ts) partition by hour')
  await db.query(`insert into t select '2024-01-01'::timestamp + x * 1_000_000L, 'h' || (x % 100), (x * 37) % 1000 from long_sequence(${N})`)
  const parallel = workerPool() !== undefined
  const cases: [string, 'index' | 'split'][] = [
    ["select count(), max(v), sum(v) from t where hostname = 'h7'", 'index'],
    ["select * from t where hostname = 'h7' and v > 100", 'index'],
    ["select hostname, count(), avg(v) from t where hostname in ('h1', 'h2', 'nope') order by hostname", 'index'],
    [`select count(), max(v), sum(v) from t where hostname in (${hosts(0, 60)})`, 'split'],
    [`select hostname, count() from t where hostname in (${hosts(10, 64)}) and v > 500 order by hostname`, 'split'],
    [`select * from t where hostname in (${hosts(0, 64)}) and v < 20`, 'split'],
    [`select count() from t where hostname in (${hosts(0, 64)}) and ts >= '2024-01-01T02:00:00Z' and ts < '2024-01-01T09:00:00Z'`, 'split'],
  ]
  for (const [sql, path] of cases) {
    const q = sql
    const label = sql.length > 70 ? `${sql.slice(0, 67)}...` : sql
    PARALLELISM.enabled = false
    const serial = await db.query(q)
    const serialPlan = (await db.query(`explain ${q}`)).rows.map((r) => String(r[0])).join('\n')
    PARALLELISM.enabled = true
    t.match(serialPlan, /Index forward scan on: hostname/, `${label}: one thread reads through the index`)
    t.ok(serial.rows.length > 0 && Number(serial.rows[0]![0]) !== 0, `${label}: rows to compare`)
    const before = { ...PARALLEL_STATS }
    const chosen = await db.query(q)
    t.same(chosen.rows, serial.rows, `${label}: same rows (${serial.rows.length})`)
    if (!parallel) continue
    const plan = (await db.query(`explain ${q}`)).rows.map((r) => String(r[0])).join('\n')
    const split = PARALLEL_STATS.runs + PARALLEL_STATS.filters - before.runs - before.filters
    if (path === 'index') {
      t.equal(split, 0, `${label}: not split`)
      t.match(plan, /Index forward scan on: hostname/, `${label}: EXPLAIN shows the index`)
      t.notMatch(plan, /Async/, `${label}: and no parallel node`)
    } else {
      t.equal(split, 1, `${label}: split across threads`)
      t.match(plan, /Async (Filter|Group By)/, `${label}: EXPLAIN shows the split`)
      t.notMatch(plan, /Index forward scan/, `${label}: over the whole scan`)
    }
  }
})

t.test('the estimate: the share of distinct values asked for', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table t (ts timestamp, s symbol index, v double) timestamp(ts)')
  await db.query(`insert into t select x::timestamp, 's' || (x % 10), x from long_sequence(1000)`)
  const table = (db as unknown as { catalog: { get(n: string): ScanNode['table'] } }).catalog.get('t')
  const scan = (values: (string | null)[]): ScanNode => ({ kind: 'scan', table, columns: [0, 1, 2], symbolIndex: { column: 1, values }, output: [], timestampIndex: 0 }) as unknown as ScanNode
  t.equal(indexRows(scan(['s1'])), 100)
  t.equal(indexRows(scan(['s1', 's2', 's1'])), 200, 'a value asked twice counts once')
  t.equal(indexRows(scan(['nope'])), 0, 'a value the column never held has no rows')
  t.equal(parallelScan(scan(['s1']), 1), undefined, '10% of the rows: the index')
  const full = parallelScan(scan(['s0', 's1', 's2', 's3', 's4', 's5']), 1)
  t.ok(full !== undefined && full.symbolIndex === undefined, '60%: the whole scan, without the index')
  t.equal(parallelScan(scan(['s0', 's1', 's2', 's3', 's4', 's5']), 0)?.symbolIndex, undefined)
  t.ok(parallelWorkers() >= 0)
})
