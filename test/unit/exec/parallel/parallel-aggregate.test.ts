import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { PARALLEL_STATS } from '../../../../lib/exec/parallel/parallel-aggregate.js'
import { PARALLEL_MIN_ROWS } from '../../../../lib/plan/physical/index.js'
import { workerPool } from '../../../../lib/exec/parallel/pool.js'

// A table just over the parallel threshold; expected values are computed here in plain JS.
const N = PARALLEL_MIN_ROWS + 12_345

t.test('parallel GROUP BY equals the sequential definition', async (t) => {
  t.ok(workerPool() !== undefined || process.env['EPOCHDB_WORKERS'] === '0', 'a worker pool exists on a multi-core machine')
  const db = await Database.open()
  await db.query('create table t (ts timestamp, sym symbol, v double, i int) timestamp(ts)')
  const ts = new Float64Array(N)
  const v = new Float64Array(N)
  const i32 = new Int32Array(N)
  const sym: (string | null)[] = []
  const exp = new Map<string | null, { n: number; nv: number; sum: number; min: number; max: number; isum: number }>()
  for (let i = 0; i < N; i++) {
    ts[i] = i * 1000
    const s = i % 13 === 0 ? null : `s${i % 7}`
    sym.push(s)
    const x = i % 11 === 0 ? NaN : (i % 101) - 50.5
    v[i] = x
    i32[i] = i % 1000
    const e = exp.get(s) ?? { n: 0, nv: 0, sum: 0, min: Infinity, max: -Infinity, isum: 0 }
    e.n++
    e.isum += i % 1000
    if (!Number.isNaN(x)) { e.nv++; e.sum += x; e.min = Math.min(e.min, x); e.max = Math.max(e.max, x) }
    exp.set(s, e)
  }
  await db.append('t', { ts, sym, v, i: i32 })
  const before = PARALLEL_STATS.runs
  const r = await db.query('select sym, count(), count(v), sum(v), avg(v), min(v), max(v), sum(i) from t')
  if (workerPool() !== undefined) t.equal(PARALLEL_STATS.runs, before + 1, 'the parallel path ran')
  t.equal(r.rows.length, exp.size)
  for (const row of r.rows) {
    const e = exp.get(row[0] as string | null)!
    t.equal(row[1], BigInt(e.n), `count for ${String(row[0])}`)
    t.equal(row[2], BigInt(e.nv))
    t.ok(Math.abs((row[3] as number) - e.sum) < 1e-6)
    t.ok(Math.abs((row[4] as number) - e.sum / e.nv) < 1e-9)
    t.equal(row[5], e.min)
    t.equal(row[6], e.max)
    t.equal(row[7], BigInt(e.isum))
  }
  const f = await db.query("select count(), max(v) from t where sym = 's3' and v > 0")
  let n = 0
  let max = -Infinity
  for (let i = 0; i < N; i++) if (sym[i] === 's3' && v[i]! > 0) { n++; max = Math.max(max, v[i]!) }
  t.same(f.rows, [[BigInt(n), max]])
  await db.close()
})
