import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { PARALLEL_STATS } from '../../../../lib/exec/parallel/parallel-aggregate.js'
import { PARALLEL_MIN_ROWS } from '../../../../lib/plan/physical/index.js'
import { runPartial } from '../../../../lib/exec/parallel/partial.js'

const N = PARALLEL_MIN_ROWS + 1000

t.test('a parallel GROUP BY ends with 57014 at its timeout, and the pool keeps working', { timeout: 120_000 }, async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table t (ts timestamp, v double) timestamp(ts)')
  const ts = new Float64Array(N)
  const v = new Float64Array(N)
  for (let i = 0; i < N; i++) { ts[i] = i * 1000; v[i] = i % 1000 }
  await db.append('t', { ts, v })
  const runs = PARALLEL_STATS.runs
  const q = "select v % 7 k, count(*) c from t where regexp_replace(cast(v as string), '0', 'x') != '' order by k"
  const e = await db.query(q, [], { timeout: 1 }).then(() => undefined, (err: { code?: string }) => err)
  t.equal(e?.code, '57014')
  const r = await db.query(q)
  t.equal(r.rows.length, 7)
  t.ok(PARALLEL_STATS.runs > runs || process.env['EPOCHDB_WORKERS'] === '0', 'ran in parallel')
})

t.test('a worker share stops when the shared cancel flag is set', async (t) => {
  const cancel = new Int32Array(new SharedArrayBuffer(4))
  Atomics.store(cancel, 0, 1)
  const data = new Float64Array(new SharedArrayBuffer(8 * 100_000))
  const task = { columns: [{ type: 'DOUBLE' as const, data }], start: 0, end: 100_000, keys: [], aggregates: [], functions: [], params: [], now: 0, user: 'admin', cancel }
  await t.rejects(runPartial(task), { code: '57014' })
  await t.rejects(runPartial({ ...task, cancel: undefined, deadline: Date.now() - 1 }), { code: '57014' })
})
