/**
 * `min(x)` / `max(x)` over numbers (INT, LONG, FLOAT, DOUBLE; BYTE and SHORT arrive as INT),
 * DATE, TIMESTAMP, CHAR, IPv4 (unsigned order) and text (STRING, VARCHAR; SYMBOL arrives as
 * STRING). Nulls are skipped; a group without a non-null value gives null.
 *
 * Numeric values are kept in one Float64Array per group (NaN = none yet) so the hot loop is a
 * single comparison; i64 input that is not a safe integer (BigInt64Array) switches the kernel to
 * an exact bigint mode.
 */
import type { ColumnType } from '../../types/column-type.js'
import { INT_NULL, LONG_NULL } from '../../types/column-type.js'
import { allocate, type Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef, Signature } from '../registry-types.js'
import { aggregate, arg, grow, growArray, sameGroup } from './agg-util.js'
import { decimalAggregateKernel } from './decimal-aggregates.js'
import { DECIMAL_MINMAX_SIGNATURE } from './decimal-signatures.js'

/** min or max kernel for one call site. */
export class MinMaxKernel implements AggregateKernel {
  best = new Float64Array(0)
  text: (string | null)[] = []
  /** exact mode for i64 values beyond 2^53 */
  big: (bigint | null)[] | null = null

  constructor(readonly isMax: boolean, readonly type: ColumnType) {}

  resize(count: number): void {
    this.best = grow(this.best, count, NaN)
    if (this.type === 'STRING' || this.type === 'VARCHAR') growArray(this.text, count, null)
    if (this.big !== null) growArray(this.big, count, null)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    const best = this.best
    const max = this.isMax
    switch (v.kind) {
      case 'f64': case 'f32': {
        const d = v.data
        if (max) for (let i = 0; i < length; i++) { const x = d[i]!; if (x - x === 0) { const g = groups[i]!; if (!(best[g]! >= x)) best[g] = x } }
        else for (let i = 0; i < length; i++) { const x = d[i]!; if (x - x === 0) { const g = groups[i]!; if (!(best[g]! <= x)) best[g] = x } }
        return
      }
      case 'i32': {
        const d = v.data
        if (v.type === 'IPV4') {
          for (let i = 0; i < length; i++) {
            const x = d[i]! >>> 0
            if (x === 0) continue
            const g = groups[i]!
            const b = best[g]!
            if (max ? !(b >= x) : !(b <= x)) best[g] = x
          }
          return
        }
        if (max) for (let i = 0; i < length; i++) { const x = d[i]!; if (x !== INT_NULL) { const g = groups[i]!; if (!(best[g]! >= x)) best[g] = x } }
        else for (let i = 0; i < length; i++) { const x = d[i]!; if (x !== INT_NULL) { const g = groups[i]!; if (!(best[g]! <= x)) best[g] = x } }
        return
      }
      case 'u16': {
        const d = v.data
        for (let i = 0; i < length; i++) {
          const x = d[i]!
          if (x === 0) continue
          const g = groups[i]!
          const b = best[g]!
          if (max ? !(b >= x) : !(b <= x)) best[g] = x
        }
        return
      }
      case 'i64': {
        const d = v.data
        if (d instanceof Float64Array && this.big === null) {
          if (max) for (let i = 0; i < length; i++) { const x = d[i]!; if (x !== LONG_NULL) { const g = groups[i]!; if (!(best[g]! >= x)) best[g] = x } }
          else for (let i = 0; i < length; i++) { const x = d[i]!; if (x !== LONG_NULL) { const g = groups[i]!; if (!(best[g]! <= x)) best[g] = x } }
          return
        }
        const big = this.exact()
        for (let i = 0; i < length; i++) {
          const raw = d[i]!
          const x = typeof raw === 'bigint' ? raw : raw === LONG_NULL ? null : BigInt(raw)
          if (x === null || x === -9223372036854775808n) continue
          const g = groups[i]!
          const b = big[g]
          if (b === null || b === undefined || (max ? x > b : x < b)) big[g] = x
        }
        return
      }
      case 'str': {
        const d = v.data
        const text = this.text
        for (let i = 0; i < length; i++) {
          const x = d[i]
          if (x === null || x === undefined) continue
          const g = groups[i]!
          const b = text[g]
          if (b === null || b === undefined || (max ? x > b : x < b)) text[g] = x
        }
        return
      }
      case 'sym': {
        const d = v.data
        const vals = v.dict.values
        const text = this.text
        for (let i = 0; i < length; i++) {
          const k = d[i]!
          if (k < 0) continue
          const x = vals[k]!
          const g = groups[i]!
          const b = text[g]
          if (b === null || b === undefined || (max ? x > b : x < b)) text[g] = x
        }
        return
      }
      default: {
        // bool/i8/i16 (never null): compare as numbers
        const d = v.data as ArrayLike<number> | null
        if (d === null) return
        for (let i = 0; i < length; i++) {
          const x = d[i]!
          const g = groups[i]!
          const b = best[g]!
          if (max ? !(b >= x) : !(b <= x)) best[g] = x
        }
      }
    }
  }

  /** Switches to exact bigint values, converting what was collected so far. */
  private exact(): (bigint | null)[] {
    if (this.big === null) {
      this.big = Array.from(this.best, (b) => (b === b ? BigInt(b) : null))
    }
    return this.big
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    const v = arg(args, 0)
    if (v.kind === 'f64') {
      // DOUBLE: the batch's best in four compare chains, not a keyed loop over a group array of zeros
      const b = this.isMax ? finiteMax(v.data, length) : finiteMin(v.data, length)
      if (b - b !== 0) return
      const cur = this.best[group]!
      if (this.isMax ? !(cur >= b) : !(cur <= b)) this.best[group] = b
      return
    }
    if (v.kind === 'i64' && v.data instanceof Float64Array && this.big === null) {
      // LONG, TIMESTAMP, DATE as safe integers (null -2^63): the same, nulls skipped
      const b = this.isMax ? longMax(v.data, length) : longMin(v.data, length)
      if (b === NULL_START || b === Infinity) return
      const cur = this.best[group]!
      if (this.isMax ? !(cur >= b) : !(cur <= b)) this.best[group] = b
      return
    }
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as MinMaxKernel
    if (o.big !== null) this.exact()
    const max = this.isMax
    for (let i = 0; i < count; i++) {
      const f = from[i]!
      const g = to[i]!
      if (this.big !== null) {
        const x = o.big !== null ? o.big[f] ?? null : o.best[f]! === o.best[f]! ? BigInt(o.best[f]!) : null
        const b = this.big[g] ?? null
        if (x !== null && (b === null || (max ? x > b : x < b))) this.big[g] = x
        continue
      }
      const x = o.best[f]!
      if (x === x) { const b = this.best[g]!; if (max ? !(b >= x) : !(b <= x)) this.best[g] = x }
      const s = o.text[f]
      if (s !== null && s !== undefined) { const b = this.text[g]; if (b === null || b === undefined || (max ? s > b : s < b)) this.text[g] = s }
    }
  }

  result(count: number): Vector {
    const type = this.type
    const out = allocate(type, count)
    switch (out.kind) {
      case 'str': for (let g = 0; g < count; g++) out.data[g] = this.text[g] ?? null; return out
      case 'i64': {
        if (this.big !== null) {
          const data = new BigInt64Array(count)
          for (let g = 0; g < count; g++) data[g] = this.big[g] ?? -9223372036854775808n
          return { kind: 'i64', type, length: count, data }
        }
        const d = out.data as Float64Array
        for (let g = 0; g < count; g++) { const b = this.best[g]!; d[g] = b === b ? b : LONG_NULL }
        return out
      }
      case 'i32': {
        const nul = type === 'IPV4' ? 0 : INT_NULL
        for (let g = 0; g < count; g++) { const b = this.best[g]!; out.data[g] = b === b ? b | 0 : nul }
        return out
      }
      case 'f32': case 'f64': case 'u16': case 'bool': case 'i8': case 'i16':
        for (let g = 0; g < count; g++) { const b = this.best[g]!; out.data[g] = b === b ? b : out.kind === 'f32' || out.kind === 'f64' ? NaN : 0 }
        return out
      default: return out
    }
  }
}

/** The largest finite value of `d[0, length)`; -Infinity when there is none (NaN and ±Infinity are nulls). */
function finiteMax(d: Float64Array, length: number): number {
  let h0 = -Infinity, h1 = -Infinity, h2 = -Infinity, h3 = -Infinity, i = 0
  for (; i + 3 < length; i += 4) {
    const x = d[i]!, y = d[i + 1]!, z = d[i + 2]!, w = d[i + 3]!
    if (x > h0 && x !== Infinity) h0 = x
    if (y > h1 && y !== Infinity) h1 = y
    if (z > h2 && z !== Infinity) h2 = z
    if (w > h3 && w !== Infinity) h3 = w
  }
  for (; i < length; i++) { const x = d[i]!; if (x > h0 && x !== Infinity) h0 = x }
  return Math.max(h0, h1, h2, h3)
}

/** The smallest finite value of `d[0, length)`; Infinity when there is none. */
function finiteMin(d: Float64Array, length: number): number {
  let l0 = Infinity, l1 = Infinity, l2 = Infinity, l3 = Infinity, i = 0
  for (; i + 3 < length; i += 4) {
    const x = d[i]!, y = d[i + 1]!, z = d[i + 2]!, w = d[i + 3]!
    if (x < l0 && x !== -Infinity) l0 = x
    if (y < l1 && y !== -Infinity) l1 = y
    if (z < l2 && z !== -Infinity) l2 = z
    if (w < l3 && w !== -Infinity) l3 = w
  }
  for (; i < length; i++) { const x = d[i]!; if (x < l0 && x !== -Infinity) l0 = x }
  return Math.min(l0, l1, l2, l3)
}

/** LONG_NULL as this module's own literal, the start of {@link longMax}'s chains (an imported binding kept them boxed; see decimal-min-max-kernel.ts). */
const NULL_START = -9223372036854775808

/** The largest value of `d[0, length)` (safe integers; the null -2^63 is below them all); -2^63 when every row is null. */
function longMax(d: Float64Array, length: number): number {
  let h0 = NULL_START, h1 = NULL_START, h2 = NULL_START, h3 = NULL_START, i = 0
  for (; i + 3 < length; i += 4) {
    const x = d[i]!, y = d[i + 1]!, z = d[i + 2]!, w = d[i + 3]!
    if (x > h0) h0 = x
    if (y > h1) h1 = y
    if (z > h2) h2 = z
    if (w > h3) h3 = w
  }
  for (; i < length; i++) { const x = d[i]!; if (x > h0) h0 = x }
  return Math.max(h0, h1, h2, h3)
}

/** The smallest non-null value of `d[0, length)`; Infinity when every row is null. */
function longMin(d: Float64Array, length: number): number {
  let l0 = Infinity, l1 = Infinity, l2 = Infinity, l3 = Infinity, i = 0
  for (; i + 3 < length; i += 4) {
    const x = d[i]!, y = d[i + 1]!, z = d[i + 2]!, w = d[i + 3]!
    if (x < l0 && x !== NULL_START) l0 = x
    if (y < l1 && y !== NULL_START) l1 = y
    if (z < l2 && z !== NULL_START) l2 = z
    if (w < l3 && w !== NULL_START) l3 = w
  }
  for (; i < length; i++) { const x = d[i]!; if (x < l0 && x !== NULL_START) l0 = x }
  return Math.min(l0, l1, l2, l3)
}

const TYPES: readonly ColumnType[] = ['INT', 'LONG', 'FLOAT', 'DOUBLE', 'DATE', 'TIMESTAMP', 'TIMESTAMP_NS', 'CHAR', 'IPV4', 'STRING', 'VARCHAR']
const SIGNATURES: readonly Signature[] = [...TYPES.map((t): Signature => ({ args: [t], returns: t })), DECIMAL_MINMAX_SIGNATURE]

function minMax(name: 'min' | 'max'): FunctionDef {
  return aggregate({
    name,
    signatures: SIGNATURES,
    description: `The ${name === 'min' ? 'smallest' : 'largest'} non-null value; SHORT and BYTE give INT, text compares by UTF-16 code units, IPv4 as unsigned.`,
    example: `SELECT ${name}(x) FROM long_sequence(10)`,
    create: (site) => decimalAggregateKernel(name, site) ?? new MinMaxKernel(name === 'max', site.returns),
  })
}

/** min and max. */
export const MIN_MAX_FUNCTIONS: readonly FunctionDef[] = [minMax('min'), minMax('max')]
