/**
 * `weighted_stddev_rel(x, w)` (reliability weights: variance = Σw(x-m)² / (W - Σw²/W)) and
 * `weighted_stddev_freq(x, w)` (frequency weights: variance = Σw(x-m)² / (W - 1)), as QuestDB;
 * rows with a null value or weight are skipped, and a group whose denominator is not positive
 * gives null. Accumulated with West's weighted update and merged with Chan's formula.
 */
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { aggregate, arg, grow, sameGroup } from './agg-util.js'
import { castVector } from '../../types/cast.js'

/** Per group: total weight, total squared weight, weighted mean, weighted sum of squared deviations. */
export class WeightedStddevKernel implements AggregateKernel {
  w = new Float64Array(0)
  w2 = new Float64Array(0)
  mean = new Float64Array(0)
  s = new Float64Array(0)

  constructor(readonly reliability: boolean) {}

  resize(count: number): void {
    this.w = grow(this.w, count)
    this.w2 = grow(this.w2, count)
    this.mean = grow(this.mean, count)
    this.s = grow(this.s, count)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const xs = castVector(arg(args, 0), 'DOUBLE').data as Float64Array
    const ws = castVector(arg(args, 1), 'DOUBLE').data as Float64Array
    for (let i = 0; i < length; i++) {
      const x = xs[i]!
      const wt = ws[i]!
      if (x !== x || wt !== wt || wt <= 0) continue
      const g = groups[i]!
      const total = this.w[g]! + wt
      const delta = x - this.mean[g]!
      this.mean[g] = this.mean[g]! + (wt / total) * delta
      this.s[g] = this.s[g]! + wt * delta * (x - this.mean[g]!)
      this.w[g] = total
      this.w2[g] = this.w2[g]! + wt * wt
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as WeightedStddevKernel
    for (let i = 0; i < count; i++) {
      const f = from[i]!
      const g = to[i]!
      const wb = o.w[f]!
      if (wb === 0) continue
      const wa = this.w[g]!
      const total = wa + wb
      const delta = o.mean[f]! - this.mean[g]!
      this.mean[g] = this.mean[g]! + delta * wb / total
      this.s[g] = this.s[g]! + o.s[f]! + delta * delta * wa * wb / total
      this.w[g] = total
      this.w2[g] = this.w2[g]! + o.w2[f]!
    }
  }

  result(count: number): Vector {
    const data = new Float64Array(count)
    for (let g = 0; g < count; g++) {
      const w = this.w[g]!
      const denom = this.reliability ? w - (w === 0 ? 0 : this.w2[g]! / w) : w - 1
      data[g] = w === 0 || !(denom > 0) ? NaN : Math.sqrt(Math.max(0, this.s[g]!) / denom)
    }
    return { kind: 'f64', type: 'DOUBLE', length: count, data }
  }
}

/** weighted_stddev_rel and weighted_stddev_freq. */
export const WEIGHTED_STDDEV_FUNCTIONS: readonly FunctionDef[] = [
  aggregate({
    name: 'weighted_stddev_rel',
    aliases: ['weighted_stddev'],
    signatures: [{ args: ['DOUBLE', 'DOUBLE'], returns: 'DOUBLE' }],
    description: 'Weighted standard deviation with reliability weights; null for fewer than two effective rows.',
    example: 'SELECT weighted_stddev_rel(x, x % 3 + 1) FROM long_sequence(10)',
    create: () => new WeightedStddevKernel(true),
  }),
  aggregate({
    name: 'weighted_stddev_freq',
    signatures: [{ args: ['DOUBLE', 'DOUBLE'], returns: 'DOUBLE' }],
    description: 'Weighted standard deviation with frequency weights (a weight counts as that many rows).',
    example: 'SELECT weighted_stddev_freq(x, x % 3 + 1) FROM long_sequence(10)',
    create: () => new WeightedStddevKernel(false),
  }),
]
