import t, { type Test } from 'tap'
import { FusedDoubleSums, MAX_FUSED, fuseDoubleSums, isFusableDoubleSum } from '../../../../lib/functions/aggregate/fused-double-sums.js'
import type { DoubleSumKernel } from '../../../../lib/functions/aggregate/double-sum.js'
import type { AggregateKernel } from '../../../../lib/functions/registry-types.js'
import { type Vector, vectorOf } from '../../../../lib/types/vector.js'
import { kernel, results, vec } from './agg-harness.js'

/** A seeded generator (xorshift), so a failure reproduces. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 2 ** 32 }
}

/** Random doubles with nulls (NaN), ±Infinity, -0 and values whose sums round. */
function values(r: () => number, n: number): number[] {
  return Array.from({ length: n }, () => {
    const p = r()
    if (p < 0.05) return NaN
    if (p < 0.07) return r() < 0.5 ? Infinity : -Infinity
    if (p < 0.08) return -0
    return p < 0.5 ? Math.round(r() * 10000) / 100 : (r() - 0.5) * 1e12 * r()
  })
}

const f64 = (xs: number[]): Vector => vectorOf('DOUBLE', Float64Array.from(xs), xs.length)

/** The same batches through per-aggregate kernels and through one fused set; results must be identical. */
function compare(t: Test, names: string[], batches: { groups: number[]; cols: number[][] }[], one = false): void {
  const plain = names.map((n) => kernel(n, ['DOUBLE']))
  const members = names.map((n) => kernel(n, ['DOUBLE']) as DoubleSumKernel)
  const fused = new FusedDoubleSums(members)
  let count = 0
  for (const b of batches) {
    count = Math.max(count, ...b.groups.map((g) => g + 1))
    const args = b.cols.map(f64)
    plain.forEach((k, a) => {
      k.resize(count)
      if (one) k.updateOne(b.groups[0]!, [args[a]!], b.groups.length)
      else k.update(Int32Array.from(b.groups), [args[a]!], b.groups.length)
    })
    fused.resize(count)
    if (one) fused.updateOne(b.groups[0]!, args, b.groups.length)
    else fused.update(Int32Array.from(b.groups), args, b.groups.length)
  }
  fused.settle()
  names.forEach((n, a) => {
    members[a]!.resize(count)
    plain[a]!.resize(count)
    // Object.is: the same bits, -0 and null (NaN) included
    const want = results(plain[a]!, count)
    const got = results(members[a]!, count)
    t.ok(got.every((x, g) => Object.is(x, want[g])), `${n} #${a}: ${JSON.stringify(got.slice(0, 8))} vs ${JSON.stringify(want.slice(0, 8))}`)
  })
}


t.test('fused avg/sum equal the per-aggregate kernels bit for bit (random groups, nulls, infinities, several batches)', async (t) => {
  const r = rng(42)
  for (const n of [2, 3, 10, MAX_FUSED]) {
    const names = Array.from({ length: n }, (_, a) => (a % 3 === 1 ? 'sum' : 'avg'))
    const batches = Array.from({ length: 3 }, (_, b) => {
      const len = b === 1 ? 0 : 200 + Math.floor(r() * 300)
      // groups 0..49, but group 37 never gets a row (an empty group reads as null)
      const groups = Array.from({ length: len }, () => { const g = Math.floor(r() * 50); return g === 37 ? 36 : g })
      return { groups, cols: names.map(() => values(r, len)) }
    })
    compare(t, names, batches)
  }
})

t.test('a group whose values are all null is null; an all-null column leaves the others alone', async (t) => {
  const groups = [0, 1, 0, 1, 2]
  compare(t, ['avg', 'avg', 'sum'], [{ groups, cols: [[NaN, 1, NaN, 3, NaN], [NaN, NaN, NaN, NaN, NaN], [1, NaN, 2, Infinity, 5]] }])
  const a = kernel('avg', ['DOUBLE']) as DoubleSumKernel
  const b = kernel('avg', ['DOUBLE']) as DoubleSumKernel
  const f = new FusedDoubleSums([a, b])
  f.resize(3)
  f.update(Int32Array.from(groups), [f64([NaN, 1, NaN, 3, NaN]), f64([2, 4, 6, 8, -Infinity])], 5)
  f.settle()
  t.same(results(a, 3), [null, 2, null])
  t.same(results(b, 3), [4, 6, null])
})

t.test('the non-keyed path (updateOne) equals the kernels', async (t) => {
  const r = rng(7)
  const batches = Array.from({ length: 4 }, () => ({ groups: new Array<number>(300).fill(2), cols: [values(r, 300), values(r, 300), values(r, 300)] }))
  compare(t, ['avg', 'sum', 'avg'], batches, true)
})

t.test('constant and FLOAT arguments are expanded and widened', async (t) => {
  const a = kernel('avg', ['DOUBLE']) as DoubleSumKernel
  const b = kernel('sum', ['DOUBLE']) as DoubleSumKernel
  const f = new FusedDoubleSums([a, b])
  f.resize(2)
  const constant: Vector = { ...vectorOf('DOUBLE', Float64Array.of(2.5), 4), isConst: true }
  f.update(Int32Array.of(0, 1, 1, 0), [constant, vec('FLOAT', [0.5, 1.5, null, 0.25])], 4)
  f.settle()
  t.same(results(a, 2), [2.5, 2.5])
  t.same(results(b, 2), [0.75, 1.5])
})

t.test('fuseDoubleSums fuses two or more avg/sum(double) and leaves the rest', async (t) => {
  const ks: AggregateKernel[] = [kernel('avg', ['DOUBLE']), kernel('max', ['DOUBLE']), kernel('sum', ['DOUBLE']), kernel('sum', ['FLOAT']), kernel('count', [])]
  t.ok(isFusableDoubleSum(ks[0]!))
  t.notOk(isFusableDoubleSum(ks[3]!), 'sum(float) accumulates in float precision')
  const { fused, rest } = fuseDoubleSums(ks)
  t.same(fused.map((f) => f.of), [[0, 2]])
  t.same(rest, [1, 3, 4])
  t.same(fuseDoubleSums([ks[0]!, ks[1]!]).fused, [], 'one alone stays with its own kernel')
  const many = Array.from({ length: MAX_FUSED + 1 }, () => kernel('avg', ['DOUBLE']))
  const split = fuseDoubleSums(many)
  t.same(split.fused.map((f) => f.of.length), [MAX_FUSED])
  t.same(split.rest, [MAX_FUSED], 'the one left over past MAX_FUSED runs alone')
  t.throws(() => new FusedDoubleSums([]), RangeError)
})
