/**
 * Compensated sums of DOUBLE: `ksum(x)` (Kahan) and `nsum(x)` (Neumaier). Nulls are skipped; a
 * group without a value gives null.
 */
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { aggregate, arg, grow, sameGroup } from './agg-util.js'

/** Kahan (`neumaier = false`) or Neumaier summation per group. */
export class CompensatedSumKernel implements AggregateKernel {
  sum = new Float64Array(0)
  comp = new Float64Array(0)
  count = new Float64Array(0)

  constructor(readonly neumaier: boolean) {}

  resize(count: number): void {
    this.sum = grow(this.sum, count)
    this.comp = grow(this.comp, count)
    this.count = grow(this.count, count)
  }

  private add(g: number, x: number): void {
    const s = this.sum[g]!
    if (this.neumaier) {
      const t = s + x
      this.comp[g] = this.comp[g]! + (Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s)
      this.sum[g] = t
    } else {
      const y = x - this.comp[g]!
      const t = s + y
      this.comp[g] = t - s - y
      this.sum[g] = t
    }
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const d = arg(args, 0).data as Float64Array
    for (let i = 0; i < length; i++) {
      const x = d[i]!
      if (x - x !== 0) continue
      const g = groups[i]!
      this.add(g, x)
      this.count[g]!++
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as CompensatedSumKernel
    for (let i = 0; i < count; i++) {
      const f = from[i]!
      const g = to[i]!
      if (o.count[f] === 0) continue
      this.add(g, o.sum[f]!)
      this.add(g, this.neumaier ? o.comp[f]! : -o.comp[f]!)
      this.count[g] = this.count[g]! + o.count[f]!
    }
  }

  result(count: number): Vector {
    const out = new Float64Array(count)
    for (let g = 0; g < count; g++) {
      out[g] = this.count[g] === 0 ? NaN : this.neumaier ? this.sum[g]! + this.comp[g]! : this.sum[g]!
    }
    return { kind: 'f64', type: 'DOUBLE', length: count, data: out }
  }
}

/** ksum and nsum. */
export const COMPENSATED_SUM_FUNCTIONS: readonly FunctionDef[] = [
  aggregate({
    name: 'ksum',
    signatures: [{ args: ['DOUBLE'], returns: 'DOUBLE' }],
    description: 'Sum of the non-null values with Kahan compensated summation.',
    example: 'SELECT ksum(x * 0.1) FROM long_sequence(10)',
    create: () => new CompensatedSumKernel(false),
  }),
  aggregate({
    name: 'nsum',
    signatures: [{ args: ['DOUBLE'], returns: 'DOUBLE' }],
    description: 'Sum of the non-null values with Neumaier compensated summation.',
    example: 'SELECT nsum(x * 0.1) FROM long_sequence(10)',
    create: () => new CompensatedSumKernel(true),
  }),
]
