/**
 * Several DOUBLE `sum` / `avg` aggregates of one SAMPLE BY folded in one pass per four columns
 * instead of one pass each (TSBS's double-groupby-all: ten `avg`s keyed by host and hour), into
 * the kernels' own state (DoubleSumKernel's `sum` and `count`), so merging, parallel shares and
 * results are unchanged. Each value is added exactly as `DoubleSumKernel.update` adds it (same
 * order per group, non-finite values skipped), so the answers are bit-for-bit the same.
 */
import type { AggregateKernel } from '../../functions/registry-types.js'
import { DoubleSumKernel } from '../../functions/aggregate/double-sum.js'
import type { Vector } from '../../types/vector.js'

/** The kernels (by position) this module folds: DOUBLE sum/avg; undefined when fewer than two. */
export function fusableSums(kernels: readonly AggregateKernel[]): number[] | undefined {
  const out: number[] = []
  kernels.forEach((k, i) => { if (k instanceof DoubleSumKernel && k.type === 'DOUBLE') out.push(i) })
  return out.length > 1 ? out : undefined
}

/**
 * Adds rows [0, n) of a batch, row i to group `groups[i]`, to the kernels `which` (positions from
 * {@link fusableSums}) whose argument `args[a][0]` is a plain DOUBLE vector; returns which kernels
 * it did (the caller updates the others as usual). Kernels must be resized to the group count.
 */
export function addDoubleSums(kernels: readonly AggregateKernel[], which: readonly number[], args: readonly (readonly Vector[])[], groups: Int32Array, n: number): Set<number> {
  const done = new Set<number>()
  const ks: DoubleSumKernel[] = []
  const ds: Float64Array[] = []
  for (const a of which) {
    const v = args[a]![0]!
    if (v.isConst || !(v.data instanceof Float64Array)) continue
    ks.push(kernels[a] as DoubleSumKernel)
    ds.push(v.data)
    done.add(a)
  }
  let k = 0
  for (; k + 4 <= ks.length; k += 4) {
    add4(groups, n, ds[k]!, ds[k + 1]!, ds[k + 2]!, ds[k + 3]!, ks[k]!, ks[k + 1]!, ks[k + 2]!, ks[k + 3]!)
  }
  for (; k + 2 <= ks.length; k += 2) add2(groups, n, ds[k]!, ds[k + 1]!, ks[k]!, ks[k + 1]!)
  for (; k < ks.length; k++) add1(groups, n, ds[k]!, ks[k]!.sum, ks[k]!.count)
  return done
}

function add4(groups: Int32Array, n: number, d0: Float64Array, d1: Float64Array, d2: Float64Array, d3: Float64Array,
  k0: DoubleSumKernel, k1: DoubleSumKernel, k2: DoubleSumKernel, k3: DoubleSumKernel): void {
  const s0 = k0.sum, s1 = k1.sum, s2 = k2.sum, s3 = k3.sum
  const c0 = k0.count, c1 = k1.count, c2 = k2.count, c3 = k3.count
  for (let i = 0; i < n; i++) {
    const g = groups[i]!
    let x = d0[i]!
    if (x - x === 0) { s0[g] = s0[g]! + x; c0[g]!++ }
    x = d1[i]!
    if (x - x === 0) { s1[g] = s1[g]! + x; c1[g]!++ }
    x = d2[i]!
    if (x - x === 0) { s2[g] = s2[g]! + x; c2[g]!++ }
    x = d3[i]!
    if (x - x === 0) { s3[g] = s3[g]! + x; c3[g]!++ }
  }
}

function add2(groups: Int32Array, n: number, d0: Float64Array, d1: Float64Array, k0: DoubleSumKernel, k1: DoubleSumKernel): void {
  const s0 = k0.sum, s1 = k1.sum
  const c0 = k0.count, c1 = k1.count
  for (let i = 0; i < n; i++) {
    const g = groups[i]!
    let x = d0[i]!
    if (x - x === 0) { s0[g] = s0[g]! + x; c0[g]!++ }
    x = d1[i]!
    if (x - x === 0) { s1[g] = s1[g]! + x; c1[g]!++ }
  }
}

function add1(groups: Int32Array, n: number, d: Float64Array, sum: Float64Array, cnt: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const x = d[i]!
    if (x - x === 0) { const g = groups[i]!; sum[g] = sum[g]! + x; cnt[g]!++ }
  }
}
