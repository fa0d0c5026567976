/**
 * Reading DECIMAL (and integer) vectors for decimal kernels: the unscaled value of a row as a
 * bigint (the slow, exact path), and the whole vector as unscaled doubles at a wanted scale when
 * every value stays a safe integer (the fast path, no BigInt per row).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { type ColumnType, INT_NULL, LONG_NULL } from '../types/column-type.js'
import { type DecimalType, isDecimal, parseUnscaled, decimalScale, decimalScalar, integralAsDecimal, pow10n, POW10_NUM } from '../types/decimal.js'
import { type Vector, VectorWriter } from '../types/vector.js'

const MAX_SAFE = Number.MAX_SAFE_INTEGER

/** The DECIMAL view of a kernel argument's type: a decimal, or DECIMAL(n,0) for an integer type. */
export function decimalView(t: ColumnType): DecimalType {
  if (isDecimal(t)) return t
  return integralAsDecimal(t) ?? 'DECIMAL(19,0)'
}

/** The unscaled value (at the vector's own scale) of row `i`, or null. */
export function unscaledAt(v: Vector, i: number): bigint | null {
  const j = v.isConst === true ? 0 : i
  switch (v.kind) {
    case 'i64': {
      const x = v.data[j]!
      if (typeof x === 'bigint') return x === -9223372036854775808n ? null : x
      return x === LONG_NULL ? null : BigInt(x)
    }
    case 'i32': { const x = v.data[j]!; return x === INT_NULL ? null : BigInt(x) }
    case 'i16': case 'i8': return BigInt(v.data[j]!)
    case 'str': { const s = v.data[j]; return s === null || s === undefined ? null : parseUnscaled(s, decimalScale(decimalView(v.type))) ?? null }
    default: return null
  }
}

/**
 * The vector's unscaled values raised to `scale` as doubles (null = -2^63), when every value is
 * a safe integer after scaling; undefined otherwise (BigInt64Array data, wide decimals, unsafe
 * values). Row count `n` (1 for a constant).
 */
export function scaledDoubles(v: Vector, scale: number, n: number): Float64Array | undefined {
  const own = decimalScale(decimalView(v.type))
  const k = scale - own
  if (k < 0 || k > 22) return undefined
  const f = POW10_NUM[k]!
  const d = v.data
  if (d instanceof Float64Array && v.kind === 'i64') {
    if (k === 0) return n === d.length ? d : d.subarray(0, n)
    const out = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      const x = d[i]!
      if (x === LONG_NULL) { out[i] = LONG_NULL; continue }
      const y = x * f
      if (y > MAX_SAFE || y < -MAX_SAFE) return undefined
      out[i] = y
    }
    return out
  }
  if (d instanceof Int32Array || d instanceof Int16Array || d instanceof Int8Array) {
    const out = new Float64Array(n)
    const nul = v.kind === 'i32' ? INT_NULL : NaN
    for (let i = 0; i < n; i++) {
      const x = d[i]!
      if (x === nul) { out[i] = LONG_NULL; continue }
      const y = x * f
      if (y > MAX_SAFE || y < -MAX_SAFE) return undefined
      out[i] = y
    }
    return out
  }
  return undefined
}

/** Rescales a bigint from the vector's scale to `scale` (only ever up). */
export function up(u: bigint, from: number, to: number): bigint {
  return to === from ? u : u * pow10n(to - from)
}

/** Builds a decimal result vector from bigints (slow path). */
export class DecimalWriter {
  private readonly w: VectorWriter
  constructor(readonly type: DecimalType, n: number) { this.w = new VectorWriter(type, n) }
  /** Sets row `i` to unscaled `u` (null for null). */
  set(i: number, u: bigint | null): void { this.w.set(i, u === null ? null : decimalScalar(u, this.type)) }
  /** The vector. */
  finish(): Vector { return this.w.finish() }
}
