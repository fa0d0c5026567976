/**
 * `count()` / `count(*)` (every row) and `count(x)` (non-null values), both LONG; a group that
 * saw no rows counts 0.
 */
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { aggregate, arg, grow, nullMask } from './agg-util.js'
import { INT_NULL, LONG_NULL } from '../../types/column-type.js'

/** Row counter; with `nonNull`, counts only rows whose first argument is not null. */
export class CountKernel implements AggregateKernel {
  counts = new Float64Array(0)

  constructor(readonly nonNull: boolean) {}

  resize(count: number): void {
    this.counts = grow(this.counts, count)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const c = this.counts
    if (!this.nonNull) {
      for (let i = 0; i < length; i++) c[groups[i]!]!++
      return
    }
    const v = arg(args, 0)
    if (v.isConst !== true) {
      if (v.kind === 'f64' || v.kind === 'f32') { countFinite(groups, v.data, c, length); return }
      if (v.kind === 'i64' && v.data instanceof Float64Array) { countUnlike(groups, v.data, LONG_NULL, c, length); return }
      if (v.kind === 'i32') { countUnlike(groups, v.data, v.type === 'IPV4' ? 0 : INT_NULL, c, length); return }
    }
    const m = nullMask(v, length)
    for (let i = 0; i < length; i++) if (m[i] === 0) c[groups[i]!]!++
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    if (!this.nonNull) { this.counts[group] = this.counts[group]! + length; return }
    const v = args[0]!
    this.counts[group] = this.counts[group]! + (length - nullsOf(v, length))
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = (other as CountKernel).counts
    for (let i = 0; i < count; i++) { const g = to[i]!; this.counts[g] = this.counts[g]! + o[from[i]!]! }
  }

  result(count: number): Vector {
    return { kind: 'i64', type: 'LONG', length: count, data: this.counts.slice(0, count) }
  }
}

/*
 * The null tests of count(x) inline, without building a null mask per batch (a fresh 64 KiB array
 * per batch costs as much as the count itself here: new pages are paid on first touch).
 */

/** Keyed count of the finite values of `d` (DOUBLE / FLOAT: NaN and ±Infinity are null). */
function countFinite(groups: Int32Array, d: Float64Array | Float32Array, c: Float64Array, length: number): void {
  for (let i = 0; i < length; i++) { const x = d[i]!; if (x - x === 0) c[groups[i]!]!++ }
}

/** Keyed count of the values of `d` other than the null sentinel `nul` (INT, IPV4, LONG-like held as doubles). */
function countUnlike(groups: Int32Array, d: Int32Array | Float64Array, nul: number, c: Float64Array, length: number): void {
  for (let i = 0; i < length; i++) if (d[i] !== nul) c[groups[i]!]!++
}

/**
 * Nulls among the first `length` values of `v` (a constant: all or none): the unkeyed count's
 * whole work. Each layout's test runs four rows a step into four counters, so the compares do
 * not wait on one counter's increments (0.75 against 1.28 ns/row for one counter over 2M LONG
 * values in 64 Ki batches; docs/benchmarks.md, unkeyed session).
 */
function nullsOf(v: Vector, length: number): number {
  if (v.isConst === true) return nullMask(v, 1)[0] === 1 ? length : 0
  if (v.kind === 'f64') return nonFiniteF64(v.data, length)
  if (v.kind === 'f32') return nonFiniteF32(v.data, length)
  if (v.kind === 'i64' && v.data instanceof Float64Array) return equalToF64(v.data, LONG_NULL, length)
  if (v.kind === 'i32') return equalToI32(v.data, v.type === 'IPV4' ? 0 : INT_NULL, length)
  const m = nullMask(v, length)
  let n = 0
  for (let i = 0; i < length; i++) n += m[i]!
  return n
}

/*
 * One function per array type, so each loop's loads stay monomorphic (V8 compiles a loop per
 * call site's element kinds; a shared loop over two array types slows both).
 */

/** Values among the first `length` of `d` that are NaN or infinite (DOUBLE nulls). */
function nonFiniteF64(d: Float64Array, length: number): number {
  let n0 = 0, n1 = 0, n2 = 0, n3 = 0, i = 0
  for (; i + 3 < length; i += 4) {
    const a = d[i]!, b = d[i + 1]!, c = d[i + 2]!, e = d[i + 3]!
    if (a - a !== 0) n0++
    if (b - b !== 0) n1++
    if (c - c !== 0) n2++
    if (e - e !== 0) n3++
  }
  for (; i < length; i++) { const x = d[i]!; if (x - x !== 0) n0++ }
  return n0 + n1 + n2 + n3
}

/** Values among the first `length` of `d` that are NaN or infinite (FLOAT nulls). */
function nonFiniteF32(d: Float32Array, length: number): number {
  let n0 = 0, n1 = 0, n2 = 0, n3 = 0, i = 0
  for (; i + 3 < length; i += 4) {
    const a = d[i]!, b = d[i + 1]!, c = d[i + 2]!, e = d[i + 3]!
    if (a - a !== 0) n0++
    if (b - b !== 0) n1++
    if (c - c !== 0) n2++
    if (e - e !== 0) n3++
  }
  for (; i < length; i++) { const x = d[i]!; if (x - x !== 0) n0++ }
  return n0 + n1 + n2 + n3
}

/** Values among the first `length` of `d` equal to the null sentinel `nul` (LONG-like values held as doubles). */
function equalToF64(d: Float64Array, nul: number, length: number): number {
  let n0 = 0, n1 = 0, n2 = 0, n3 = 0, i = 0
  for (; i + 3 < length; i += 4) {
    if (d[i] === nul) n0++
    if (d[i + 1] === nul) n1++
    if (d[i + 2] === nul) n2++
    if (d[i + 3] === nul) n3++
  }
  for (; i < length; i++) if (d[i] === nul) n0++
  return n0 + n1 + n2 + n3
}

/** Values among the first `length` of `d` equal to the null sentinel `nul` (INT, IPV4). */
function equalToI32(d: Int32Array, nul: number, length: number): number {
  let n0 = 0, n1 = 0, n2 = 0, n3 = 0, i = 0
  for (; i + 3 < length; i += 4) {
    if (d[i] === nul) n0++
    if (d[i + 1] === nul) n1++
    if (d[i + 2] === nul) n2++
    if (d[i + 3] === nul) n3++
  }
  for (; i < length; i++) if (d[i] === nul) n0++
  return n0 + n1 + n2 + n3
}

const count = aggregate({
  name: 'count',
  signatures: [{ args: [], returns: 'LONG' }, { args: ['ANY'], returns: 'LONG' }],
  description: 'count() counts rows; count(x) counts rows where x is not null.',
  example: 'SELECT count(), count(x) FROM long_sequence(10)',
  create: (site) => new CountKernel(site.argTypes.length > 0),
})

/** count. */
export const COUNT_FUNCTIONS: readonly FunctionDef[] = [count]
