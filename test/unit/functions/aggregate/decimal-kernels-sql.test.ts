/**
 * The DECIMAL(18,4) batch kernels through SQL: GROUP BY, SAMPLE BY (keyed and not) and no keys,
 * on one thread and split across threads, over a column holding values past 2^53 units (stored in
 * the BigInt64Array layout) and nulls — every answer equal to exact bigint arithmetic.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { PARALLEL_STATS } from '../../../../lib/exec/parallel/parallel-aggregate.js'
import { PARALLELISM } from '../../../../lib/exec/parallel/pool.js'
import { PHYSICAL_TUNING } from '../../../../lib/plan/physical/index.js'

const N = 40_003
const HOUR = 3_600_000_000

function text(u: bigint): string {
  const neg = u < 0n
  const s = (neg ? -u : u).toString().padStart(5, '0')
  return `${neg ? '-' : ''}${s.slice(0, s.length - 4)}.${s.slice(s.length - 4)}`
}

/** Row i's unscaled value: small, or (1 in 5) up to 10^18 - 1 units; null 1 in 13. */
function unscaled(i: number): bigint | null {
  if (i % 13 === 4) return null
  const u = i % 5 === 0 ? 10n ** 18n - 1n - BigInt(i) * 7919n : BigInt((i * 7919) % 100_000_000)
  return i % 3 === 0 ? -u : u
}

type Acc = { sum: bigint; n: bigint; min: bigint | null; max: bigint | null; first: bigint | null; last: bigint | null; rows: number }

function fold(rows: number[]): Acc {
  const a: Acc = { sum: 0n, n: 0n, min: null, max: null, first: null, last: null, rows: rows.length }
  rows.forEach((i, j) => {
    const u = unscaled(i)
    if (j === 0) a.first = u
    if (j === rows.length - 1) a.last = u
    if (u === null) return
    a.sum += u; a.n++
    if (a.min === null || u < a.min) a.min = u
    if (a.max === null || u > a.max) a.max = u
  })
  return a
}

function avg(a: Acc): bigint | null {
  if (a.n === 0n) return null
  const neg = a.sum < 0n
  const m = neg ? -a.sum : a.sum
  let q = m / a.n
  const r2 = (m % a.n) * 2n
  if (r2 > a.n || (r2 === a.n && q % 2n === 1n)) q++
  return neg ? -q : q
}

const show = (u: bigint | null): string | null => (u === null ? null : text(u))
const row = (a: Acc): (string | null)[] => [show(a.n === 0n ? null : a.sum), show(avg(a)), show(a.min), show(a.max), show(a.first), show(a.last)]
const AGGS = 'sum(v), avg(v), min(v), max(v), first(v), last(v)'

t.test('DECIMAL(18,4) aggregates past 2^53: GROUP BY, SAMPLE BY, no keys; one thread = split = exact', async (t) => {
  const db = await Database.open()
  const minRows = PHYSICAL_TUNING.minRows
  PHYSICAL_TUNING.minRows = 1000
  t.teardown(async () => { PHYSICAL_TUNING.minRows = minRows; PARALLELISM.enabled = true; await db.close() })
  await db.query('create table d (ts timestamp, k symbol, v decimal(18, 4)) timestamp(ts) partition by day')
  const ts = new Array<number>(N), k = new Array<string>(N), v = new Array<string | null>(N)
  for (let i = 0; i < N; i++) { ts[i] = i * 10_000_000; k[i] = `k${i % 7}`; const u = unscaled(i); v[i] = u === null ? null : text(u) }
  await db.append('d', { ts, k, v })
  const all = Array.from({ length: N }, (_, i) => i)
  const byKey = (f: (i: number) => string): Map<string, number[]> => { const m = new Map<string, number[]>(); for (const i of all) { const x = f(i); m.set(x, [...(m.get(x) ?? []), i]) } return m }
  const keyed = [...byKey((i) => `k${i % 7}`)].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([key, rows]) => [key, ...row(fold(rows))])
  const hours = [...byKey((i) => String(Math.floor((i * 10_000_000) / HOUR)).padStart(6, '0'))].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([, rows]) => row(fold(rows)))
  const hourKey = [...byKey((i) => `${String(Math.floor((i * 10_000_000) / HOUR)).padStart(6, '0')} k${i % 7}`)].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([, rows]) => row(fold(rows)))
  const str = (rows: unknown[][]): unknown[][] => rows.map((r) => r.map((x) => (x === null ? null : String(x))))

  for (const parallel of [false, true]) {
    PARALLELISM.enabled = parallel
    const runs = PARALLEL_STATS.runs
    t.same(str((await db.query(`select ${AGGS} from d`)).rows), [row(fold(all))], `no keys, parallel=${parallel}`)
    t.same(str((await db.query(`select k, ${AGGS} from d order by k`)).rows), keyed, `GROUP BY, parallel=${parallel}`)
    t.same(str((await db.query(`select ${AGGS} from d sample by 1h`)).rows), hours, `SAMPLE BY, parallel=${parallel}`)
    t.same(str((await db.query(`select ts, k, ${AGGS} from d sample by 1h order by ts, k`)).rows.map((r) => r.slice(2))), hourKey, `keyed SAMPLE BY, parallel=${parallel}`)
    if (parallel) t.ok(PARALLEL_STATS.runs > runs, 'the split ran')
    else t.equal(PARALLEL_STATS.runs, runs, 'one thread')
  }
})
