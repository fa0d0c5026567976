import t from 'tap'
import { keyed, kernel, one, results, vec } from './agg-harness.js'
import type { ColumnType } from '../../../../lib/types/column-type.js'
import type { Scalar } from '../../../../lib/types/vector.js'

t.test('sum over INT gives LONG and skips nulls', async (t) => {
  t.equal(one('sum', ['INT'], [vec('INT', [1, 2, null, 4])]), 7)
  t.equal(one('sum', ['INT'], [vec('INT', [null, null])]), null)
  t.equal(one('sum', ['INT'], [vec('INT', [])]), null)
  const big = Array.from({ length: 5_000_000 / 1000 }, () => 2147483647)
  t.equal(one('sum', ['INT'], [vec('INT', big)]), 2147483647 * big.length)
})

t.test('sum over LONG is exact past 2^53 and wraps like Java', async (t) => {
  t.equal(one('sum', ['LONG'], [vec('LONG', [9007199254740991, 9007199254740991, 5])]), 18014398509481987n)
  t.equal(one('sum', ['LONG'], [vec('LONG', [9223372036854775807n, 1])]), null) // wraps to -2^63, the null sentinel
  t.equal(one('sum', ['LONG'], [vec('LONG', [9223372036854775807n, 2])]), -9223372036854775807n)
  t.equal(one('sum', ['LONG'], [vec('LONG', [-9007199254740991, -9007199254740991, 7, null])]), -18014398509481975n)
  let acc = 0n
  const vals: number[] = []
  for (let i = 0; i < 1000; i++) { const x = 9007199254740000 - i * 7919; vals.push(x); acc += BigInt(x) }
  t.equal(one('sum', ['LONG'], [vec('LONG', vals)]), acc)
})

t.test('sum over DOUBLE skips NaN and infinities; FLOAT stays FLOAT', async (t) => {
  t.equal(one('sum', ['DOUBLE'], [vec('DOUBLE', [1.5, null, 2.5, Infinity])]), 4)
  t.equal(one('sum', ['DOUBLE'], [vec('DOUBLE', [null])]), null)
  t.equal(one('sum', ['FLOAT'], [vec('FLOAT', [0.1, 0.2])]), Math.fround(Math.fround(0.1) + Math.fround(0.2)))
})

t.test('keyed sum, avg, count', async (t) => {
  const g = [0, 1, 0, 2, 1, 0]
  t.same(keyed('sum', ['LONG'], g, [vec('LONG', [1, 10, 2, null, 20, 3])]), [6, 30, null])
  t.same(keyed('avg', ['DOUBLE'], g, [vec('DOUBLE', [1, 10, 2, null, 20, 3])]), [2, 15, null])
  t.same(keyed('count', [], g, []), [3, 2, 1])
  t.same(keyed('count', ['DOUBLE'], g, [vec('DOUBLE', [1, 10, 2, null, 20, 3])]), [3, 2, 0])
  t.same(keyed('count', ['STRING'], [0, 0, 1], [vec('STRING', ['a', null, null])]), [1, 0])
})

t.test('count of an empty non-keyed input is 0; avg is null', async (t) => {
  t.equal(one('count', [], []), 0)
  t.equal(one('avg', ['DOUBLE'], [vec('DOUBLE', [])]), null)
})

t.test('merge folds partial results', async (t) => {
  const a = kernel('sum', ['LONG'])
  const b = kernel('sum', ['LONG'])
  a.resize(2); b.resize(2)
  a.update(Int32Array.of(0, 1), [vec('LONG', [9007199254740991, 1])], 2)
  b.update(Int32Array.of(0, 1), [vec('LONG', [9007199254740991, 2])], 2)
  a.merge(b, Int32Array.of(0, 1), Int32Array.of(0, 1), 2)
  t.same(results(a, 2), [18014398509481982n, 3])
  const c = kernel('avg', ['DOUBLE'])
  const d = kernel('avg', ['DOUBLE'])
  c.resize(1); d.resize(1)
  c.updateOne(0, [vec('DOUBLE', [1, 2])], 2)
  d.updateOne(0, [vec('DOUBLE', [6])], 1)
  c.merge(d, Int32Array.of(0), Int32Array.of(0), 1)
  t.same(results(c, 1), [3])
})

t.test('constant arguments are expanded', async (t) => {
  const k = kernel('sum', ['INT'])
  k.resize(1)
  k.updateOne(0, [{ ...vec('INT', [3]), length: 4, isConst: true }], 4)
  t.same(results(k, 1), [12])
})

t.test('count(x) skips each type\'s own null, keyed and not', async (t) => {
  const g = [0, 1, 0, 2, 1, 0]
  const cases: [ColumnType, Scalar[], number[], number][] = [
    ['INT', [1, null, -2147483647, 0, null, 5], [3, 0, 1], 4],
    ['IPV4', [16909060, null, 1, -1, 167772161, null], [2, 1, 1], 4],
    ['LONG', [null, 1, 9007199254740991, null, -3, 0], [2, 2, 0], 4],
    ['TIMESTAMP', [0, null, null, 1, 2, 3], [2, 1, 1], 4],
    ['FLOAT', [1.5, null, 2, 3, null, 0], [3, 0, 1], 4],
    ['DOUBLE', [null, Infinity, 1, -Infinity, 2, 0], [2, 1, 0], 3],
    ['SHORT', [1, 2, 3, 4, 5, 6], [3, 2, 1], 6],
  ]
  for (const [type, values, byGroup, all] of cases) {
    t.same(keyed('count', [type], g, [vec(type, values)]), byGroup, `${type}: keyed`)
    t.equal(one('count', [type], [vec(type, values)]), all, `${type}: not keyed`)
  }
})

t.test('keyed count() and count(x) over every length 0..13 (the four-row steps and each tail) equal a row-by-row count', async (t) => {
  const values: Record<string, (i: number) => Scalar> = {
    INT: (i) => (i % 3 === 1 ? null : i - 5), IPV4: (i) => (i % 4 === 2 ? null : i + 1), LONG: (i) => (i % 5 === 0 ? null : i * 3),
    FLOAT: (i) => (i % 3 === 0 ? null : i / 2), DOUBLE: (i) => (i % 4 === 1 ? null : i % 7 === 3 ? Infinity : i / 4),
  }
  for (const [type, of] of Object.entries(values)) {
    for (let n = 0; n <= 13; n++) {
      const g = Array.from({ length: n }, (_, i) => (i * 5 + 1) % 3)
      const vs = Array.from({ length: n }, (_, i) => of(i))
      const want = [0, 0, 0]
      vs.forEach((v, i) => { if (v !== null && v !== Infinity) want[g[i]!]!++ })
      const got = n === 0 ? [] : keyed('count', [type as ColumnType], g, [vec(type as ColumnType, vs)])
      t.same(got, n === 0 ? [] : want.slice(0, Math.max(...g) + 1), `${type}, ${n} rows`)
    }
  }
  for (let n = 1; n <= 13; n++) {
    const g = Array.from({ length: n }, (_, i) => (i * 5 + 1) % 3)
    const want = [0, 0, 0]
    for (const x of g) want[x]!++
    t.same(keyed('count', [], g, []), want.slice(0, Math.max(...g) + 1), `count(), ${n} rows`)
  }
})

t.test('avg of INT and LONG reads the integers: nulls skipped, keyed and not, each value as its cast to DOUBLE', async (t) => {
  // lengths 1..9 cover the four-row steps and every tail
  for (let n = 1; n <= 9; n++) {
    const ints = Array.from({ length: n }, (_, i) => (i % 3 === 1 ? null : i * 1000 - 2147483647 + 1))
    // sums exact as doubles, so every order of addition gives the same bits
    const longs = Array.from({ length: n }, (_, i) => (i % 4 === 2 ? null : 1099511627776 * (i + 1) - i * 3))
    for (const [type, values] of [['INT', ints], ['LONG', longs]] as [ColumnType, (number | null)[]][]) {
      const kept = values.filter((x): x is number => x !== null)
      const want = kept.length === 0 ? null : kept.reduce((a, b) => a + b, 0) / kept.length
      const got = one('avg', [type], [vec(type, values)])
      t.ok(got === null ? want === null : Math.abs((got as number) - want!) <= Math.abs(want!) * 1e-15, `${type} x${n}: ${got} vs ${want}`)
      t.same(keyed('avg', [type], values.map(() => 0), [vec(type, values)]), [got], `${type} x${n}: keyed equals not keyed`)
    }
  }
  t.equal(one('avg', ['LONG'], [vec('LONG', [null, null, null, null, null])]), null)
  t.equal(one('avg', ['INT'], [vec('INT', [null])]), null)
  // LONG values past 2^53 (held as BigInt): as their doubles
  t.equal(one('avg', ['LONG'], [vec('LONG', [4611686018427387904n, null, 4611686018427387904n, -4611686018427387904n])]), 4611686018427387904 / 3)
})

t.test('not keyed: sums of doubles in four runs equal the exact sum where it is representable; LONG sums stay exact across the 2^52 carry in every run', async (t) => {
  const xs = Array.from({ length: 1003 }, (_, i) => (i % 17 === 0 ? null : (i * 7919) % 10007 - 5000))
  const exact = xs.reduce<number>((a, b) => a + (b ?? 0), 0)
  t.equal(one('sum', ['DOUBLE'], [vec('DOUBLE', xs)]), exact)
  t.equal(one('avg', ['DOUBLE'], [vec('DOUBLE', xs)]), exact / xs.filter((x) => x !== null).length)
  // each of the four runs passes 2^52 several times; one null per 13 rows
  const big = Array.from({ length: 1001 }, (_, i) => (i % 13 === 5 ? null : (i % 2 === 0 ? 1 : -1) * (9007199254740991 - i * 104729)))
  const bigExact = big.reduce<bigint>((a, b) => a + BigInt(b ?? 0), 0n)
  const same = Array.from({ length: 1001 }, (_, i) => (i % 13 === 5 ? null : 4503599627370495 + i))
  const sameExact = same.reduce<bigint>((a, b) => a + BigInt(b ?? 0), 0n)
  const asScalar = (b: bigint): number | bigint => (b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b)
  t.equal(one('sum', ['LONG'], [vec('LONG', big)]), asScalar(bigExact))
  t.equal(one('sum', ['LONG'], [vec('LONG', same)]), asScalar(sameExact))
  const ints = Array.from({ length: 999 }, (_, i) => (i % 7 === 0 ? null : 2147483647 - i))
  t.equal(one('sum', ['INT'], [vec('INT', ints)]), ints.reduce<number>((a, b) => a + (b ?? 0), 0))
})

t.test('keyed LONG and INT sums stay exact per group across the 2^52 carry, through a merge, with an all-null group', async (t) => {
  const asScalar = (b: bigint): Scalar => {
    const w = BigInt.asIntN(64, b)
    return w >= -9007199254740991n && w <= 9007199254740991n ? Number(w) : w
  }
  const n = 3000
  const groups = Int32Array.from({ length: n }, (_, i) => (i * 7) % 5)
  // group 3 holds only nulls; groups 0..2 and 4 mix large values of both signs, exact and not safe
  const longs: Scalar[] = Array.from({ length: n }, (_, i) => {
    const g = groups[i]!
    if (g === 3 || i % 11 === 4) return null
    if (g === 4 && i % 17 === 0) return 9223372036854775807n - BigInt(i)
    return (g % 2 === 0 ? 1 : -1) * (9007199254740991 - i * 104729)
  })
  const ints: Scalar[] = Array.from({ length: n }, (_, i) => (groups[i] === 3 || i % 13 === 1 ? null : (i % 2 === 0 ? 2147483647 - i : -2147483647 + i)))
  for (const [type, values] of [['LONG', longs], ['INT', ints]] as [ColumnType, Scalar[]][]) {
    const want = [0n, 0n, 0n, 0n, 0n]
    const seen = [false, false, false, false, false]
    values.forEach((x, i) => { if (x !== null) { want[groups[i]!]! += BigInt(x as number | bigint); seen[groups[i]!] = true } })
    const expected = want.map((b, g) => (seen[g] ? asScalar(b) : null))
    t.same(keyed('sum', [type], Array.from(groups), [vec(type, values)]), expected, `${type}: one kernel`)
    // split in two halves summed apart, the second merged into the first under permuted group ids
    const a = kernel('sum', [type])
    const b = kernel('sum', [type])
    a.resize(5); b.resize(5)
    const h = n / 2
    a.update(groups.slice(0, h), [vec(type, values.slice(0, h))], h)
    b.update(groups.slice(h).map((g) => 4 - g), [vec(type, values.slice(h))], n - h)
    a.merge(b, Int32Array.of(0, 1, 2, 3, 4), Int32Array.of(4, 3, 2, 1, 0), 5)
    t.same(results(a, 5), expected, `${type}: merged halves`)
  }
})
