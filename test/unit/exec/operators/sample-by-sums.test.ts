/**
 * Several DOUBLE sum/avg aggregates of a SAMPLE BY folded together (exec/operators/sample-by-sums.ts)
 * give bit-for-bit what each kernel gives alone: directly on the kernels, and through SQL against
 * the same aggregates one per query (a lone aggregate is never fused).
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { DoubleSumKernel } from '../../../../lib/functions/aggregate/double-sum.js'
import { MinMaxKernel } from '../../../../lib/functions/aggregate/min-max.js'
import { addDoubleSums, fusableSums } from '../../../../lib/exec/operators/sample-by-sums.js'
import type { Vector } from '../../../../lib/types/vector.js'

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296 }
}

const f64 = (data: Float64Array): Vector => ({ kind: 'f64', type: 'DOUBLE', length: data.length, data } as Vector)

t.test('folded together, each kernel ends where it would alone', async (t) => {
  const r = rng(7)
  const n = 5000
  const groups = Int32Array.from({ length: n }, () => Math.floor(r() * 37))
  const cols = Array.from({ length: 7 }, (_, c) => Float64Array.from({ length: n }, () => (r() < 0.05 * c ? (r() < 0.5 ? NaN : Infinity) : Math.round(r() * 1e4) / 100)))
  const make = (): DoubleSumKernel[] => cols.map((_, c) => new DoubleSumKernel(c % 2 === 0 ? 'avg' : 'sum'))
  const fused = make()
  const alone = make()
  const other = new MinMaxKernel(true, 'DOUBLE')
  const kernels = [...fused, other]
  t.same(fusableSums(kernels), [0, 1, 2, 3, 4, 5, 6], 'the DOUBLE sums and avgs, not the other kernel')
  t.equal(fusableSums([new DoubleSumKernel('avg'), new DoubleSumKernel('sum', 'FLOAT')]), undefined, 'one DOUBLE kernel alone is not fused')
  for (const k of [...kernels, ...alone]) k.resize(37)
  const args = cols.map((d) => [f64(d)])
  const done = addDoubleSums(kernels, [0, 1, 2, 3, 4, 5, 6], args, groups, n)
  t.same([...done].sort(), [0, 1, 2, 3, 4, 5, 6])
  alone.forEach((k, c) => k.update(groups, args[c]!, n))
  fused.forEach((k, c) => {
    t.same(Array.from(k.sum.subarray(0, 37)), Array.from(alone[c]!.sum.subarray(0, 37)), `sums of column ${c}`)
    t.same(Array.from(k.count.subarray(0, 37)), Array.from(alone[c]!.count.subarray(0, 37)), `counts of column ${c}`)
  })
  const constArg = [{ kind: 'f64', type: 'DOUBLE', length: n, data: Float64Array.of(1), isConst: true } as Vector]
  t.same([...addDoubleSums(kernels, [0, 1], [constArg, args[1]!], groups, n)], [1], 'a constant argument is left to its kernel')
})

t.test('SAMPLE BY with several sums and avgs answers as the aggregates one at a time do', async (t) => {
  const db = await Database.open()
  await db.query('create table t (k symbol, a double, b double, c double, f float, ts timestamp) timestamp(ts) partition by day')
  const r = rng(3)
  const n = 20_000
  await db.append('t', {
    k: Array.from({ length: n }, (_, i) => `k${i % 13}`),
    a: Float64Array.from({ length: n }, () => (r() < 0.1 ? NaN : r() * 100)),
    b: Float64Array.from({ length: n }, () => r() * 1e6 - 5e5),
    c: Float64Array.from({ length: n }, () => Math.round(r() * 1e4) / 100),
    f: Float64Array.from({ length: n }, () => r()),
    ts: Float64Array.from({ length: n }, (_, i) => Date.UTC(2024, 0, 1) * 1000 + i * 7_000_000),
  })
  const aggs = ['avg(a)', 'sum(b)', 'max(c)', 'avg(c)', 'sum(f)', 'sum(a)', 'avg(b)']
  for (const keyed of [true, false]) {
    const key = keyed ? 'k, ' : ''
    const all = (await db.query(`select ts, ${key}${aggs.join(', ')} from t sample by 1h`)).rows
    const w = keyed ? 2 : 1
    for (let j = 0; j < aggs.length; j++) {
      const one = (await db.query(`select ts, ${key}${aggs[j]} from t sample by 1h`)).rows
      t.same(all.map((row) => [...row.slice(0, w), row[w + j]]), one, `${keyed ? 'keyed' : 'not keyed'}: ${aggs[j]}`)
    }
  }
  await db.close()
})
