/**
 * Shared building blocks for scalar kernels: reading any numeric vector as doubles, exact
 * 64-bit reads, text reads, result allocation and the "stride" trick that lets one loop serve
 * both a column and a constant (`data[i * stride]`, stride 0 for constants).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { internalError } from '../errors.js'
import { INT_NULL, LONG_NULL, LONG_NULL_BIG } from '../types/column-type.js'
import type { ColumnType } from '../types/column-type.js'
import { allocate } from '../types/vector.js'
import type { BoolVector, I64Vector, Vector } from '../types/vector.js'

/** Largest safe integer (2^53 - 1). */
export const MAX_SAFE = Number.MAX_SAFE_INTEGER

/** 0 for a constant vector (every row reads index 0), 1 otherwise. */
export function stride(v: Vector): number {
  return v.isConst === true ? 0 : 1
}

/** A vector viewed as doubles: `data[i * s]` is row i, NaN for null. */
export interface F64View {
  readonly data: Float64Array
  readonly s: number
}

/**
 * Reads a numeric, temporal, CHAR, IPv4 or BOOLEAN vector as doubles with null as NaN.
 * A non-constant DOUBLE vector is returned without copying. BigInt i64 values are rounded.
 */
export function toF64(v: Vector): F64View {
  const s = stride(v)
  const n = s === 0 ? 1 : v.length
  switch (v.kind) {
    case 'f64': return { data: v.data, s }
    case 'f32': case 'i8': case 'i16': case 'bool': {
      const out = new Float64Array(n)
      for (let i = 0; i < n; i++) out[i] = v.data[i]!
      return { data: out, s }
    }
    case 'u16': {
      const out = new Float64Array(n)
      for (let i = 0; i < n; i++) { const c = v.data[i]!; out[i] = c === 0 ? NaN : c }
      return { data: out, s }
    }
    case 'i32': {
      const out = new Float64Array(n)
      const src = v.data
      if (v.type === 'IPV4') for (let i = 0; i < n; i++) { const x = src[i]!; out[i] = x === 0 ? NaN : x >>> 0 }
      else for (let i = 0; i < n; i++) { const x = src[i]!; out[i] = x === INT_NULL ? NaN : x }
      return { data: out, s }
    }
    case 'i64': {
      const out = new Float64Array(n)
      const src = v.data
      if (src instanceof Float64Array) for (let i = 0; i < n; i++) { const x = src[i]!; out[i] = x === LONG_NULL ? NaN : x }
      else for (let i = 0; i < n; i++) { const x = src[i]!; out[i] = x === LONG_NULL_BIG ? NaN : Number(x) }
      return { data: out, s }
    }
    case 'null': return { data: new Float64Array(1).fill(NaN), s: 0 }
    case 'sym': case 'str': case 'bin': case 'arr':
      throw internalError(`toF64: ${v.type} is not numeric`)
  }
}

/** Reads row i of an i64 vector exactly as a bigint (the null sentinel included). */
export function bigAt(v: I64Vector, i: number): bigint {
  const x = v.data[v.isConst === true ? 0 : i]!
  if (typeof x === 'bigint') return x
  return x === LONG_NULL ? LONG_NULL_BIG : BigInt(x)
}

/** True when the vector is i64 with BigInt storage (kernels take their exact path). */
export function isBigI64(v: Vector): boolean {
  return v.kind === 'i64' && v.data instanceof BigInt64Array
}

/** A fresh BOOLEAN vector of `length` rows, all false. */
export function boolOut(length: number): BoolVector {
  return allocate('BOOLEAN', length) as BoolVector
}

/** A constant BOOLEAN vector. */
export function boolConst(value: boolean, length: number): BoolVector {
  const data = new Uint8Array(1)
  data[0] = value ? 1 : 0
  return { kind: 'bool', type: 'BOOLEAN', length, data, isConst: true }
}

/**
 * Builds an i64 vector from exact bigints (null sentinel allowed), compacting it to the
 * Float64Array form when every value is safe.
 */
export function i64FromBig(type: ColumnType, data: BigInt64Array): I64Vector {
  const out = new Float64Array(data.length)
  for (let i = 0; i < data.length; i++) {
    const x = data[i]!
    if (x === LONG_NULL_BIG) out[i] = LONG_NULL
    else if (x >= -9007199254740991n && x <= 9007199254740991n) out[i] = Number(x)
    else return { kind: 'i64', type, length: data.length, data }
  }
  return { kind: 'i64', type, length: data.length, data: out }
}

/** Reads row i of a text-like vector (STRING, VARCHAR, SYMBOL, CHAR, NULL) as a string or null. */
export function textAt(v: Vector, i: number): string | null {
  const j = v.isConst === true ? 0 : i
  switch (v.kind) {
    case 'str': return v.data[j]!
    case 'sym': { const k = v.data[j]!; return k < 0 ? null : v.dict.values[k]! }
    case 'u16': { const c = v.data[j]!; return c === 0 ? null : String.fromCharCode(c) }
    case 'null': return null
    default: throw internalError(`textAt: ${v.type} is not text`)
  }
}

/** True for the vector kinds {@link textAt} reads. */
export function isTextKind(v: Vector): boolean {
  return v.kind === 'str' || v.kind === 'sym' || v.kind === 'u16' || v.kind === 'null'
}

/** The text result type of a function over text arguments: VARCHAR when any is VARCHAR, else STRING. */
export function textResultType(args: readonly ColumnType[]): ColumnType {
  return args.includes('VARCHAR') ? 'VARCHAR' : 'STRING'
}

/** A string vector of `length` values, to be filled by a kernel. */
export function strOut(type: ColumnType, length: number): { kind: 'str'; type: ColumnType; length: number; data: (string | null)[] } {
  return { kind: 'str', type, length, data: new Array<string | null>(length).fill(null) }
}
