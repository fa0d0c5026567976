/**
 * Parallel aggregations and filters over a TIMESTAMP_NS designated timestamp with a time range
 * (`IN '<interval>'`, comparisons, `IN interval(lo, hi)`): the shares search the part's rows with
 * nanosecond bounds and filter to the nanosecond, so they answer exactly what one thread answers.
 * (The shares searched nanosecond rows with microsecond bounds and found none; the nanosecond
 * intervals and the interval bounds' functions did not travel to the workers.)
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { PARALLEL_STATS } from '../../../../lib/exec/parallel/parallel-aggregate.js'
import { PARALLELISM, workerPool } from '../../../../lib/exec/parallel/pool.js'
import { PHYSICAL_TUNING } from '../../../../lib/plan/physical/index.js'

const N = 20_000

t.test('parallel range queries on a TIMESTAMP_NS table answer what one thread answers', async (t) => {
  const db = await Database.open()
  const minRows = PHYSICAL_TUNING.minRows
  PHYSICAL_TUNING.minRows = 2000
  PHYSICAL_TUNING.filters = true
  t.teardown(async () => { PHYSICAL_TUNING.minRows = minRows; PHYSICAL_TUNING.filters = false; PARALLELISM.enabled = true; await db.close() })
  await db.query('create table n (ts timestamp_ns, v long) timestamp(ts) partition by hour')
  // a row every 333 333 ns: several rows per microsecond boundary's neighbourhood, nanosecond digits everywhere
  await db.query(`insert into n select timestamp_sequence_ns('2024-01-01T00:00:00.000000007Z'::timestamp_ns, 333333), x from long_sequence(${N})`)
  const cases: [string, bigint[] | undefined][] = [
    ["select count(), sum(v) from n where ts in '2024-01-01T00:00:01'", undefined],
    ["select count(), sum(v) from n where ts in '2024-01-01T00:00:01.000000007;1s'", undefined],
    ["select count(), min(v), max(v) from n where ts >= '2024-01-01T00:00:02.000332340Z' and ts < '2024-01-01T00:00:03.000000007Z'", undefined],
    ["select count(), sum(v) from n where ts in interval('2024-01-01T00:00:00.000333340Z'::timestamp_ns, '2024-01-01T00:00:04.666662001Z'::timestamp_ns)", undefined],
    ["select count() from n where ts in '[2024-01-01T00:00:00.000333340, 2024-01-01T00:00:00.000333341, 2024-01-01T00:00:00.000666673]'", [2n]],
  ]
  const parallel = workerPool() !== undefined
  for (const [q, expected] of cases) {
    PARALLELISM.enabled = false
    const serial = (await db.query(q)).rows
    PARALLELISM.enabled = true
    const before = { ...PARALLEL_STATS }
    const split = (await db.query(q)).rows
    t.ok(Number(serial[0]![0]) > 0, `${q}: rows to compare`)
    t.same(split, serial, `${q}: the same answer in parallel`)
    if (expected !== undefined) t.same(split[0], expected, `${q}: the expected answer`)
    // (a list of three instants reads too few rows to split)
    if (parallel && expected === undefined) t.equal(PARALLEL_STATS.runs - before.runs, 1, `${q}: ran in parallel`)
  }
})
