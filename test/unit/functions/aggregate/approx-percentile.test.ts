import t from 'tap'
import { SqlError } from '../../../../lib/errors.js'
import { Database } from '../../../../lib/index.js'
import { kernel, keyed, one, results, vec } from './agg-harness.js'

/**
 * A reference written the way HdrHistogram works, independently of the kernel's bucket keys:
 * the auto-ranged DoubleHistogram's lowest tracked value 2^L (L = floor(log2) of the smallest
 * positive value), each value's integer n = floor(v * 2^h / 2^L) in BigInt, the integer
 * histogram's bucket of n (size 2^max(0, bitLength(n) - 1 - h)), the sorted values walked to
 * the k-th, and its highest equivalent integer times 2^(L - h).
 */
function reference(values: number[], p: number, digits: number): number | null {
  const xs = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b)
  if (xs.length === 0) return null
  const h = Math.ceil(Math.log2(2 * 10 ** digits)) - 1
  const pos = xs.filter((v) => v > 0)
  let L = 0
  if (pos.length > 0) {
    L = Math.floor(Math.log2(pos[0]!))
    while (2 ** L > pos[0]!) L--
    while (2 ** (L + 1) <= pos[0]!) L++
  }
  const pct = p * 100
  // Java's nextAfter(pct, -inf): one ulp down (pct > 0 here, or 0 which clamps to 0 anyway)
  const requested = pct === 0 ? 0 : Math.min(pct - 2 ** (Math.floor(Math.log2(pct)) - 52), 100)
  const k = Math.max(1, Math.ceil((requested * xs.length) / 100))
  const v = xs[k - 1]!
  if (v === 0) return 0
  const n = BigInt(Math.floor(v * 2 ** (h - L)))
  const bits = n.toString(2).length
  const b = BigInt(Math.max(0, bits - 1 - h))
  const low = (n >> b) << b
  const hi = p === 0 ? low : low + (1n << b) - 1n
  return Number(hi) * 2 ** (L - h)
}

/** QuestDB's integer overload (a `Histogram` of longs), the same walk over BigInt buckets. */
function referenceLong(values: bigint[], p: number, digits: number): number | null {
  const xs = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  if (xs.length === 0) return null
  const h = Math.ceil(Math.log2(2 * 10 ** digits)) - 1
  const pct = p * 100
  const requested = pct === 0 ? 0 : Math.min(pct - 2 ** (Math.floor(Math.log2(pct)) - 52), 100)
  const n = xs[Math.max(1, Math.ceil((requested * xs.length) / 100)) - 1]!
  const b = BigInt(Math.max(0, n.toString(2).length - 1 - h))
  const low = (n >> b) << b
  return Number(p === 0 ? low : low + (1n << b) - 1n)
}

/** Seeded LCG, so a failure repeats. */
function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

t.test('QuestDB sample_by_fill values: 0.9 percentile, precision 3, of a group of latencies', async (t) => {
  // 1..100: the 90th value is 90; 2^L = 1, so 90 sits in a bucket of width 2^-4 reported at its top integer unit
  t.equal(one('approx_percentile', ['DOUBLE', 'DOUBLE', 'INT'], [vec('DOUBLE', Array.from({ length: 100 }, (_, i) => i + 1))], [null, 0.9, 3]), 1441 / 16 - 1 / 1024)
  // a single value in the lowest octave is exact to the histogram's unit
  t.equal(one('approx_percentile', ['DOUBLE', 'DOUBLE', 'INT'], [vec('DOUBLE', [0.11])], [null, 0.9, 3]), 1802 / 16384)
})

t.test('random groups equal the integer-histogram reference, every precision and percentile', async (t) => {
  const r = rng(7)
  let checked = 0
  for (let round = 0; round < 300; round++) {
    const digits = round % 6
    const p = [0, 0.01, 0.25, 0.5, 0.9, 0.99, 1][round % 7]!
    const n = 1 + Math.floor(r() * 200)
    const spread = 10 ** Math.floor(r() * 8 - 3)
    const values = Array.from({ length: n }, () => (r() < 0.05 ? 0 : r() * spread * (1 + r() * 1000)))
    const got = one('approx_percentile', ['DOUBLE', 'DOUBLE', 'INT'], [vec('DOUBLE', values)], [null, p, digits])
    const want = reference(values, p, digits)
    if (got !== want) { t.equal(got, want, `round ${round}: p=${p} digits=${digits} n=${n}`); return }
    checked++
  }
  t.equal(checked, 300)
})

t.test('integer arguments take the integer histogram: random groups equal its reference', async (t) => {
  const r = rng(11)
  for (let round = 0; round < 200; round++) {
    const digits = round % 6
    const p = [0, 0.1, 0.5, 0.9, 0.999, 1][round % 6]!
    const scale = 10 ** Math.floor(r() * 15)
    const values = Array.from({ length: 1 + Math.floor(r() * 150) }, () => BigInt(Math.floor(r() * scale)))
    const got = one('approx_percentile', ['LONG', 'DOUBLE', 'INT'], [vec('LONG', values)], [null, p, digits])
    const want = referenceLong(values, p, digits)
    if (got !== want) { t.equal(got, want, `round ${round}: p=${p} digits=${digits}`); return }
  }
  t.pass('200 groups agree')
})

t.test('keyed groups, nulls and NaN skipped, empty group null, merge equals one pass', async (t) => {
  const xs = [5, null, 1, 9, NaN, 3, 7, Infinity]
  const gs = [0, 0, 1, 0, 1, 1, 0, 0]
  const out = keyed('approx_percentile', ['DOUBLE', 'DOUBLE', 'INT'], gs, [vec('DOUBLE', xs)], [null, 0.5, 3])
  t.same(out, [reference([5, 9, 7], 0.5, 3), reference([1, 3], 0.5, 3)])
  t.equal(one('approx_percentile', ['DOUBLE', 'DOUBLE', 'INT'], [vec('DOUBLE', [null, NaN])], [null, 0.5, 3]), null)
  const all = Array.from({ length: 500 }, (_, i) => (i * 37) % 211 + 0.125 * i)
  const a = kernel('approx_percentile', ['DOUBLE', 'DOUBLE', 'INT'], [null, 0.75, 2])
  const b = kernel('approx_percentile', ['DOUBLE', 'DOUBLE', 'INT'], [null, 0.75, 2])
  a.resize(1); b.resize(1)
  a.updateOne(0, [vec('DOUBLE', all.slice(0, 200))], 200)
  b.updateOne(0, [vec('DOUBLE', all.slice(200))], 300)
  a.merge(b, Int32Array.of(0), Int32Array.of(0), 1)
  t.equal(results(a, 1)[0], reference(all, 0.75, 2))
  t.equal(one('approx_median', ['DOUBLE'], [vec('DOUBLE', all)]), reference(all, 0.5, 3))
})

t.test('SQL: default precision 3, errors for a bad percentile, precision and negative values', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  const q = async (sql: string) => (await db.query(sql)).rows
  // a LONG takes the integer overload (unit resolution below 2048 at precision 3), a DOUBLE the double one
  t.same(await q('SELECT approx_percentile(x, 0.9) FROM long_sequence(100)'), [[90]])
  t.same(await q('SELECT approx_percentile(x::int, 0.9, 3) FROM long_sequence(100)'), [[90]])
  t.same(await q('SELECT approx_percentile(x * 1000, 0.9, 1) FROM long_sequence(100)'), [[90111]])
  t.same(await q('SELECT approx_percentile(x::double, 0.9, 3) FROM long_sequence(100)'), [[1441 / 16 - 1 / 1024]])
  t.same(await q('SELECT approx_median(x::double) FROM long_sequence(100)'), [[reference(Array.from({ length: 100 }, (_, i) => i + 1), 0.5, 3)]])
  t.same(await q('SELECT approx_median(x) FROM long_sequence(100)'), [[50]])
  t.same(await q('SELECT x % 2 k, approx_percentile(x::double, 1.0, 0) FROM long_sequence(10) ORDER BY k'), [[0n, reference([2, 4, 6, 8, 10], 1, 0)], [1n, reference([1, 3, 5, 7, 9], 1, 0)]])
  const err = async (sql: string, code: string, re: RegExp) => {
    const e = await db.query(sql).then(() => undefined, (x: unknown) => x)
    t.ok(e instanceof SqlError, sql)
    t.equal((e as SqlError).code, code, sql)
    t.match((e as SqlError).message, re, sql)
  }
  await err('SELECT approx_percentile(x, 1.5, 3) FROM long_sequence(3)', '22023', /percentile must be between 0.0 and 1.0/)
  await err('SELECT approx_percentile(x, 0.5, 6) FROM long_sequence(3)', '22023', /precision must be between 0 and 5/)
  await err('SELECT approx_percentile(x - 2, 0.5, 3) FROM long_sequence(3)', '22023', /^Histogram recorded value cannot be negative\.$/)
  await err('SELECT approx_percentile(x - 2.0, 0.5, 3) FROM long_sequence(3)', '22003', /^The value -1\.0 is out of bounds for histogram, current covered range \[6\.668014432879854E240, 1\.365609355853794\d*E244\) cannot be extended any further\.\nCaused by: Negative values cannot be recorded\nHint: /)
})

// Fixtures from HdrHistogram's own DoubleHistogram (Debian's libhdrhistogram-java 2.1.11, auto-resize,
// highest-to-lowest ratio 1000 as QuestDB creates it), run once by hand: per line the precision and
// the values recorded in order, then the index of the value it refused and its covered range then,
// or null when it took them all.
const HDR_FIXTURES: [number, number[], [number, number, number] | null][] = [
  [3, [1, 1e16], [1, 1.0, 2.74877906944e11]],
  [3, [1, 1e15], null],
  [3, [1e-300, 1e300], [1, 7.466108948025751e-301, 2.0522684006491881e-289]],
  [3, [-1], [0, 6.668014432879854e240, 1.3656093558537942e244]],
  [3, [5, -0.5], [1, 4.0, 8192.0]],
  [0, [1, 1e17], null],
  [0, [1, 1e19], [1, 1.0, 2.74877906944e11]],
  [5, [1, 1e12], null],
  [3, [1e-5, 1e10, 1e-5], null],
  [3, [1000, 1, 1e-12], null],
  [3, [1e308], [0, 6.668014432879854e240, 1.3656093558537942e244]],
  [2, [3e-200, 1e-190, 1e-180, 1e-170, 5e-160], [2, 2.6128403532605207e-200, 1.1222063866923024e-190]],
  [3, [0, 0, 1e-100, 1e100], [3, 5.714936956411375e-101, 1.5709099088952725e-89]],
  [1, [7, 1e14, 1e-4], [2, 4.0, 1.40737488355328e14]],
]

t.test('the dynamic range QuestDB\'s auto-resizing histogram refuses, value for value (HdrHistogram fixtures)', async (t) => {
  const { HistogramRange } = await import('../../../../lib/functions/aggregate/approx-percentile-range.js')
  const { subBucketHalfMagnitude } = await import('../../../../lib/functions/aggregate/approx-percentile.js')
  for (const [digits, values, expected] of HDR_FIXTURES) {
    const r = new HistogramRange(subBucketHalfMagnitude(digits), digits)
    let refused: [number, number, number] | null = null
    for (let i = 0; i < values.length && refused === null; i++) {
      try { r.record(values[i]!, 7) } catch (e) {
        t.type(e, SqlError)
        t.equal((e as SqlError).code, '22003')
        t.equal((e as SqlError).position, 7)
        const m = /covered range \[([^,]+), ([^)]+)\)/.exec((e as SqlError).message)!
        refused = [i, Number(m[1]), Number(m[2])]
      }
    }
    t.same(refused, expected, `precision ${digits}: ${values.join(', ')}`)
  }
})

t.test('SQL: a group whose values span more than the histogram can cover is refused with QuestDB\'s message', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query(`CREATE TABLE r (k SYMBOL, v DOUBLE, ts TIMESTAMP) TIMESTAMP(ts) PARTITION BY DAY`)
  await db.query(`INSERT INTO r VALUES ('a', 1.0, '2024-01-01T00:00:00Z'), ('a', 1e15, '2024-01-01T00:00:01Z'), ('b', 1.0, '2024-01-01T00:00:02Z'), ('b', 1e16, '2024-01-01T00:00:03Z')`)
  t.same((await db.query(`SELECT approx_percentile(v, 1.0) FROM r WHERE k = 'a'`)).rows.length, 1, 'a range of 1e15 at precision 3 is covered')
  const sql = `SELECT k, approx_percentile(v, 0.5) FROM r ORDER BY k`
  const e = await db.query(sql).then(() => undefined, (x: unknown) => x)
  t.type(e, SqlError)
  t.equal((e as SqlError).code, '22003')
  t.equal((e as SqlError).position, sql.indexOf('approx_percentile'))
  t.equal((e as SqlError).message, 'The value 1.0E16 is out of bounds for histogram, current covered range [1.0, 2.74877906944E11) cannot be extended any further.\n'
    + 'Caused by: Cannot resize histogram covered range beyond (1L << 63) / (1L << 10) - 1.\n'
    + 'Caused by: Operation would underflow and lose precision of already recorded value counts\n'
    + 'Hint: Try normalizing your values to fit into the covered range\n'
    + 'Or lower the histogram precision (for example, use approx_median(x, 0))')
  t.same((await db.query(`SELECT approx_median(v, 0) FROM r WHERE k = 'b'`)).rows.length, 1, 'precision 0 covers it, as the hint says')
})
