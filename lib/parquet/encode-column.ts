/**
 * Column vectors to the arrays hyparquet-writer encodes: typed arrays when a column chunk has no
 * null (fast path), plain arrays with `null` otherwise. EpochDB's null sentinels (NaN doubles,
 * -2^63 longs, -2^31 ints, 0 IPv4/CHAR, -1 symbol keys) become Parquet nulls.
 */
import type { DecodedArray } from 'hyparquet'
import { INT_NULL, LONG_NULL } from '../types/column-type.js'
import { getScalar, isNullAt, materialize, type Vector } from '../types/vector.js'
import { isDecimal, unscaledOf } from '../types/decimal.js'
import { type ArrVector, arrIsNull } from '../types/array-vector.js'

/** Hex text of a LONG256 (`0x...`) as 32 big-endian bytes. */
export function long256Bytes(text: string): Uint8Array {
  const out = new Uint8Array(32)
  const hex = text.slice(2)
  for (let i = hex.length, o = 31; i > 0 && o >= 0; i -= 2, o--) out[o] = parseInt(hex.slice(Math.max(0, i - 2), i), 16)
  return out
}

function hasNull(v: Vector): boolean {
  const n = v.length
  switch (v.kind) {
    case 'bool': case 'i8': case 'i16': return false
    case 'f64': case 'f32': { const d = v.data; for (let i = 0; i < n; i++) if (!Number.isFinite(d[i]!)) return true; return false }
    case 'i64': {
      const d = v.data
      if (d instanceof Float64Array) { for (let i = 0; i < n; i++) if (d[i] === LONG_NULL) return true; return false }
      break
    }
    case 'i32': {
      const d = v.data
      const nul = v.type === 'IPV4' ? 0 : INT_NULL
      for (let i = 0; i < n; i++) if (d[i] === nul) return true
      return false
    }
    default: break
  }
  for (let i = 0; i < n; i++) if (isNullAt(v, i)) return true
  return false
}

/** One array row as the nested lists hyparquet-writer's Dremel encoder takes (NaN elements as null). */
type NestedDoubles = (number | null | NestedDoubles)[]

function nestedRow(v: ArrVector, i: number): NestedDoubles | null {
  if (arrIsNull(v, i)) return null
  const j = v.isConst === true ? 0 : i
  const d = v.dims
  const base = v.offsets[j]!
  if (v.offsets[j + 1]! === base) return []
  const shape = v.shapes.subarray(j * d, j * d + d)
  const data = v.data
  let at = base
  const level = (k: number): NestedDoubles => {
    const n = shape[k]!
    const out: NestedDoubles = new Array(n)
    if (k === d - 1) for (let e = 0; e < n; e++) { const x = data[at++]!; out[e] = Number.isFinite(x) ? x : null }
    else for (let e = 0; e < n; e++) out[e] = level(k + 1)
    return out
  }
  return level(0)
}

/** The values of `parts` (vectors of one column, `rows` values in all) as one writer array. */
export function columnValues(parts: readonly Vector[], rows: number): DecodedArray {
  const vs = parts.map(materialize)
  const first = vs[0]
  if (first === undefined) return []
  const nulls = vs.some(hasNull)
  switch (first.kind) {
    case 'f64': case 'f32': {
      if (!nulls) {
        const out = first.kind === 'f64' ? new Float64Array(rows) : new Float32Array(rows)
        let o = 0
        for (const v of vs) { out.set(v.data as Float64Array, o); o += v.length }
        return out
      }
      break
    }
    case 'i32':
      if (first.type === 'INT' && !nulls) {
        const out = new Int32Array(rows)
        let o = 0
        for (const v of vs) { out.set(v.data as Int32Array, o); o += v.length }
        return out
      }
      if (first.type === 'IPV4') {
        const out: (number | null)[] = new Array(rows)
        let o = 0
        for (const v of vs) for (let i = 0; i < v.length; i++) { const x = (v.data as Int32Array)[i]!; out[o++] = x === 0 ? null : x >>> 0 }
        return out
      }
      break
    case 'i64': {
      if (!nulls) {
        const out = new BigInt64Array(rows)
        let o = 0
        // safe integers (a Float64Array) are written as two 32-bit halves, not one BigInt each
        const halves = new Int32Array(out.buffer)
        for (const v of vs) {
          const d = v.data as Float64Array | BigInt64Array
          if (d instanceof BigInt64Array) { out.set(d, o); o += v.length; continue }
          for (let i = 0; i < v.length; i++, o++) {
            const x = d[i]!
            const hi = Math.floor(x / 4294967296)
            halves[2 * o] = x - hi * 4294967296
            halves[2 * o + 1] = hi
          }
        }
        return out
      }
      const out: (bigint | null)[] = new Array(rows)
      let o = 0
      for (const v of vs) {
        const d = v.data as Float64Array | BigInt64Array
        for (let i = 0; i < v.length; i++) {
          const x = d[i]!
          out[o++] = typeof x === 'bigint' ? (x === -9223372036854775808n ? null : x) : x === LONG_NULL ? null : BigInt(x)
        }
      }
      return out
    }
    case 'sym': {
      const out: (string | null)[] = new Array(rows)
      let o = 0
      for (const v of vs) {
        const d = v.data as Int32Array
        const dict = (v as { dict: { values: string[] } }).dict.values
        for (let i = 0; i < v.length; i++) { const k = d[i]!; out[o++] = k < 0 ? null : dict[k]! }
      }
      return out
    }
    case 'u16': {
      const out: (number | null)[] = new Array(rows)
      let o = 0
      for (const v of vs) for (let i = 0; i < v.length; i++) { const c = (v.data as Uint16Array)[i]!; out[o++] = c === 0 ? null : c }
      return out
    }
    case 'arr': {
      const out: (NestedDoubles | null)[] = new Array(rows)
      let o = 0
      for (const v of vs) for (let i = 0; i < v.length; i++) out[o++] = nestedRow(v as ArrVector, i)
      return out as DecodedArray
    }
    default: break
  }
  const out: unknown[] = new Array(rows)
  let o = 0
  for (const v of vs) {
    for (let i = 0; i < v.length; i++) {
      const s = getScalar(v, i)
      if (s === null) { out[o++] = null; continue }
      if (isDecimal(v.type)) { out[o++] = unscaledOf(s as string, v.type); continue } // a wide DECIMAL's exact text
      switch (v.type) {
        case 'LONG256': out[o++] = long256Bytes(s as string); break
        case 'INT': out[o++] = s === INT_NULL ? null : s; break
        default: out[o++] = s
      }
    }
  }
  return out as DecodedArray
}
