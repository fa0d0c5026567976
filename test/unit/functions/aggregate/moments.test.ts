import t from 'tap'
import { kernel, one, results, vec } from './agg-harness.js'

/** Two-pass reference: central moments from the mean, then QuestDB's documented formulas. */
function reference(xs: number[]): Record<string, number | null> {
  const n = xs.length
  const m = xs.reduce((a, b) => a + b, 0) / n
  let m2 = 0, m3 = 0, m4 = 0
  for (const x of xs) { const d = x - m; m2 += d * d; m3 += d * d * d; m4 += d * d * d * d }
  const g1 = Math.sqrt(n) * m3 / m2 ** 1.5
  const g2 = n * m4 / (m2 * m2) - 3
  return {
    skewness_pop: g1,
    skewness_samp: g1 * Math.sqrt(n * (n - 1)) / (n - 2),
    kurtosis_pop: g2,
    kurtosis_samp: ((n - 1) / ((n - 2) * (n - 3))) * ((n + 1) * g2 + 6),
  }
}

const NAMES = ['skewness_pop', 'skewness_samp', 'kurtosis_pop', 'kurtosis_samp'] as const

t.test('one pass matches the two-pass reference', async (t) => {
  const xs = Array.from({ length: 1000 }, (_, i) => Math.sin(i * 0.37) * 100 + (i % 7) ** 3)
  const ref = reference(xs)
  for (const name of NAMES) {
    const got = one(name, ['DOUBLE'], [vec('DOUBLE', xs)]) as number
    t.ok(Math.abs(got - ref[name]!) < 1e-9 * Math.max(1, Math.abs(ref[name]!)), `${name}: ${got} vs ${ref[name]}`)
  }
})

t.test('merging partial results equals one pass (parallel shares)', async (t) => {
  const xs = Array.from({ length: 999 }, (_, i) => ((i * 7919) % 1013) / 10 - 30)
  for (const name of NAMES) {
    const whole = one(name, ['DOUBLE'], [vec('DOUBLE', xs)]) as number
    // three shares of uneven sizes, one empty, merged into a fresh kernel
    const cuts = [[0, 100], [100, 100], [100, 999]] as const
    const target = kernel(name, ['DOUBLE'])
    target.resize(1)
    for (const [lo, hi] of cuts) {
      const part = kernel(name, ['DOUBLE'])
      part.resize(1)
      part.updateOne(0, [vec('DOUBLE', xs.slice(lo, hi))], hi - lo)
      target.merge(part, Int32Array.of(0), Int32Array.of(0), 1)
    }
    const merged = results(target, 1)[0] as number
    t.ok(Math.abs(merged - whole) < 1e-9 * Math.max(1, Math.abs(whole)), `${name}: merged ${merged} vs one pass ${whole}`)
  }
})

t.test('non-finite values are skipped; too few or all-equal values give NULL', async (t) => {
  const xs = [1, NaN, 3, Infinity, 4, -Infinity]
  const ref = reference([1, 3, 4])
  t.ok(Math.abs((one('skewness_samp', ['DOUBLE'], [vec('DOUBLE', xs)]) as number) - ref.skewness_samp!) < 1e-12)
  t.equal(one('kurtosis_samp', ['DOUBLE'], [vec('DOUBLE', xs)]), null, 'kurtosis_samp needs 4 values')
  t.equal(one('skewness_samp', ['DOUBLE'], [vec('DOUBLE', [1, 2])]), null, 'skewness_samp needs 3 values')
  t.equal(one('kurtosis_pop', ['DOUBLE'], [vec('DOUBLE', [2, 2, 2, 2, 2])]), null, 'all equal')
  t.equal(one('skewness_pop', ['DOUBLE'], [vec('DOUBLE', [])]), null, 'no values')
})
