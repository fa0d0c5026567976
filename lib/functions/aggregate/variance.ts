/**
 * Variance and standard deviation with Welford's online update (numerically stable) and Chan's
 * formula to merge partial results: `var_samp` (alias `variance`), `var_pop`, `stddev_samp`
 * (alias `stddev`), `stddev_pop` — all DOUBLE; nulls skipped; fewer than 2 values (samp) or
 * none (pop) give null.
 */
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { aggregate, arg, grow, sameGroup } from './agg-util.js'

type Stat = 'var_samp' | 'var_pop' | 'stddev_samp' | 'stddev_pop'

/** Welford accumulator per group: count, mean, sum of squared deviations. */
export class VarianceKernel implements AggregateKernel {
  n = new Float64Array(0)
  mean = new Float64Array(0)
  m2 = new Float64Array(0)

  constructor(readonly stat: Stat) {}

  resize(count: number): void {
    this.n = grow(this.n, count)
    this.mean = grow(this.mean, count)
    this.m2 = grow(this.m2, count)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const d = arg(args, 0).data as Float64Array
    const n = this.n
    const mean = this.mean
    const m2 = this.m2
    for (let i = 0; i < length; i++) {
      const x = d[i]!
      if (x - x !== 0) continue
      const g = groups[i]!
      const k = n[g]! + 1
      n[g] = k
      const delta = x - mean[g]!
      const m = mean[g]! + delta / k
      mean[g] = m
      m2[g] = m2[g]! + delta * (x - m)
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as VarianceKernel
    for (let i = 0; i < count; i++) {
      const f = from[i]!
      const g = to[i]!
      const nb = o.n[f]!
      if (nb === 0) continue
      const na = this.n[g]!
      const n = na + nb
      const delta = o.mean[f]! - this.mean[g]!
      this.mean[g] = this.mean[g]! + (delta * nb) / n
      this.m2[g] = this.m2[g]! + o.m2[f]! + (delta * delta * na * nb) / n
      this.n[g] = n
    }
  }

  result(count: number): Vector {
    const out = new Float64Array(count)
    const samp = this.stat === 'var_samp' || this.stat === 'stddev_samp'
    const sqrt = this.stat === 'stddev_samp' || this.stat === 'stddev_pop'
    for (let g = 0; g < count; g++) {
      const n = this.n[g]!
      const denom = samp ? n - 1 : n
      const v = denom > 0 ? this.m2[g]! / denom : NaN
      out[g] = sqrt ? Math.sqrt(v) : v
    }
    return { kind: 'f64', type: 'DOUBLE', length: count, data: out }
  }
}

function stat(name: Stat, aliases: string[], description: string): FunctionDef {
  return aggregate({
    name,
    aliases,
    signatures: [{ args: ['DOUBLE'], returns: 'DOUBLE' }],
    description,
    example: `SELECT ${name}(x) FROM long_sequence(10)`,
    create: () => new VarianceKernel(name),
  })
}

/** var_samp, var_pop, stddev_samp, stddev_pop. */
export const VARIANCE_FUNCTIONS: readonly FunctionDef[] = [
  stat('stddev_samp', ['stddev'], 'Sample standard deviation of the non-null values.'),
  stat('stddev_pop', [], 'Population standard deviation of the non-null values.'),
  stat('var_samp', ['variance'], 'Sample variance of the non-null values.'),
  stat('var_pop', [], 'Population variance of the non-null values.'),
]
