import t from 'tap'
import { keyed, one, vec } from './agg-harness.js'

t.test('min/max over numbers, skipping nulls', async (t) => {
  t.equal(one('min', ['INT'], [vec('INT', [5, null, -3, 8])]), -3)
  t.equal(one('max', ['INT'], [vec('INT', [5, null, -3, 8])]), 8)
  t.equal(one('max', ['DOUBLE'], [vec('DOUBLE', [null, 2.5, NaN, -1])]), 2.5)
  t.equal(one('min', ['DOUBLE'], [vec('DOUBLE', [null])]), null)
  t.equal(one('min', ['FLOAT'], [vec('FLOAT', [1.5, 0.25])]), 0.25)
  t.same(keyed('max', ['LONG'], [0, 1, 0, 1], [vec('LONG', [1, null, 7, null])]), [7, null])
})

t.test('min/max over timestamps, chars, IPv4, strings, big longs', async (t) => {
  t.equal(one('min', ['TIMESTAMP'], [vec('TIMESTAMP', [1_700_000_000_000_000, null, 1_600_000_000_000_000])]), 1_600_000_000_000_000)
  t.equal(one('max', ['CHAR'], [vec('CHAR', ['a', null, 'z', 'q'])]), 'z')
  t.equal(one('max', ['IPV4'], [vec('IPV4', [0x01020304, 0xff000001, null])]), 0xff000001)
  t.equal(one('min', ['STRING'], [vec('STRING', ['pear', null, 'apple', 'zoo'])]), 'apple')
  t.equal(one('max', ['VARCHAR'], [vec('VARCHAR', ['pear', null, 'apple', 'zoo'])]), 'zoo')
  t.equal(one('max', ['LONG'], [vec('LONG', [5, 9223372036854775807n, null])]), 9223372036854775807n)
  t.equal(one('min', ['LONG'], [vec('LONG', [5, 9223372036854775807n, -9007199254740993n])]), -9007199254740993n)
})

t.test('first/last keep nulls, *_not_null skip them', async (t) => {
  const g = [0, 0, 0, 1, 1]
  const v = vec('DOUBLE', [null, 2, 3, 4, null])
  t.same(keyed('first', ['DOUBLE'], g, [v]), [null, 4])
  t.same(keyed('last', ['DOUBLE'], g, [v]), [3, null])
  t.same(keyed('first_not_null', ['DOUBLE'], g, [v]), [2, 4])
  t.same(keyed('last_not_null', ['DOUBLE'], g, [v]), [3, 4])
  t.same(keyed('first', ['SYMBOL'], [0, 1, 0], [vec('SYMBOL', ['a', 'b', 'c'])]), ['a', 'b'])
  t.same(keyed('last', ['STRING'], [0, 1, 0], [vec('STRING', ['a', 'b', null])]), [null, 'b'])
  t.same(keyed('last_not_null', ['TIMESTAMP'], [0, 0], [vec('TIMESTAMP', [10, null])]), [10])
  t.same(keyed('first', ['LONG'], [0, 0], [vec('LONG', [9223372036854775807n, 1])]), [9223372036854775807n])
  t.equal(one('first', ['INT'], [vec('INT', [])]), null)
  t.equal(one('last', ['BOOLEAN'], [vec('BOOLEAN', [false, true])]), true)
})
