/**
 * `count()` / `count(*)` (every row) and `count(x)` (non-null values), both LONG; a group that
 * saw no rows counts 0.
 */
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { aggregate, arg, grow, nullMask } from './agg-util.js'
import { INT_NULL, LONG_NULL } from '../../types/column-type.js'
import { nullsOf } from '../../types/null-count.js'

/** Row counter; with `nonNull`, counts only rows whose first argument is not null. */
export class CountKernel implements AggregateKernel {
  counts = new Float64Array(0)

  constructor(readonly nonNull: boolean) {}

  resize(count: number): void {
    this.counts = grow(this.counts, count)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const c = this.counts
    if (!this.nonNull) { countRows(groups, c, length); return }
    const v = arg(args, 0)
    if (v.isConst !== true) {
      if (v.kind === 'f64') { countFinite64(groups, v.data, c, length); return }
      if (v.kind === 'f32') { countFinite32(groups, v.data, c, length); return }
      if (v.kind === 'i64' && v.data instanceof Float64Array) { countUnlike64(groups, v.data, LONG_NULL, c, length); return }
      if (v.kind === 'i32') { countUnlike32(groups, v.data, v.type === 'IPV4' ? 0 : INT_NULL, c, length); return }
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
 * per batch costs as much as the count itself here: new pages are paid on first touch). Four rows
 * a step, so the loads and tests of one row do not wait on the previous row's increment (1.56
 * against 1.79 ns/row over 100 groups in one run; no slower when every row has one group), and one
 * function per array type, so each loop's loads stay monomorphic (null-count.ts does the same).
 */

/** Keyed count of every row (`count()`), four rows a step (0.78 against 1.33 ns/row over 100 groups in one run; equal with one group). */
function countRows(groups: Int32Array, c: Float64Array, length: number): void {
  let i = 0
  for (; i + 3 < length; i += 4) {
    c[groups[i]!]!++
    c[groups[i + 1]!]!++
    c[groups[i + 2]!]!++
    c[groups[i + 3]!]!++
  }
  for (; i < length; i++) c[groups[i]!]!++
}

/** Keyed count of the finite values of `d` (DOUBLE: NaN and ±Infinity are null). */
function countFinite64(groups: Int32Array, d: Float64Array, c: Float64Array, length: number): void {
  let i = 0
  for (; i + 3 < length; i += 4) {
    const x = d[i]!, y = d[i + 1]!, z = d[i + 2]!, w = d[i + 3]!
    if (x - x === 0) c[groups[i]!]!++
    if (y - y === 0) c[groups[i + 1]!]!++
    if (z - z === 0) c[groups[i + 2]!]!++
    if (w - w === 0) c[groups[i + 3]!]!++
  }
  for (; i < length; i++) { const x = d[i]!; if (x - x === 0) c[groups[i]!]!++ }
}

/** {@link countFinite64} over FLOAT values. */
function countFinite32(groups: Int32Array, d: Float32Array, c: Float64Array, length: number): void {
  let i = 0
  for (; i + 3 < length; i += 4) {
    const x = d[i]!, y = d[i + 1]!, z = d[i + 2]!, w = d[i + 3]!
    if (x - x === 0) c[groups[i]!]!++
    if (y - y === 0) c[groups[i + 1]!]!++
    if (z - z === 0) c[groups[i + 2]!]!++
    if (w - w === 0) c[groups[i + 3]!]!++
  }
  for (; i < length; i++) { const x = d[i]!; if (x - x === 0) c[groups[i]!]!++ }
}

/** Keyed count of the values of `d` other than the null sentinel `nul` (LONG-like held as doubles, DECIMAL up to 18 digits). */
function countUnlike64(groups: Int32Array, d: Float64Array, nul: number, c: Float64Array, length: number): void {
  let i = 0
  for (; i + 3 < length; i += 4) {
    if (d[i] !== nul) c[groups[i]!]!++
    if (d[i + 1] !== nul) c[groups[i + 1]!]!++
    if (d[i + 2] !== nul) c[groups[i + 2]!]!++
    if (d[i + 3] !== nul) c[groups[i + 3]!]!++
  }
  for (; i < length; i++) if (d[i] !== nul) c[groups[i]!]!++
}

/** {@link countUnlike64} over INT / IPV4 values. */
function countUnlike32(groups: Int32Array, d: Int32Array, nul: number, c: Float64Array, length: number): void {
  let i = 0
  for (; i + 3 < length; i += 4) {
    if (d[i] !== nul) c[groups[i]!]!++
    if (d[i + 1] !== nul) c[groups[i + 1]!]!++
    if (d[i + 2] !== nul) c[groups[i + 2]!]!++
    if (d[i + 3] !== nul) c[groups[i + 3]!]!++
  }
  for (; i < length; i++) if (d[i] !== nul) c[groups[i]!]!++
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
