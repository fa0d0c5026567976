/**
 * Per-group sum and count of finite doubles (nulls — NaN and ±Infinity — skipped): the kernel
 * behind `sum(double)`, `sum(float)` and `avg(x)`. `avg` of INT or LONG reads the integers
 * themselves (their null sentinels skipped), each as the double a cast would give, so no DOUBLE
 * copy of the column is made per batch.
 *
 * A group's running total and its count sit side by side in one array (`st`: total at 2g, count
 * at 2g+1), so the keyed row loop touches one array and one cache line per row: 2.33 against
 * 3.23 ns/row with two arrays (2M rows in 65,536-row batches, 100 groups, load 15), as the
 * DECIMAL kernel does (decimal-sum-kernel.ts).
 */
import { INT_NULL, LONG_NULL, type ColumnType } from '../../types/column-type.js'
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel } from '../registry-types.js'
import { arg, grow } from './agg-util.js'

/** What the kernel returns per group. */
export type DoubleSumMode = 'sum' | 'avg'

/** Sum (or average) of DOUBLE/FLOAT input; groups without a finite value give null. */
export class DoubleSumKernel implements AggregateKernel {
  /** per group g: at 2g the running total, at 2g+1 the count of finite values */
  st = new Float64Array(0)

  /**
   * `type` is the result type (DOUBLE, or FLOAT for sum(float)); `integers`: the argument is INT
   * or LONG (i32 / i64 vectors), not DOUBLE or FLOAT.
   */
  constructor(readonly mode: DoubleSumMode, readonly type: ColumnType = 'DOUBLE', readonly integers = false) {}

  resize(count: number): void {
    this.st = grow(this.st, 2 * count)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    const st = this.st
    if (this.integers) {
      if (v.kind === 'i32') addI32(groups, v.data, st, length)
      else if (v.data instanceof Float64Array) addI64(groups, v.data, st, length)
      else addF64(groups, bigDoubles(v.data as BigInt64Array, length), st, length)
      return
    }
    const d = v.data as Float64Array | Float32Array
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
    const v = arg(args, 0)
    if (this.type === 'FLOAT') {
      const d = v.data as Float32Array
      let n = 0
      const f = new Float32Array(1)
      f[0] = this.st[2 * group]!
      for (let i = 0; i < length; i++) { const x = d[i]!; if (x - x === 0) { f[0] = f[0]! + x; n++ } }
      this.st[2 * group] = f[0]!
      this.st[2 * group + 1] = this.st[2 * group + 1]! + n
      return
    }
    const acc = ACC
    if (this.integers && v.kind === 'i32') sumI32(v.data, length, acc)
    else if (this.integers && v.data instanceof Float64Array) sumI64(v.data, length, acc)
    else if (this.integers) sumF64(bigDoubles(v.data as BigInt64Array, length), length, acc)
    else if (v.data instanceof Float64Array) sumF64(v.data, length, acc)
    else sumF32(v.data as Float32Array, length, acc)
    this.st[2 * group] = this.st[2 * group]! + acc[0]!
    this.st[2 * group + 1] = this.st[2 * group + 1]! + acc[1]!
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

/** Keyed sum/count of INT values (INT_NULL skipped). */
function addI32(groups: Int32Array, d: Int32Array, st: Float64Array, length: number): void {
  for (let i = 0; i < length; i++) {
    const x = d[i]!
    if (x !== INT_NULL) {
      const j = groups[i]! << 1
      st[j] = st[j]! + x
      st[j + 1]!++
    }
  }
}

/** Keyed sum/count of LONG values held as doubles (LONG_NULL skipped). */
function addI64(groups: Int32Array, d: Float64Array, st: Float64Array, length: number): void {
  for (let i = 0; i < length; i++) {
    const x = d[i]!
    if (x !== LONG_NULL) {
      const j = groups[i]! << 1
      st[j] = st[j]! + x
      st[j + 1]!++
    }
  }
}

/** BigInt LONG values (some not safe integers) as the doubles a cast gives, nulls as NaN. */
function bigDoubles(b: BigInt64Array, length: number): Float64Array {
  const out = new Float64Array(length)
  for (let i = 0; i < length; i++) { const x = b[i]!; out[i] = x === -9223372036854775808n ? NaN : Number(x) }
  return out
}

/*
 * The unkeyed sums: four running sums and counts, so an addition does not wait on the one before
 * (a floating-point add takes several cycles); the four are added at the end of the batch. The
 * batch's total is then added to the group's, as before. Like any split of the rows (a parallel
 * GROUP BY's shares), this may round differently from one running sum in the last bits.
 * Each writes the batch's sum to out[0] and the number of values summed to out[1].
 */

/** The batch sum's scratch (sum, count): one per thread, reused, read at once. */
const ACC = new Float64Array(2)

/** The sum and number of the finite values of d[0..length), into out[0] and out[1]. */
export function sumF64(d: Float64Array, length: number, out: Float64Array): void {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, n0 = 0, n1 = 0, n2 = 0, n3 = 0, i = 0
  for (; i + 3 < length; i += 4) {
    const a = d[i]!, b = d[i + 1]!, c = d[i + 2]!, e = d[i + 3]!
    if (a - a === 0) { s0 += a; n0++ }
    if (b - b === 0) { s1 += b; n1++ }
    if (c - c === 0) { s2 += c; n2++ }
    if (e - e === 0) { s3 += e; n3++ }
  }
  for (; i < length; i++) { const x = d[i]!; if (x - x === 0) { s0 += x; n0++ } }
  out[0] = (s0 + s1) + (s2 + s3)
  out[1] = n0 + n1 + n2 + n3
}

/** {@link sumF64} over FLOAT values (summed as doubles, for avg(float)). */
function sumF32(d: Float32Array, length: number, out: Float64Array): void {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, n0 = 0, n1 = 0, n2 = 0, n3 = 0, i = 0
  for (; i + 3 < length; i += 4) {
    const a = d[i]!, b = d[i + 1]!, c = d[i + 2]!, e = d[i + 3]!
    if (a - a === 0) { s0 += a; n0++ }
    if (b - b === 0) { s1 += b; n1++ }
    if (c - c === 0) { s2 += c; n2++ }
    if (e - e === 0) { s3 += e; n3++ }
  }
  for (; i < length; i++) { const x = d[i]!; if (x - x === 0) { s0 += x; n0++ } }
  out[0] = (s0 + s1) + (s2 + s3)
  out[1] = n0 + n1 + n2 + n3
}

/** {@link sumF64} over INT values (INT_NULL skipped). */
function sumI32(d: Int32Array, length: number, out: Float64Array): void {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, n0 = 0, n1 = 0, n2 = 0, n3 = 0, i = 0
  for (; i + 3 < length; i += 4) {
    const a = d[i]!, b = d[i + 1]!, c = d[i + 2]!, e = d[i + 3]!
    if (a !== INT_NULL) { s0 += a; n0++ }
    if (b !== INT_NULL) { s1 += b; n1++ }
    if (c !== INT_NULL) { s2 += c; n2++ }
    if (e !== INT_NULL) { s3 += e; n3++ }
  }
  for (; i < length; i++) { const x = d[i]!; if (x !== INT_NULL) { s0 += x; n0++ } }
  out[0] = (s0 + s1) + (s2 + s3)
  out[1] = n0 + n1 + n2 + n3
}

/** {@link sumF64} over LONG values held as doubles (LONG_NULL skipped). */
function sumI64(d: Float64Array, length: number, out: Float64Array): void {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, n0 = 0, n1 = 0, n2 = 0, n3 = 0, i = 0
  for (; i + 3 < length; i += 4) {
    const a = d[i]!, b = d[i + 1]!, c = d[i + 2]!, e = d[i + 3]!
    if (a !== LONG_NULL) { s0 += a; n0++ }
    if (b !== LONG_NULL) { s1 += b; n1++ }
    if (c !== LONG_NULL) { s2 += c; n2++ }
    if (e !== LONG_NULL) { s3 += e; n3++ }
  }
  for (; i < length; i++) { const x = d[i]!; if (x !== LONG_NULL) { s0 += x; n0++ } }
  out[0] = (s0 + s1) + (s2 + s3)
  out[1] = n0 + n1 + n2 + n3
}
