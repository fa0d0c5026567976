import t from 'tap'
import { type ArrVector, arrSlice } from '../../../../lib/types/array-vector.js'
import { avgRows, countRows, maxRows, minRows, reduceBatch, sumRows } from '../../../../lib/functions/scalar/array-reductions.js'
import { run } from './helpers.js'

// Reference per-row semantics (the kernels before the batch rewrite): non-finite elements are
// skipped; sum of none is 0; avg/max/min of none are null (NaN); count counts finite elements.
const finite = (xs: number[]): number[] => xs.filter((x) => Number.isFinite(x))
const REF = {
  sum: (xs: number[]) => finite(xs).reduce((s, x) => s + x, 0),
  avg: (xs: number[]) => { const f = finite(xs); return f.length === 0 ? NaN : f.reduce((s, x) => s + x, 0) / f.length },
  max: (xs: number[]) => { let r = NaN; for (const x of finite(xs)) if (Number.isNaN(r) || x > r) r = x; return r },
  min: (xs: number[]) => { let r = NaN; for (const x of finite(xs)) if (Number.isNaN(r) || x < r) r = x; return r },
  count: (xs: number[]) => finite(xs).length,
}

/** An array vector of `dims` dimensions from rows (null = null array), each row's extents given. */
function arr(dims: number, rows: readonly ({ shape: number[]; values: number[] } | null)[]): ArrVector {
  const data: number[] = []
  const offsets = [0]
  const shapes: number[] = []
  for (const r of rows) {
    if (r === null) shapes.push(-1, ...Array(dims - 1).fill(0))
    else { shapes.push(...r.shape); data.push(...r.values) }
    offsets.push(data.length)
  }
  return { kind: 'arr', type: dims === 1 ? 'DOUBLE[]' : 'DOUBLE[][]', length: rows.length, data: Float64Array.from(data), offsets: Int32Array.from(offsets), shapes: Int32Array.from(shapes), dims }
}

// deterministic generator: null arrays, empty arrays, NaN, ±Infinity, -0, 1-D and 2-D rows
let seed = 12345
const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 }
function element(): number {
  const p = rnd()
  if (p < 0.08) return NaN
  if (p < 0.11) return Infinity
  if (p < 0.14) return -Infinity
  if (p < 0.17) return -0
  return (rnd() - 0.5) * 1e6
}
function rows(dims: number, n: number): ({ shape: number[]; values: number[] } | null)[] {
  return Array.from({ length: n }, () => {
    if (rnd() < 0.1) return null
    const shape = Array.from({ length: dims }, () => Math.floor(rnd() * (rnd() < 0.15 ? 1 : 5)))
    const len = shape.reduce((a, b) => a * b, 1)
    return { shape, values: Array.from({ length: len }, element) }
  })
}

const same = (a: number, b: number): boolean => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b))

for (const dims of [1, 2, 3]) {
  t.test(`batch kernels equal the per-row reference, ${dims}-D, with views`, async (t) => {
    const src = rows(dims, 500)
    const whole = arr(dims, src)
    // a view starting mid-vector: offsets do not start at 0
    for (const [from, to] of [[0, 500], [37, 401], [499, 500], [10, 10]] as const) {
      const v = arrSlice(whole, from, to)
      const want = src.slice(from, to)
      const n = to - from
      for (const [name, kernel] of [['sum', sumRows], ['avg', avgRows], ['max', maxRows], ['min', minRows]] as const) {
        const out = reduceBatch(v, n, new Float64Array(n).fill(NaN), kernel)
        const bad = want.findIndex((r, i) => !same(out[i]!, r === null ? NaN : REF[name](r.values)))
        t.equal(bad, -1, `${name} rows ${from}..${to}`)
      }
      const counts = reduceBatch(v, n, new Int32Array(n).fill(-2147483648), countRows)
      t.same([...counts], want.map((r) => r === null ? -2147483648 : REF.count(r.values)), `count rows ${from}..${to}`)
    }
  })
}

t.test('a constant array is reduced once and repeated; a constant null stays null', async (t) => {
  const one = { ...arr(2, [{ shape: [2, 2], values: [1, NaN, 2.5, Infinity] }]), isConst: true }
  t.same([...reduceBatch(one, 3, new Float64Array(3).fill(NaN), sumRows)], [3.5, 3.5, 3.5])
  t.same([...reduceBatch(one, 3, new Int32Array(3), countRows)], [2, 2, 2])
  const nul = { ...arr(1, [null]), isConst: true }
  t.ok([...reduceBatch(nul, 2, new Float64Array(2).fill(NaN), maxRows)].every(Number.isNaN))
  t.same([...reduceBatch(one, 0, new Float64Array(0), sumRows)], [])
})

t.test('empty arrays: sum 0, count 0, avg/max/min null', async (t) => {
  const v = arr(1, [{ shape: [0], values: [] }, { shape: [3], values: [NaN, NaN, NaN] }])
  t.same([...reduceBatch(v, 2, new Float64Array(2).fill(NaN), sumRows)], [0, 0])
  t.same([...reduceBatch(v, 2, new Int32Array(2), countRows)], [0, 0])
  for (const k of [avgRows, maxRows, minRows]) t.ok([...reduceBatch(v, 2, new Float64Array(2).fill(NaN), k)].every(Number.isNaN))
})

t.test('the registered array_* functions go through the batch kernels', async (t) => {
  const v = arr(1, [{ shape: [3], values: [1, -2, NaN] }, null, { shape: [0], values: [] }])
  t.same(run('array_sum', [v]), [-1, null, 0])
  t.same(run('array_avg', [v]), [-0.5, null, null])
  t.same(run('array_max', [v]), [1, null, null])
  t.same(run('array_min', [v]), [-2, null, null])
  t.same(run('array_count', [v]), [2, null, 0])
})
