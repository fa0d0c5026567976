/**
 * Per-group sum and count of finite doubles (nulls — NaN and ±Infinity — skipped): the kernel
 * behind `sum(double)`, `sum(float)` and `avg(x)`.
 */
import type { ColumnType } from '../../types/column-type.js'
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel } from '../registry-types.js'
import { arg, grow } from './agg-util.js'

/** What the kernel returns per group. */
export type DoubleSumMode = 'sum' | 'avg'

/** Sum (or average) of DOUBLE/FLOAT input; groups without a finite value give null. */
export class DoubleSumKernel implements AggregateKernel {
  sum = new Float64Array(0)
  count = new Float64Array(0)

  /** `type` is the result type (DOUBLE, or FLOAT for sum(float)). */
  constructor(readonly mode: DoubleSumMode, readonly type: ColumnType = 'DOUBLE') {}

  resize(count: number): void {
    this.sum = grow(this.sum, count)
    this.count = grow(this.count, count)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const d = arg(args, 0).data as Float64Array | Float32Array
    const sum = this.sum
    const cnt = this.count
    if (this.type === 'FLOAT') {
      // sum(float) accumulates in float precision, as QuestDB does
      const f = new Float32Array(1)
      for (let i = 0; i < length; i++) {
        const x = d[i]!
        if (x - x !== 0) continue
        const g = groups[i]!
        f[0] = sum[g]! + x
        sum[g] = f[0]!
        cnt[g]!++
      }
      return
    }
    if (d instanceof Float64Array) addF64(groups, d, sum, cnt, length)
    else addF64(groups, Float64Array.from(d), sum, cnt, length)
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    const d = arg(args, 0).data as Float64Array | Float32Array
    let s = 0
    let n = 0
    if (this.type === 'FLOAT') {
      const f = new Float32Array(1)
      f[0] = this.sum[group]!
      for (let i = 0; i < length; i++) { const x = d[i]!; if (x - x === 0) { f[0] = f[0]! + x; n++ } }
      this.sum[group] = f[0]!
    } else {
      for (let i = 0; i < length; i++) { const x = d[i]!; if (x - x === 0) { s += x; n++ } }
      this.sum[group] = this.sum[group]! + s
    }
    this.count[group] = this.count[group]! + n
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as DoubleSumKernel
    for (let i = 0; i < count; i++) {
      const f = from[i]!
      const g = to[i]!
      this.sum[g] = this.sum[g]! + o.sum[f]!
      this.count[g] = this.count[g]! + o.count[f]!
    }
  }

  result(count: number): Vector {
    const out = this.type === 'FLOAT' ? new Float32Array(count) : new Float64Array(count)
    for (let g = 0; g < count; g++) {
      const n = this.count[g]!
      out[g] = n === 0 ? NaN : this.mode === 'avg' ? this.sum[g]! / n : this.sum[g]!
    }
    return this.type === 'FLOAT'
      ? { kind: 'f32', type: 'FLOAT', length: count, data: out as Float32Array }
      : { kind: 'f64', type: 'DOUBLE', length: count, data: out as Float64Array }
  }
}

/** The hot loop of sum/avg over DOUBLE: monomorphic on Float64Array. */
function addF64(groups: Int32Array, d: Float64Array, sum: Float64Array, cnt: Float64Array, length: number): void {
  for (let i = 0; i < length; i++) {
    const x = d[i]!
    if (x - x === 0) {
      const g = groups[i]!
      sum[g] = sum[g]! + x
      cnt[g]!++
    }
  }
}
