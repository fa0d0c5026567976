import t, { type Test } from 'tap'
import { kernel, keyed, one, results, vec } from './agg-harness.js'

const close = (t: Test, a: unknown, b: number, msg?: string) => t.ok(Math.abs((a as number) - b) < 1e-9 * Math.max(1, Math.abs(b)), `${msg ?? ''} ${String(a)} ~ ${b}`)

t.test('variance and standard deviation', async (t) => {
  const v = vec('DOUBLE', [2, 4, 4, 4, 5, 5, 7, 9, null])
  close(t, one('var_pop', ['DOUBLE'], [v]), 4)
  close(t, one('stddev_pop', ['DOUBLE'], [v]), 2)
  close(t, one('var_samp', ['DOUBLE'], [v]), 32 / 7)
  close(t, one('variance', ['DOUBLE'], [v]), 32 / 7)
  close(t, one('stddev', ['DOUBLE'], [v]), Math.sqrt(32 / 7))
  t.equal(one('stddev_samp', ['DOUBLE'], [vec('DOUBLE', [1])]), null)
  t.equal(one('var_pop', ['DOUBLE'], [vec('DOUBLE', [])]), null)
  // numerically careful: large offset
  close(t, one('var_samp', ['DOUBLE'], [vec('DOUBLE', [1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16])]), 30)
})

t.test('variance merge equals single pass', async (t) => {
  const a = kernel('var_samp', ['DOUBLE'])
  const b = kernel('var_samp', ['DOUBLE'])
  a.resize(1); b.resize(1)
  a.updateOne(0, [vec('DOUBLE', [2, 4, 4, 4])], 4)
  b.updateOne(0, [vec('DOUBLE', [5, 5, 7, 9])], 4)
  a.merge(b, Int32Array.of(0), Int32Array.of(0), 1)
  close(t, results(a, 1)[0], 32 / 7)
})

t.test('covariance and correlation', async (t) => {
  const y = vec('DOUBLE', [1, 2, 3, 4, null])
  const x = vec('DOUBLE', [2, 4, 6, 8, 10])
  close(t, one('covar_pop', ['DOUBLE', 'DOUBLE'], [y, x]), 2.5)
  close(t, one('covar_samp', ['DOUBLE', 'DOUBLE'], [y, x]), 10 / 3)
  close(t, one('corr', ['DOUBLE', 'DOUBLE'], [y, x]), 1)
  close(t, one('corr', ['DOUBLE', 'DOUBLE'], [vec('DOUBLE', [1, 2, 3]), vec('DOUBLE', [3, 2, 1])]), -1)
})

t.test('ksum and nsum compensate rounding', async (t) => {
  const vals = [1e16, 1, -1e16, ...Array.from({ length: 10 }, () => 0.1)]
  close(t, one('nsum', ['DOUBLE'], [vec('DOUBLE', vals)]), 2)
  const tenths = vec('DOUBLE', Array.from({ length: 10 }, () => 0.1))
  t.equal(one('ksum', ['DOUBLE'], [tenths]), 1)
  t.equal(one('nsum', ['DOUBLE'], [tenths]), 1)
  t.equal(one('ksum', ['DOUBLE'], [vec('DOUBLE', [null])]), null)
})

t.test('count_distinct, string_agg, bool_and, bool_or', async (t) => {
  t.same(keyed('count_distinct', ['SYMBOL'], [0, 0, 0, 1], [vec('SYMBOL', ['a', 'b', 'a', null])]), [2, 0])
  t.equal(one('count_distinct', ['LONG'], [vec('LONG', [1, 2, 2, null, 9223372036854775807n])]), 3)
  t.equal(one('approx_count_distinct', ['DOUBLE'], [vec('DOUBLE', [1, 1, 2])]), 2)
  t.same(keyed('string_agg', ['STRING', 'STRING'], [0, 1, 0, 0], [vec('STRING', ['a', 'b', null, 'c'])], [undefined as never, ',']), ['a,c', 'b'])
  t.equal(one('string_agg', ['STRING', 'STRING'], [vec('STRING', [null])], [undefined as never, ',']), null)
  t.same(keyed('bool_and', ['BOOLEAN'], [0, 0, 1, 1], [vec('BOOLEAN', [true, false, true, true])]), [false, true])
  t.same(keyed('bool_or', ['BOOLEAN'], [0, 0, 1, 1], [vec('BOOLEAN', [false, false, true, false])]), [false, true])
})
