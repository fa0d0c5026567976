/**
 * The out-of-order merge of two interleaved in-order streams, before and after o3-merge.ts, in one
 * run and in CPU time: a table of 10 columns (TIMESTAMP, 2 SYMBOL, 6 DOUBLE, 1 LONG, as the ILP
 * benches) holding `existing` rows in order takes a group commit of two 75,000-row batches, one per
 * stream, whose timestamps interleave (stream A at odd µs, B at even µs, both starting inside the
 * last batch of existing rows). `before` is the merge as it was (every in-memory row copied one by
 * one, the new rows sorted with a comparator, every row permuted: merge-rows.ts), `after`
 * `mergeOutOfOrder`. Both results are compared.
 *
 *   node --import tsx test/bench/o3-merge.ts [existing=500000] [rounds=5]
 *
 * Not a test: figures go to docs/benchmarks.md.
 */
import { ColumnBuffer } from '../../lib/storage/column-buffer.js'
import { firstAfter, minOf, timestampOrder } from '../../lib/storage/merge-rows.js'
import { mergeOutOfOrder } from '../../lib/storage/o3-merge.js'
import { vectorOf, type I64Vector, type Vector } from '../../lib/types/vector.js'
import type { ColumnType } from '../../lib/types/column-type.js'

const existing = Number(process.argv[2] ?? 500_000)
const rounds = Number(process.argv[3] ?? 5)
const per = 75_000
const TYPES: ColumnType[] = ['TIMESTAMP', 'SYMBOL', 'SYMBOL', 'DOUBLE', 'DOUBLE', 'DOUBLE', 'DOUBLE', 'DOUBLE', 'DOUBLE', 'LONG']

/** One vector per column for rows with timestamps `ts`. */
function vectors(ts: Float64Array, cols: readonly ColumnBuffer[]): Vector[] {
  const n = ts.length
  return TYPES.map((ty, c) => {
    if (c === 0) return vectorOf(ty, ts, n)
    if (ty === 'SYMBOL') { const d = cols[c]!.dict!; const k = [d.intern('A'), d.intern('B'), d.intern('C')]; return vectorOf(ty, Int32Array.from(ts, (_, i) => k[i % 3]!), n, d) }
    return vectorOf(ty, Float64Array.from(ts, (x, i) => i + c + (x % 7)), n)
  })
}

/** The merge before o3-merge.ts. */
function before(cols: readonly ColumnBuffer[], n: number, v: readonly Vector[], m: number): ColumnBuffer[] {
  const merged = cols.map((b) => b.clone())
  for (let c = 0; c < merged.length; c++) merged[c]!.append(v[c]!)
  const order = timestampOrder(merged[0]!, firstAfter(merged[0]!, n, minOf(v[0] as I64Vector, m), false), n, n + m)
  return merged.map((b) => b.permuted(order, n + m))
}

const t0 = 1_700_000_000_000_000
const base = TYPES.map((ty) => new ColumnBuffer(ty, existing))
base.forEach((b, c) => b.append(vectors(Float64Array.from({ length: existing }, (_, i) => t0 + 2 * i), base)[c]!))
// the two streams start inside the newest batch of the existing rows
const start = t0 + 2 * (existing - per / 2)
const a = Float64Array.from({ length: per }, (_, i) => start + 2 * i + 1)
const b = Float64Array.from({ length: per }, (_, i) => start + 2 * i)
const batch = new Float64Array(2 * per)
batch.set(a)
batch.set(b, per)
const v = vectors(batch, base)

const cpu = (f: () => unknown): number => { const c0 = process.cpuUsage(); f(); const c = process.cpuUsage(c0); return (c.user + c.system) / 1000 }
const times = { before: [] as number[], after: [] as number[] }
let x: ColumnBuffer[] = [], y: ColumnBuffer[] = []
for (let r = 0; r <= rounds; r++) {
  const tb = cpu(() => { x = before(base, existing, v, 2 * per) })
  const ta = cpu(() => { y = mergeOutOfOrder(base, existing, v, 2 * per, 0) })
  if (r > 0) { times.before.push(tb); times.after.push(ta) }
}
const n = existing + 2 * per
for (let c = 0; c < TYPES.length; c++) {
  const p = x[c]!.view(0, n).data as ArrayLike<number>, q = y[c]!.view(0, n).data as ArrayLike<number>
  for (let i = 0; i < n; i++) if (p[i] !== q[i]) throw new Error(`column ${c} row ${i} differs`)
}
const best = (xs: number[]): number => Math.min(...xs)
console.log(`O3 merge of 2 x ${per} interleaved rows into ${existing} in-memory rows (best of ${rounds}, CPU): before ${best(times.before).toFixed(1)} ms (${(1000 * best(times.before) / (2 * per)).toFixed(2)} µs per new row), after ${best(times.after).toFixed(1)} ms (${(1000 * best(times.after) / (2 * per)).toFixed(2)} µs per new row) = ${(best(times.before) / best(times.after)).toFixed(1)}x less`)
