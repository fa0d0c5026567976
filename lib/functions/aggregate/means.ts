/**
 * Means other than `avg`, from QuestDB's aggregation page, both DOUBLE:
 *
 * - `weighted_avg(value, weight)`: sum(w * x) / sum(w) over the rows whose value and weight are
 *   both non-null and whose weight is not zero; NULL with no such row or when the weights sum to 0.
 * - `geomean(value)`: exp(avg(ln(x))) over the non-null values; NULL for an empty group and, as
 *   the page's table says, when any value is zero or negative (the mean is undefined).
 */
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { aggregate, arg, grow, sameGroup } from './agg-util.js'

/** Per group: sum of w * x and sum of w. */
export class WeightedAvgKernel implements AggregateKernel {
  wx = new Float64Array(0)
  w = new Float64Array(0)
  n = new Float64Array(0)

  resize(count: number): void {
    this.wx = grow(this.wx, count)
    this.w = grow(this.w, count)
    this.n = grow(this.n, count)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const x = arg(args, 0).data as Float64Array, wt = arg(args, 1).data as Float64Array
    const { wx, w, n } = this
    for (let i = 0; i < length; i++) {
      const v = x[i]!, k = wt[i]!
      if (v !== v || k !== k || k === 0) continue
      const g = groups[i]!
      wx[g] = wx[g]! + k * v
      w[g] = w[g]! + k
      n[g] = n[g]! + 1
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as WeightedAvgKernel
    for (let i = 0; i < count; i++) {
      const f = from[i]!, g = to[i]!
      this.wx[g] = this.wx[g]! + o.wx[f]!
      this.w[g] = this.w[g]! + o.w[f]!
      this.n[g] = this.n[g]! + o.n[f]!
    }
  }

  result(count: number): Vector {
    const out = new Float64Array(count)
    for (let g = 0; g < count; g++) out[g] = this.n[g] === 0 || this.w[g] === 0 ? NaN : this.wx[g]! / this.w[g]!
    return { kind: 'f64', type: 'DOUBLE', length: count, data: out }
  }
}

/** Per group: sum of ln(x), count, and whether a value was zero or negative. */
export class GeomeanKernel implements AggregateKernel {
  logs = new Float64Array(0)
  n = new Float64Array(0)
  bad = new Uint8Array(0)

  resize(count: number): void {
    this.logs = grow(this.logs, count)
    this.n = grow(this.n, count)
    this.bad = grow(this.bad, count)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const x = arg(args, 0).data as Float64Array
    const { logs, n, bad } = this
    for (let i = 0; i < length; i++) {
      const v = x[i]!
      if (v !== v) continue
      const g = groups[i]!
      if (v <= 0) bad[g] = 1
      else logs[g] = logs[g]! + Math.log(v)
      n[g] = n[g]! + 1
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as GeomeanKernel
    for (let i = 0; i < count; i++) {
      const f = from[i]!, g = to[i]!
      this.logs[g] = this.logs[g]! + o.logs[f]!
      this.n[g] = this.n[g]! + o.n[f]!
      this.bad[g] = this.bad[g]! | o.bad[f]!
    }
  }

  result(count: number): Vector {
    const out = new Float64Array(count)
    for (let g = 0; g < count; g++) out[g] = this.n[g] === 0 || this.bad[g] === 1 ? NaN : Math.exp(this.logs[g]! / this.n[g]!)
    return { kind: 'f64', type: 'DOUBLE', length: count, data: out }
  }
}

/** weighted_avg, geomean. */
export const MEAN_FUNCTIONS: readonly FunctionDef[] = [
  aggregate({
    name: 'weighted_avg',
    signatures: [{ args: ['DOUBLE', 'DOUBLE'], returns: 'DOUBLE' }],
    description: 'Weighted mean sum(w * x) / sum(w), skipping rows with a NULL value or a NULL or zero weight; NULL when the weights sum to 0.',
    example: 'SELECT weighted_avg(x, x % 3 + 1) FROM long_sequence(10)',
    create: () => new WeightedAvgKernel(),
  }),
  aggregate({
    name: 'geomean',
    signatures: [{ args: ['DOUBLE'], returns: 'DOUBLE' }],
    description: 'Geometric mean exp(avg(ln(x))) of the non-null values; NULL when a value is zero or negative.',
    example: 'SELECT geomean(x) FROM long_sequence(10)',
    create: () => new GeomeanKernel(),
  }),
]
