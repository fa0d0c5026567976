/**
 * Per-group sum and count of finite doubles (nulls — NaN and ±Infinity — skipped): the kernel
 * behind `sum(double)`, `sum(float)` and `avg(x)`.
 *
 * A group's running total and its count sit side by side in one array (`st`: total at 2g, count
 * at 2g+1), so the keyed row loop touches one array and one cache line per row: 2.33 against
 * 3.23 ns/row with two arrays (2M rows in 65,536-row batches, 100 groups, load 15), as the
 * DECIMAL kernel does (decimal-sum-kernel.ts).
 */
import type { ColumnType } from '../../types/column-type.js'
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel } from '../registry-types.js'
import { arg, grow } from './agg-util.js'

/** What the kernel returns per group. */
export type DoubleSumMode = 'sum' | 'avg'

/** Sum (or average) of DOUBLE/FLOAT input; groups without a finite value give null. */
export class DoubleSumKernel implements AggregateKernel {
  /** per group g: at 2g the running total, at 2g+1 the count of finite values */
  st = new Float64Array(0)

  /** `type` is the result type (DOUBLE, or FLOAT for sum(float)). */
  constructor(readonly mode: DoubleSumMode, readonly type: ColumnType = 'DOUBLE') {}

  resize(count: number): void {
    this.st = grow(this.st, 2 * count)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const d = arg(args, 0).data as Float64Array | Float32Array
    const st = this.st
    if (this.type === 'FLOAT') {
      // sum(float) accumulates in float precision, as QuestDB does
      const f = new Float32Array(1)
      for (let i = 0; i < length; i++) {
        const x = d[i]!
        if (x - x !== 0) continue
        const j = groups[i]! << 1
        f[0] = st[j]! + x
        st[j] = f[0]!
        st[j + 1]!++
      }
      return
    }
    if (d instanceof Float64Array) addF64(groups, d, st, length)
    else addF64(groups, Float64Array.from(d), st, length)
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    const d = arg(args, 0).data as Float64Array | Float32Array
    let s = 0
    let n = 0
    if (this.type === 'FLOAT') {
      const f = new Float32Array(1)
      f[0] = this.st[2 * group]!
      for (let i = 0; i < length; i++) { const x = d[i]!; if (x - x === 0) { f[0] = f[0]! + x; n++ } }
      this.st[2 * group] = f[0]!
    } else {
      for (let i = 0; i < length; i++) { const x = d[i]!; if (x - x === 0) { s += x; n++ } }
      this.st[2 * group] = this.st[2 * group]! + s
    }
    this.st[2 * group + 1] = this.st[2 * group + 1]! + n
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as DoubleSumKernel
    const st = this.st, ot = o.st
    for (let i = 0; i < count; i++) {
      const f = from[i]! << 1
      const g = to[i]! << 1
      st[g] = st[g]! + ot[f]!
      st[g + 1] = st[g + 1]! + ot[f + 1]!
    }
  }

  result(count: number): Vector {
    const out = this.type === 'FLOAT' ? new Float32Array(count) : new Float64Array(count)
    for (let g = 0; g < count; g++) {
      const n = this.st[2 * g + 1]!, total = this.st[2 * g]!
      out[g] = n === 0 ? NaN : this.mode === 'avg' ? total / n : total
    }
    return this.type === 'FLOAT'
      ? { kind: 'f32', type: 'FLOAT', length: count, data: out as Float32Array }
      : { kind: 'f64', type: 'DOUBLE', length: count, data: out as Float64Array }
  }
}

/** The hot loop of sum/avg over DOUBLE: monomorphic on Float64Array; `st` as {@link DoubleSumKernel.st}. */
function addF64(groups: Int32Array, d: Float64Array, st: Float64Array, length: number): void {
  for (let i = 0; i < length; i++) {
    const x = d[i]!
    if (x - x === 0) {
      const j = groups[i]! << 1
      st[j] = st[j]! + x
      st[j + 1]!++
    }
  }
}
