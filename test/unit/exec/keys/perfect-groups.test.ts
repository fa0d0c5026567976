/**
 * Perfect-hash GROUP BY (lib/exec/keys/perfect-groups.ts) against the ordinary path on random
 * data: a second double sum `avg(x)` keeps a statement on the ordinary path (two double sums fold
 * in one fused pass, which perfect groups do not take), so the same aggregates, one double
 * `sum(w)` among them (random fractions: its running totals are moved to the perfect kernels and
 * back, so it must equal the ordinary path's to the last bit), are answered both ways in one
 * database and compared,
 * over INT keys (nulls, negative keys, keys past the span arriving late), SHORT / BYTE keys
 * (negative keys), INT keys below zero (the span offset by a base, lowered by a later smaller
 * key), LONG keys around 10^12 (nulls, keys far past the span) and SYMBOL keys, with
 * null values, one thread and split.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { PERFECT_SPAN, PERFECT_STATS } from '../../../../lib/exec/keys/perfect-groups.js'
import { PARALLELISM } from '../../../../lib/exec/parallel/pool.js'
import { PHYSICAL_TUNING } from '../../../../lib/plan/physical/index.js'

/** A seeded generator (mulberry32), so a failure repeats. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

const N = 400_000
const AGGS = 'count(), count(v), sum(v), avg(v), min(v), max(v), first(v), last(v), first_not_null(v), last_not_null(v), min(x), max(x), count(x), first(x), last(x), sum(nk), sum(lk), sum(lk * 1000)'

const str = (rows: unknown[][]): string[] => rows.map((r) => JSON.stringify(r.map((x) => (x === null ? null : String(x)))))

t.test('perfect groups answer exactly as the ordinary path', async (t) => {
  const db = await Database.open()
  const minRows = PHYSICAL_TUNING.minRows
  PHYSICAL_TUNING.minRows = 1000
  t.teardown(async () => { PHYSICAL_TUNING.minRows = minRows; PARALLELISM.enabled = true; await db.close() })
  await db.query('create table p (ts timestamp, k int, s symbol, sh short, b byte, nk int, lk long, v decimal(18, 4), x double, w double) timestamp(ts) partition by hour')
  const r = random(17)
  const ts: number[] = [], nk: (number | null)[] = [], lk: (number | null)[] = [], sh: number[] = [], b: number[] = [], k: (number | null)[] = [], s: (string | null)[] = [], v: (string | null)[] = [], x: (number | null)[] = [], w: number[] = []
  for (let i = 0; i < N; i++) {
    ts.push(i * 100_000)
    const late = i > N / 2
    // odd keys only in stretches (a batch holding one takes the ordinary path), so both paths alternate
    const u = i % 150_000 < 3000 ? r() : 1
    // mostly 0..99; a few nulls, negative keys, and keys at and past the span, some only in the second half
    // INT nulls also outside the stretches (perfect groups fold them at their own slot)
    k.push(u < 0.01 || (u === 1 && r() < 0.003) ? null : u < 0.02 ? -1 - Math.floor(r() * 50) : u < 0.025 && late ? PERFECT_SPAN + Math.floor(r() * 3) - 1 : u < 0.03 && late ? 100 + Math.floor(r() * 900) : Math.floor(r() * 100))
    // SHORT / BYTE: no null; negative values and (SHORT) values past 100 only in the stretches
    const odd = i % 150_000 < 3000 && r() < 0.05
    sh.push(odd ? Math.floor((r() - 0.5) * 60_000) : Math.floor(r() * 100))
    b.push(odd ? -1 - Math.floor(r() * 100) : Math.floor(r() * 100))
    // all below zero; a smaller key (-700) first arrives in the second half, moving the base down
    nk.push(u < 0.01 ? null : u < 0.02 && late ? -700 + Math.floor(r() * 5) : -1 - Math.floor(r() * 100))
    // 10^12 + (0..99); nulls; keys 10^12 - 3 (below the first base) and past the span, in the stretches
    lk.push(u < 0.01 ? null : u < 0.02 ? 1e12 - 3 : u < 0.025 ? 1e12 + PERFECT_SPAN + Math.floor(r() * 1000) : 1e12 + Math.floor(r() * 100))
    s.push(i % 150_000 < 3000 && r() < 0.01 ? null : `s${Math.floor(r() * (late ? 60 : 40))}`)
    const big = r() < 0.2
    const n = big ? BigInt(Math.floor(r() * 1e9)) * 1_000_000_000n + BigInt(Math.floor(r() * 1e9)) : BigInt(Math.floor((r() - 0.5) * 1e9))
    const neg = r() < 0.5 && n > 0n ? -n : n
    const txt = neg.toString().replace(/^(-?)(\d*?)(\d{0,4})$/, (_, sg, a, b) => `${sg}${a || '0'}.${b.padStart(4, '0')}`)
    v.push(r() < 0.05 ? null : txt)
    x.push(r() < 0.05 ? null : Math.round((r() - 0.5) * 1e6) / 8)
    w.push(r() / 3) // a full mantissa: sums of these round, so the order of additions shows
  }
  await db.append('p', { ts, k, s, sh, b, nk, lk, v, x, w })

  for (const parallel of [false, true]) {
    PARALLELISM.enabled = parallel
    for (const key of ['k', 's', 'sh', 'b', 'nk', 'lk']) {
      const before = PERFECT_STATS.batches
      const fast = (await db.query(`select ${key}, ${AGGS}, sum(w) from p`)).rows
      const took = PERFECT_STATS.batches - before
      const slow = (await db.query(`select ${key}, ${AGGS}, sum(w), avg(x) from p`)).rows.map((row) => row.slice(0, -1))
      t.ok(took > 0, `${key}, parallel=${parallel}: batches went through perfect groups (${took})`)
      t.equal(PERFECT_STATS.batches - before, took, 'the ordinary statement did not take them')
      t.same(str(fast), str(slow), `${key}, parallel=${parallel}: same groups, same order, same answers (${fast.length} groups)`)
    }
  }
})

t.test('a refused batch folds its first rows by ids and offers the rest to perfect groups', async (t) => {
  const db = await Database.open()
  t.teardown(async () => { PARALLELISM.enabled = true; await db.close() })
  PARALLELISM.enabled = false
  await db.query('create table q (k int, nk int, lk long, e int, v decimal(18, 4), w double, x double)')
  // one batch: keys 0..99 (and their shifted forms) all seen in the first rows; `e` brings keys 100..109 only after row 20,000
  const n = 60_000
  const k = Int32Array.from({ length: n }, (_, i) => (i * 7) % 100)
  const nk = k.map((x) => x - 50)
  const lk = Float64Array.from(k, (x) => 1e12 + x)
  const e = Int32Array.from({ length: n }, (_, i) => (i > 20_000 && i % 9 === 0 ? 100 + (i % 10) : (i * 7) % 100))
  const v = Array.from({ length: n }, (_, i) => (i % 13 === 0 ? null : `${(i * 7919) % 100000}.${i % 10000}`))
  const w = Float64Array.from({ length: n }, (_, i) => ((i * 7919) % 1000) / 3)
  await db.append('q', { k, nk, lk, e, v, w, x: w })
  const aggs = 'count(), sum(v), avg(v), min(v), max(v), first(v), last(v), sum(w), sum(nk), sum(lk)'
  for (const key of ['k', 'nk', 'lk', 'e']) {
    const before = PERFECT_STATS.batches
    const fast = (await db.query(`select ${key}, ${aggs} from q`)).rows
    const took = PERFECT_STATS.batches - before
    const slow = (await db.query(`select ${key}, ${aggs}, avg(x) from q`)).rows.map((row) => row.slice(0, -1))
    // `e`'s new keys arrive after the first rows: its rest is refused and folds by ids
    if (key === 'e') t.equal(took, 0, 'e: keys first seen past the probe rows keep the batch on the ordinary path')
    else t.equal(took, 1, `${key}: the rest of the statement's one batch went through perfect groups`)
    t.same(str(fast), str(slow), `${key}: same groups, same order, same answers (${fast.length} groups)`)
  }
})
