/**
 * `twap(price, timestamp)` (QuestDB's aggregation and finance pages): the time-weighted average
 * price by step-function integration — each price holds until the next observation, and the
 * area under that step function is divided by the time span: sum(p_i * (t_{i+1} - t_i)) /
 * (t_n - t_1). Rows with a NULL price or timestamp are skipped; no row is NULL; when every
 * observation has the same timestamp it is the arithmetic mean. DOUBLE.
 *
 * The rows must arrive in ascending timestamp order, as a scan of a table by its designated
 * timestamp delivers them (also per SAMPLE BY bucket); parallel shares merge in row order, the
 * gap between two shares weighted by the earlier share's last price. As in QuestDB, the binder
 * refuses a timestamp that is not the input's designated one, and an input sorted otherwise
 * (`plan/ordered-aggregate-args.ts`).
 */
import { LONG_NULL } from '../../types/column-type.js'
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { toF64 } from '../kernel-helpers.js'
import { aggregate, arg, grow, sameGroup } from './agg-util.js'

/** Per group: first and last timestamp, last price, area so far, sum and count of prices. */
export class TwapKernel implements AggregateKernel {
  first = new Float64Array(0)
  last = new Float64Array(0)
  lastPrice = new Float64Array(0)
  area = new Float64Array(0)
  sum = new Float64Array(0)
  n = new Float64Array(0)

  resize(count: number): void {
    this.first = grow(this.first, count)
    this.last = grow(this.last, count)
    this.lastPrice = grow(this.lastPrice, count)
    this.area = grow(this.area, count)
    this.sum = grow(this.sum, count)
    this.n = grow(this.n, count)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const p = arg(args, 0).data as Float64Array
    const tv = arg(args, 1)
    const t = tv.kind === 'i64' && tv.data instanceof Float64Array ? tv.data : toF64(tv).data
    const { first, last, lastPrice, area, sum, n } = this
    for (let i = 0; i < length; i++) {
      const x = p[i]!, ts = t[i]!
      if (x !== x || ts !== ts || ts === LONG_NULL) continue
      const g = groups[i]!
      if (n[g] === 0) first[g] = ts
      else area[g] = area[g]! + lastPrice[g]! * (ts - last[g]!)
      last[g] = ts
      lastPrice[g] = x
      sum[g] = sum[g]! + x
      n[g] = n[g]! + 1
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as TwapKernel
    for (let i = 0; i < count; i++) {
      const f = from[i]!, g = to[i]!
      const nb = o.n[f]!
      if (nb === 0) continue
      if (this.n[g] === 0) this.first[g] = o.first[f]!
      else this.area[g] = this.area[g]! + this.lastPrice[g]! * (o.first[f]! - this.last[g]!)
      this.area[g] = this.area[g]! + o.area[f]!
      this.last[g] = o.last[f]!
      this.lastPrice[g] = o.lastPrice[f]!
      this.sum[g] = this.sum[g]! + o.sum[f]!
      this.n[g] = this.n[g]! + nb
    }
  }

  result(count: number): Vector {
    const out = new Float64Array(count)
    for (let g = 0; g < count; g++) {
      const n = this.n[g]!
      const span = this.last[g]! - this.first[g]!
      out[g] = n === 0 ? NaN : span === 0 ? this.sum[g]! / n : this.area[g]! / span
    }
    return { kind: 'f64', type: 'DOUBLE', length: count, data: out }
  }
}

/** twap. */
export const TWAP_FUNCTIONS: readonly FunctionDef[] = [
  aggregate({
    name: 'twap',
    signatures: [{ args: ['DOUBLE', 'TIMESTAMP'], returns: 'DOUBLE' }],
    description: 'Time-weighted average price: each price holds until the next row (rows in ascending timestamp order); the mean when all timestamps are equal.',
    example: 'SELECT twap(price, ts) FROM trades',
    create: () => new TwapKernel(),
  }),
]
