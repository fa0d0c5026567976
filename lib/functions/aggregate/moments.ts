/**
 * Skewness and excess kurtosis from the third and fourth central moments, as QuestDB documents
 * them (aggregation page): `skewness_samp` (alias `skewness`), `skewness_pop`, `kurtosis_samp`
 * (alias `kurtosis`), `kurtosis_pop` — all DOUBLE. Each group keeps the count, the mean and
 * M2..M4 (Mk = sum((x - mean)^k)) with Pébay's one-pass update (Welford's, extended) and merges
 * partial results with his pairwise formulas, so parallel shares and one pass agree. Non-finite
 * values (NULL, NaN, ±Infinity) are skipped. NULL when there are too few values (samp: fewer than
 * 3 for skewness, 4 for kurtosis; pop: none) or all values are equal (M2 = 0).
 *
 * - skewness_pop: g1 = sqrt(n) * M3 / M2^1.5; skewness_samp: G1 = g1 * sqrt(n (n - 1)) / (n - 2)
 * - kurtosis_pop: g2 = n * M4 / M2^2 - 3; kurtosis_samp: (n - 1) / ((n - 2)(n - 3)) * ((n + 1) g2 + 6)
 */
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { aggregate, arg, grow, sameGroup } from './agg-util.js'

type Moment = 'skewness_samp' | 'skewness_pop' | 'kurtosis_samp' | 'kurtosis_pop'

/** Per-group count, mean and central moment sums M2, M3, M4. */
export class MomentsKernel implements AggregateKernel {
  n = new Float64Array(0)
  mean = new Float64Array(0)
  m2 = new Float64Array(0)
  m3 = new Float64Array(0)
  m4 = new Float64Array(0)

  constructor(readonly stat: Moment) {}

  resize(count: number): void {
    this.n = grow(this.n, count)
    this.mean = grow(this.mean, count)
    this.m2 = grow(this.m2, count)
    this.m3 = grow(this.m3, count)
    this.m4 = grow(this.m4, count)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const d = arg(args, 0).data as Float64Array
    const { n, mean, m2, m3, m4 } = this
    for (let i = 0; i < length; i++) {
      const x = d[i]!
      if (x - x !== 0) continue
      const g = groups[i]!
      const k = n[g]! + 1
      const delta = x - mean[g]!
      const dn = delta / k
      const dn2 = dn * dn
      const t = delta * dn * (k - 1)
      const a2 = m2[g]!, a3 = m3[g]!
      // M4 reads the old M2 and M3, M3 the old M2
      m4[g] = m4[g]! + t * dn2 * (k * k - 3 * k + 3) + 6 * dn2 * a2 - 4 * dn * a3
      m3[g] = a3 + t * dn * (k - 2) - 3 * dn * a2
      m2[g] = a2 + t
      mean[g] = mean[g]! + dn
      n[g] = k
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as MomentsKernel
    for (let i = 0; i < count; i++) {
      const f = from[i]!, g = to[i]!
      const nb = o.n[f]!
      if (nb === 0) continue
      const na = this.n[g]!
      if (na === 0) {
        this.n[g] = nb; this.mean[g] = o.mean[f]!; this.m2[g] = o.m2[f]!; this.m3[g] = o.m3[f]!; this.m4[g] = o.m4[f]!
        continue
      }
      const a2 = this.m2[g]!, a3 = this.m3[g]!, b2 = o.m2[f]!, b3 = o.m3[f]!
      const n = na + nb
      const d = o.mean[f]! - this.mean[g]!
      const d2 = d * d
      this.mean[g] = (na * this.mean[g]! + nb * o.mean[f]!) / n
      this.m4[g] = this.m4[g]! + o.m4[f]! + d2 * d2 * na * nb * (na * na - na * nb + nb * nb) / (n * n * n) +
        6 * d2 * (na * na * b2 + nb * nb * a2) / (n * n) + 4 * d * (na * b3 - nb * a3) / n
      this.m3[g] = a3 + b3 + d2 * d * na * nb * (na - nb) / (n * n) + 3 * d * (na * b2 - nb * a2) / n
      this.m2[g] = a2 + b2 + d2 * na * nb / n
      this.n[g] = n
    }
  }

  result(count: number): Vector {
    const out = new Float64Array(count)
    for (let g = 0; g < count; g++) out[g] = momentOf(this.stat, this.n[g]!, this.m2[g]!, this.m3[g]!, this.m4[g]!)
    return { kind: 'f64', type: 'DOUBLE', length: count, data: out }
  }
}

function momentOf(stat: Moment, n: number, m2: number, m3: number, m4: number): number {
  if (m2 === 0 || n === 0) return NaN
  switch (stat) {
    case 'skewness_pop': return Math.sqrt(n) * m3 / Math.pow(m2, 1.5)
    case 'skewness_samp': return n < 3 ? NaN : (Math.sqrt(n) * m3 / Math.pow(m2, 1.5)) * Math.sqrt(n * (n - 1)) / (n - 2)
    case 'kurtosis_pop': return n * m4 / (m2 * m2) - 3
    case 'kurtosis_samp': return n < 4 ? NaN : ((n - 1) / ((n - 2) * (n - 3))) * ((n + 1) * (n * m4 / (m2 * m2) - 3) + 6)
  }
}

function moment(name: Moment, aliases: string[], description: string): FunctionDef {
  return aggregate({
    name,
    aliases,
    signatures: [{ args: ['DOUBLE'], returns: 'DOUBLE' }],
    description,
    example: `SELECT ${name}(value) FROM UNNEST(ARRAY[-10.0, -20.0, 100.0, 1000.0, 1000.0])`,
    create: () => new MomentsKernel(name),
  })
}

/** skewness_samp, skewness_pop, kurtosis_samp, kurtosis_pop. */
export const MOMENT_FUNCTIONS: readonly FunctionDef[] = [
  moment('skewness_samp', ['skewness'], 'Sample skewness (Fisher-Pearson bias-corrected G1) of the finite values; NULL for fewer than 3 or all equal.'),
  moment('skewness_pop', [], 'Population skewness (g1) of the finite values; NULL for none or all equal.'),
  moment('kurtosis_samp', ['kurtosis'], 'Sample excess kurtosis (bias-corrected) of the finite values; NULL for fewer than 4 or all equal.'),
  moment('kurtosis_pop', [], 'Population excess kurtosis (g2, normal = 0) of the finite values; NULL for none or all equal.'),
]
