/**
 * When an aggregation is split across threads (#16): by the values it folds (rows x aggregate
 * arguments), never below a quarter of `minRows` rows; the split answers what one thread answers.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { PARALLELISM, workerPool } from '../../../../lib/exec/parallel/pool.js'
import { PHYSICAL_TUNING } from '../../../../lib/plan/physical/index.js'
import { worthSplitting } from '../../../../lib/plan/physical/parallel-aggregate.js'

const args = (n: number) => Array.from({ length: n }, () => ({ args: [0] }))

t.test('rows x aggregate arguments against minRows, with a floor of minRows / 4 rows', async (t) => {
  const m = 1_000_000
  t.equal(worthSplitting(1_000_000, [{ args: [] }], m), true, 'a 1M-row count()')
  t.equal(worthSplitting(999_999, [{ args: [] }], m), false, 'count() below minRows')
  t.equal(worthSplitting(999_999, args(1), m), false, 'one avg below minRows')
  t.equal(worthSplitting(250_000, args(4), m), true, 'four avgs over a quarter of minRows')
  t.equal(worthSplitting(432_000, args(10), m), true, 'TSBS double-groupby-all at 100 hosts')
  t.equal(worthSplitting(249_999, args(10), m), false, 'never below a quarter of minRows')
  t.equal(worthSplitting(300_000, args(3), m), false, '900k values')
})

t.test('several aggregates split a table one aggregate does not; answers equal one thread', async (t) => {
  const db = await Database.open()
  const minRows = PHYSICAL_TUNING.minRows
  PHYSICAL_TUNING.minRows = 20_000
  t.teardown(async () => { PHYSICAL_TUNING.minRows = minRows; PARALLELISM.enabled = true; await db.close() })
  await db.query('create table t (ts timestamp, k symbol, a double, b double, c double) timestamp(ts) partition by hour')
  await db.query("insert into t select '2024-01-01'::timestamp + x * 1_000_000L, 'k' || (x % 7), x % 101, (x * 3) % 97, (x * 7) % 89 from long_sequence(8000)")
  const plan = async (q: string) => (await db.query(`explain ${q}`)).rows.map((r) => String(r[0])).join('\n')
  const three = 'select ts, k, avg(a), avg(b), avg(c) from t sample by 1h order by ts, k'
  const one = 'select ts, k, avg(a) from t sample by 1h order by ts, k'
  if (workerPool() !== undefined) {
    t.match(await plan(three), /Async Sample By/, '8,000 rows x 3 values reach 20,000')
    t.notMatch(await plan(one), /Async/, '8,000 rows x 1 value do not')
  }
  const split = (await db.query(three)).rows
  PARALLELISM.enabled = false
  const single = (await db.query(three)).rows
  t.same(split, single)
  t.equal(split.length, 3 * 7, 'three hours x seven keys')
})
