/**
 * `covar_samp(y, x)`, `covar_pop(y, x)`, `corr(y, x)` and the linear-regression aggregates
 * `regr_slope`, `regr_intercept`, `regr_r2`, `regr_count`, `regr_avgx`, `regr_avgy`,
 * `regr_sxx`, `regr_syy`, `regr_sxy` (DOUBLE): a bivariate Welford update over rows where both
 * arguments are non-null, merged with the pairwise (Chan) formulas.
 */
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { aggregate, arg, grow, sameGroup } from './agg-util.js'

type Stat = 'covar_samp' | 'covar_pop' | 'corr'
  | 'regr_slope' | 'regr_intercept' | 'regr_r2' | 'regr_count' | 'regr_avgx' | 'regr_avgy' | 'regr_sxx' | 'regr_syy' | 'regr_sxy'

/** Per group: count, means of x and y, co-moment, and the second moments of x and y. */
export class CovarianceKernel implements AggregateKernel {
  n = new Float64Array(0)
  mx = new Float64Array(0)
  my = new Float64Array(0)
  cxy = new Float64Array(0)
  m2x = new Float64Array(0)
  m2y = new Float64Array(0)

  constructor(readonly stat: Stat) {}

  resize(count: number): void {
    this.n = grow(this.n, count)
    this.mx = grow(this.mx, count)
    this.my = grow(this.my, count)
    this.cxy = grow(this.cxy, count)
    this.m2x = grow(this.m2x, count)
    this.m2y = grow(this.m2y, count)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const dy = arg(args, 0).data as Float64Array
    const dx = arg(args, 1).data as Float64Array
    const { n, mx, my, cxy, m2x, m2y } = this
    for (let i = 0; i < length; i++) {
      const y = dy[i]!
      const x = dx[i]!
      if (y - y !== 0 || x - x !== 0) continue
      const g = groups[i]!
      const k = n[g]! + 1
      n[g] = k
      const ddx = x - mx[g]!
      const ddy = y - my[g]!
      const nmx = mx[g]! + ddx / k
      const nmy = my[g]! + ddy / k
      mx[g] = nmx
      my[g] = nmy
      cxy[g] = cxy[g]! + ddx * (y - nmy)
      m2x[g] = m2x[g]! + ddx * (x - nmx)
      m2y[g] = m2y[g]! + ddy * (y - nmy)
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as CovarianceKernel
    for (let i = 0; i < count; i++) {
      const f = from[i]!
      const g = to[i]!
      const nb = o.n[f]!
      if (nb === 0) continue
      const na = this.n[g]!
      const n = na + nb
      const dx = o.mx[f]! - this.mx[g]!
      const dy = o.my[f]! - this.my[g]!
      const w = (na * nb) / n
      this.cxy[g] = this.cxy[g]! + o.cxy[f]! + dx * dy * w
      this.m2x[g] = this.m2x[g]! + o.m2x[f]! + dx * dx * w
      this.m2y[g] = this.m2y[g]! + o.m2y[f]! + dy * dy * w
      this.mx[g] = this.mx[g]! + (dx * nb) / n
      this.my[g] = this.my[g]! + (dy * nb) / n
      this.n[g] = n
    }
  }

  result(count: number): Vector {
    const out = new Float64Array(count)
    for (let g = 0; g < count; g++) {
      const n = this.n[g]!
      switch (this.stat) {
        case 'covar_pop': out[g] = n > 0 ? this.cxy[g]! / n : NaN; break
        case 'covar_samp': out[g] = n > 1 ? this.cxy[g]! / (n - 1) : NaN; break
        case 'corr': out[g] = n > 0 ? this.cxy[g]! / Math.sqrt(this.m2x[g]! * this.m2y[g]!) : NaN; break
        case 'regr_slope': out[g] = n > 0 && this.m2x[g]! > 0 ? this.cxy[g]! / this.m2x[g]! : NaN; break
        case 'regr_intercept': out[g] = n > 0 && this.m2x[g]! > 0 ? this.my[g]! - (this.cxy[g]! / this.m2x[g]!) * this.mx[g]! : NaN; break
        case 'regr_r2': {
          // PostgreSQL's definition: null without x variance, 1 when y is constant
          const sxx = this.m2x[g]!, syy = this.m2y[g]!, sxy = this.cxy[g]!
          out[g] = n === 0 || sxx === 0 ? NaN : syy === 0 ? 1 : (sxy * sxy) / (sxx * syy)
          break
        }
        case 'regr_count': out[g] = n; break
        case 'regr_avgx': out[g] = n > 0 ? this.mx[g]! : NaN; break
        case 'regr_avgy': out[g] = n > 0 ? this.my[g]! : NaN; break
        case 'regr_sxx': out[g] = n > 0 ? this.m2x[g]! : NaN; break
        case 'regr_syy': out[g] = n > 0 ? this.m2y[g]! : NaN; break
        case 'regr_sxy': out[g] = n > 0 ? this.cxy[g]! : NaN; break
      }
    }
    return { kind: 'f64', type: 'DOUBLE', length: count, data: out }
  }
}

function stat(name: Stat, description: string): FunctionDef {
  return aggregate({
    name,
    signatures: [{ args: ['DOUBLE', 'DOUBLE'], returns: 'DOUBLE' }],
    description,
    example: `SELECT ${name}(x * 2.0, x) FROM long_sequence(10)`,
    create: () => new CovarianceKernel(name),
  })
}

/** covar_samp, covar_pop, corr. */
export const COVARIANCE_FUNCTIONS: readonly FunctionDef[] = [
  stat('covar_samp', 'Sample covariance of the pairs where both values are non-null.'),
  stat('covar_pop', 'Population covariance of the pairs where both values are non-null.'),
  stat('corr', 'Pearson correlation coefficient of the pairs where both values are non-null.'),
  stat('regr_slope', 'Slope of the least-squares line fitted to the (x, y) pairs where both are non-null.'),
  stat('regr_intercept', 'y-intercept of the least-squares line fitted to the non-null (x, y) pairs.'),
  stat('regr_r2', 'Square of the correlation coefficient of the non-null (x, y) pairs.'),
  stat('regr_count', 'Number of (x, y) pairs where both values are non-null (as DOUBLE).'),
  stat('regr_avgx', 'Average of x over the pairs where both values are non-null.'),
  stat('regr_avgy', 'Average of y over the pairs where both values are non-null.'),
  stat('regr_sxx', 'Sum of squares of the deviations of x, over the non-null (x, y) pairs.'),
  stat('regr_syy', 'Sum of squares of the deviations of y, over the non-null (x, y) pairs.'),
  stat('regr_sxy', 'Sum of products of the deviations of x and y, over the non-null pairs.'),
]
