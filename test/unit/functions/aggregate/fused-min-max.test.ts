/**
 * `min(c), max(c)` fed by one loop (lib/functions/aggregate/fused-min-max.ts) against the two
 * kernels fed apart: random batches of DECIMAL(18,4) (nulls, values past 2^53 switching a kernel
 * to its exact mode mid-stream), DOUBLE (NaN, ±Infinity), LONG (nulls, values past 2^53) and INT
 * (a layout the loop leaves to the kernels), keyed and not, then which aggregates are paired, and
 * the SQL answers against a reference computed here.
 */
import t from 'tap'
import { FusedMinMax, pairMinMax } from '../../../../lib/functions/aggregate/fused-min-max.js'
import { DecimalMinMaxKernel } from '../../../../lib/functions/aggregate/decimal-min-max-kernel.js'
import { MinMaxKernel } from '../../../../lib/functions/aggregate/min-max.js'
import type { AggregateKernel } from '../../../../lib/functions/registry-types.js'
import type { BoundAggregate, BoundExpr } from '../../../../lib/plan/plan-node.js'
import { getScalar, type Vector } from '../../../../lib/types/vector.js'
import type { ColumnType } from '../../../../lib/types/column-type.js'
import { Database } from '../../../../lib/index.js'
import { PARALLELISM } from '../../../../lib/exec/parallel/pool.js'
import { PHYSICAL_TUNING } from '../../../../lib/plan/physical/index.js'
import { kernel, vec } from './agg-harness.js'

/** A small deterministic generator (xorshift), so a failure reproduces. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296 }
}

const NULL64 = -9223372036854775808

/** One batch of `n` values of `type`, as the storage lays it out; `wide` puts a value past 2^53 in it (a BigInt64Array). */
function batch(r: () => number, type: ColumnType, n: number, wide: boolean): Vector {
  if (type === 'DOUBLE') {
    const d = new Float64Array(n)
    for (let i = 0; i < n; i++) { const u = r(); d[i] = u < 0.05 ? NaN : u < 0.07 ? Infinity : u < 0.09 ? -Infinity : (r() - 0.5) * 1e6 }
    return { kind: 'f64', type, length: n, data: d }
  }
  if (type === 'INT') {
    const d = new Int32Array(n)
    for (let i = 0; i < n; i++) d[i] = r() < 0.05 ? -2147483648 : Math.floor((r() - 0.5) * 1e9)
    return { kind: 'i32', type, length: n, data: d }
  }
  if (!wide) {
    const d = new Float64Array(n)
    for (let i = 0; i < n; i++) d[i] = r() < 0.05 ? NULL64 : Math.floor((r() - 0.5) * 2e12)
    return { kind: 'i64', type, length: n, data: d }
  }
  const d = new BigInt64Array(n)
  for (let i = 0; i < n; i++) {
    const u = r()
    d[i] = u < 0.05 ? -9223372036854775808n : u < 0.3 ? (r() < 0.5 ? -1n : 1n) * (10n ** 17n + BigInt(Math.floor(r() * 1e9))) : BigInt(Math.floor((r() - 0.5) * 2e12))
  }
  return { kind: 'i64', type, length: n, data: d }
}

const scalars = (k: AggregateKernel, count: number): unknown[] => {
  const v = k.result(count)
  return Array.from({ length: count }, (_, i) => { const s = getScalar(v, i); return typeof s === 'bigint' ? s.toString() : s })
}

for (const type of ['DECIMAL(18,4)', 'DOUBLE', 'LONG', 'INT'] as const) {
  for (const keyed of [true, false]) {
    t.test(`${type}, ${keyed ? 'keyed' : 'not keyed'}: fused min/max answer as the kernels apart`, async (t) => {
      for (let seed = 1; seed <= 6; seed++) {
        const r = rng(seed * 7 + (keyed ? 1 : 0))
        const make = (): [AggregateKernel, AggregateKernel] => [kernel('min', [type]), kernel('max', [type])]
        const [min, max] = make(), [lo, hi] = make()
        const fused = new FusedMinMax(min as DecimalMinMaxKernel, max as DecimalMinMaxKernel)
        const groups = 1 + Math.floor(r() * 40)
        // seeds 5 and 6: a batch with a value past 2^53 arrives mid-stream (the kernels' exact mode)
        for (let b = 0; b < 8; b++) {
          const n = Math.floor(r() * 3000)
          const v = batch(r, type, n, seed >= 5 && b === 3 && (type === 'DECIMAL(18,4)' || type === 'LONG'))
          if (keyed) {
            const g = new Int32Array(n)
            for (let i = 0; i < n; i++) g[i] = Math.floor(r() * groups)
            fused.resize(groups)
            fused.update(g, [v], n)
            lo.resize(groups); hi.resize(groups)
            lo.update(g, [v], n); hi.update(g, [v], n)
          } else {
            fused.updateOne(0, [v], n)
            lo.resize(1); hi.resize(1)
            lo.updateOne(0, [v], n); hi.updateOne(0, [v], n)
          }
        }
        const count = keyed ? groups : 1
        t.same(scalars(min, count), scalars(lo, count), `seed ${seed}: min`)
        t.same(scalars(max, count), scalars(hi, count), `seed ${seed}: max`)
      }
    })
  }
}

t.test('all-null batches leave the groups empty', async (t) => {
  const min = new DecimalMinMaxKernel(false, 'DECIMAL(18,4)'), max = new DecimalMinMaxKernel(true, 'DECIMAL(18,4)')
  const f = new FusedMinMax(min, max)
  f.updateOne(0, [{ kind: 'i64', type: 'DECIMAL(18,4)', length: 5, data: new Float64Array(5).fill(NULL64) }], 5)
  f.resize(2)
  f.update(Int32Array.of(1, 1), [{ kind: 'i64', type: 'DECIMAL(18,4)', length: 2, data: new Float64Array(2).fill(NULL64) }], 2)
  t.same(scalars(min, 2), [null, null])
  t.same(scalars(max, 2), [null, null])
  const dmin = new MinMaxKernel(false, 'DOUBLE'), dmax = new MinMaxKernel(true, 'DOUBLE')
  new FusedMinMax(dmin, dmax).updateOne(0, [vec('DOUBLE', [NaN, Infinity, -Infinity, null])], 4)
  t.same(scalars(dmin, 1), [null], "DOUBLE: NaN and ±Infinity are nulls")
  t.same(scalars(dmax, 1), [null])
})

t.test('pairs: a min and a max over the same column only', async (t) => {
  const col = (index: number, type: ColumnType): BoundExpr => ({ kind: 'column', type, index })
  const agg = (name: string, arg: BoundExpr): BoundAggregate => ({ args: [arg], def: { name } } as unknown as BoundAggregate)
  const aggs = [
    agg('max', col(1, 'DOUBLE')), agg('min', col(2, 'DOUBLE')), agg('min', col(1, 'DOUBLE')), agg('sum', col(1, 'DOUBLE')),
    agg('max', col(2, 'DOUBLE')), agg('min', { kind: 'const', type: 'DOUBLE', value: 1 }), agg('max', { kind: 'const', type: 'DOUBLE', value: 1 }),
    agg('max', col(3, 'DECIMAL(18,4)')), agg('min', col(3, 'DECIMAL(18,4)')), agg('max', col(1, 'DOUBLE')),
  ]
  const kernels = [
    kernel('max', ['DOUBLE']), kernel('min', ['DOUBLE']), kernel('min', ['DOUBLE']), kernel('sum', ['DOUBLE']),
    kernel('max', ['DOUBLE']), kernel('min', ['DOUBLE']), kernel('max', ['DOUBLE']),
    kernel('max', ['DECIMAL(18,4)']), kernel('min', ['DECIMAL(18,4)']), kernel('max', ['DOUBLE']),
  ]
  const { pairs, rest } = pairMinMax(kernels, aggs, kernels.map((_, a) => a))
  t.same(pairs.map((p) => p.of), [[1, 4], [2, 0], [8, 7]], 'min(c2)/max(c2), min(c1)/the first max(c1), the DECIMAL pair')
  t.same(rest, [3, 5, 6, 9], 'sum, the constants, the second max(c1)')
  t.same(pairMinMax(kernels, aggs, [0, 3, 9]).pairs, [], 'only among the ordinals given')
})

t.test('SQL: min and max of one column, keyed and not, one thread and split', async (t) => {
  const db = await Database.open()
  const minRows = PHYSICAL_TUNING.minRows
  PHYSICAL_TUNING.minRows = 1000
  t.teardown(async () => { PHYSICAL_TUNING.minRows = minRows; PARALLELISM.enabled = true; await db.close() })
  await db.query('create table m (k int, v decimal(18,4), x double, l long)')
  const r = rng(99)
  const N = 200_000
  const k: number[] = [], v: (string | null)[] = [], x: (number | null)[] = [], l: (number | null)[] = []
  const want = new Map<number, { v: [bigint, bigint] | null; x: [number, number] | null; l: [number, number] | null }>()
  for (let i = 0; i < N; i++) {
    const key = Math.floor(r() * 50) - 10
    const u = r() < 0.05 ? null : BigInt(Math.floor((r() - 0.5) * 1e12))
    const d = r() < 0.05 ? null : Math.round((r() - 0.5) * 1e6) / 8
    const n = r() < 0.05 ? null : Math.floor((r() - 0.5) * 1e15)
    k.push(key)
    v.push(u === null ? null : (u < 0n ? '-' : '') + (u < 0n ? -u : u).toString().padStart(5, '0').replace(/(\d{4})$/, '.$1'))
    x.push(d)
    l.push(n)
    const w = want.get(key) ?? { v: null, x: null, l: null }
    if (u !== null) w.v = w.v === null ? [u, u] : [u < w.v[0] ? u : w.v[0], u > w.v[1] ? u : w.v[1]]
    if (d !== null) w.x = w.x === null ? [d, d] : [Math.min(d, w.x[0]), Math.max(d, w.x[1])]
    if (n !== null) w.l = w.l === null ? [n, n] : [Math.min(n, w.l[0]), Math.max(n, w.l[1])]
    want.set(key, w)
  }
  await db.append('m', { k, v, x, l })
  const dec = (u: bigint): string => { const s = (u < 0n ? -u : u).toString().padStart(5, '0'); return `${u < 0n ? '-' : ''}${s.slice(0, -4)}.${s.slice(-4)}` }
  for (const parallel of [false, true]) {
  PARALLELISM.enabled = parallel
  const rows = (await db.query('select k, min(v), max(v), max(x), min(x), min(l), max(l) from m order by k')).rows
  const expect = [...want.keys()].sort((a, b) => a - b).map((key) => {
    const w = want.get(key)!
    return [key, dec(w.v![0]), dec(w.v![1]), w.x![1], w.x![0], w.l![0], w.l![1]]
  })
  t.same(rows.map((row) => row.map((c) => (typeof c === 'bigint' ? Number(c) : c))), expect, `keyed (INT keys, some negative), parallel=${parallel}`)
  const all = (await db.query('select min(v), max(v), min(x), max(x), max(l), min(l) from m')).rows[0]!
  const lo = (f: (w: { v: [bigint, bigint] | null; x: [number, number] | null; l: [number, number] | null }) => number | bigint): number | bigint =>
    [...want.values()].map(f).reduce((a, b) => (a < b ? a : b))
  const hi = (f: (w: { v: [bigint, bigint] | null; x: [number, number] | null; l: [number, number] | null }) => number | bigint): number | bigint =>
    [...want.values()].map(f).reduce((a, b) => (a > b ? a : b))
  t.same(all.map((c) => (typeof c === 'bigint' ? Number(c) : c)), [
    dec(lo((w) => w.v![0]) as bigint), dec(hi((w) => w.v![1]) as bigint), lo((w) => w.x![0]), hi((w) => w.x![1]), hi((w) => w.l![1]), lo((w) => w.l![0]),
  ], `not keyed, parallel=${parallel}`)
  const alone = await Promise.all(['min(x)', 'max(x)', 'min(v)', 'max(v)', 'min(l)', 'max(l)'].map(async (a) => (await db.query(`select ${a} from m`)).rows[0]![0]))
  t.same(alone.map((c) => (typeof c === 'bigint' ? Number(c) : c)), [lo((w) => w.x![0]), hi((w) => w.x![1]), dec(lo((w) => w.v![0]) as bigint), dec(hi((w) => w.v![1]) as bigint), lo((w) => w.l![0]), hi((w) => w.l![1])], `each alone, not keyed, parallel=${parallel}`)
  }
})

t.test('SAMPLE BY and GROUP BY: min and max together answer as each alone', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table o (ts timestamp, s symbol, v decimal(18,4), x double) timestamp(ts) partition by day')
  const r = rng(5)
  const N = 100_000
  const ts: number[] = [], s: string[] = [], v: (string | null)[] = [], x: (number | null)[] = []
  for (let i = 0; i < N; i++) {
    ts.push(i * 3_000_000) // 3 s apart: ~3.5 days
    s.push(`s${Math.floor(r() * 7)}`)
    v.push(r() < 0.05 ? null : `${Math.floor((r() - 0.5) * 1e6)}.${String(Math.floor(r() * 1e4)).padStart(4, '0')}`)
    x.push(r() < 0.05 ? null : (r() - 0.5) * 1e3)
  }
  await db.append('o', { ts, s, v, x })
  const cols = async (sql: (agg: string) => string, aggs: string[]): Promise<unknown[][]> => {
    const both = (await db.query(sql(aggs.join(', ')))).rows
    const apart = await Promise.all(aggs.map(async (a) => (await db.query(sql(a))).rows))
    t.equal(both.length, apart[0]!.length)
    return [both.map((row) => row.map(String)), both.map((row, i) => [...row.slice(0, row.length - aggs.length), ...apart.map((rows) => rows[i]!.at(-1))].map(String))]
  }
  const aggs = ['min(v)', 'max(v)', 'max(x)', 'min(x)']
  for (const [name, sql] of [
    ['SAMPLE BY 1h', (a: string) => `select ts, ${a} from o sample by 1h`],
    ['SAMPLE BY 1h, keyed', (a: string) => `select ts, s, ${a} from o sample by 1h order by ts, s`],
    ['SAMPLE BY 1d (one bucket a batch)', (a: string) => `select ts, ${a} from o sample by 1d`],
    ['GROUP BY symbol', (a: string) => `select s, ${a} from o order by s`],
  ] as const) {
    const [both, apart] = await cols(sql, aggs)
    t.same(both, apart, name)
  }
})
