/**
 * Column vectors: the unit of data every operator and function kernel works on.
 *
 * A vector holds `length` values of one {@link ColumnType} in a typed array chosen by the
 * type's physical layout:
 *
 * | physical | types                         | data                              | null                   |
 * |----------|-------------------------------|-----------------------------------|------------------------|
 * | bool     | BOOLEAN                       | Uint8Array (0/1)                  | none (reads as false)  |
 * | i8       | BYTE                          | Int8Array                         | none (reads as 0)      |
 * | i16      | SHORT                         | Int16Array                        | none (reads as 0)      |
 * | u16      | CHAR                          | Uint16Array                       | 0                      |
 * | i32      | INT, IPV4                     | Int32Array                        | -2^31 (INT), 0 (IPV4)  |
 * | i64      | LONG, DATE, TIMESTAMP         | Float64Array or BigInt64Array     | -2^63                  |
 * | f32/f64  | FLOAT, DOUBLE                 | Float32Array / Float64Array       | NaN (any non-finite)   |
 * | sym      | SYMBOL                        | Int32Array of keys + a dictionary | -1                     |
 * | str      | STRING, VARCHAR, UUID, LONG256| (string \| null)[]                | null                   |
 * | bin      | BINARY                        | (Uint8Array \| null)[]            | null                   |
 * | arr      | DOUBLE[], DOUBLE[][], ...     | flat Float64Array + offsets/shapes| shape -1 (array-vector)|
 *
 * **64-bit integers without BigInt in hot loops.** An i64 vector is a `Float64Array` when every
 * value is a safe integer (|v| <= 2^53) or the null sentinel -2^63 (exactly representable as a
 * double). Only when some value is not (e.g. `9223372036854775807`, `rnd_long()`) is it a
 * `BigInt64Array`, and kernels take their exact (slower) path for that vector. Timestamps in
 * microseconds stay below 2^53 until the year 2255, so time-series scans never touch BigInt.
 *
 * **Constant vectors.** `isConst` vectors hold one value (at index 0) that stands for every row;
 * kernels must either handle them or call {@link materialize}.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { type ColumnType, physicalOf, INT_NULL, LONG_NULL, SYMBOL_NULL } from './column-type.js'
import type { DoubleArray } from './array.js'
import { type ArrVector, allocateArr, arrIsNull, arrGet, arrMaterialize, arrSlice, arrGather, arrConcat, arrOf } from './array-vector.js'

export type { ArrVector } from './array-vector.js'

/** A dictionary of symbol strings, shared by the vectors of one SYMBOL column. */
export class SymbolTable {
  /** key -> string */
  readonly values: string[] = []
  private readonly index = new Map<string, number>()

  /** The key of `s`, adding it when new. */
  intern(s: string): number {
    let k = this.index.get(s)
    if (k === undefined) {
      k = this.values.length
      this.values.push(s)
      this.index.set(s, k)
    }
    return k
  }

  /** The key of `s`, or -1 when the dictionary does not hold it. */
  lookup(s: string): number {
    const k = this.index.get(s)
    return k === undefined ? SYMBOL_NULL : k
  }

  /** Number of distinct strings. */
  get size(): number {
    return this.values.length
  }
}

interface VectorBase {
  readonly type: ColumnType
  /** logical number of values */
  readonly length: number
  /** true when data[0] stands for every row */
  readonly isConst?: boolean
}

/** BOOLEAN values as 0/1 bytes. */
export interface BoolVector extends VectorBase { readonly kind: 'bool'; readonly data: Uint8Array }
/** BYTE values. */
export interface I8Vector extends VectorBase { readonly kind: 'i8'; readonly data: Int8Array }
/** SHORT values. */
export interface I16Vector extends VectorBase { readonly kind: 'i16'; readonly data: Int16Array }
/** CHAR values as UTF-16 code units (0 = null). */
export interface U16Vector extends VectorBase { readonly kind: 'u16'; readonly data: Uint16Array }
/** INT (null -2^31) or IPv4 (null 0) values. */
export interface I32Vector extends VectorBase { readonly kind: 'i32'; readonly data: Int32Array }
/** LONG, DATE or TIMESTAMP values: Float64Array while every value is a safe integer, else BigInt64Array. */
export interface I64Vector extends VectorBase { readonly kind: 'i64'; readonly data: Float64Array | BigInt64Array }
/** FLOAT values (non-finite = null). */
export interface F32Vector extends VectorBase { readonly kind: 'f32'; readonly data: Float32Array }
/** DOUBLE values (non-finite = null). */
export interface F64Vector extends VectorBase { readonly kind: 'f64'; readonly data: Float64Array }
/** SYMBOL values as int keys into `dict` (-1 = null). */
export interface SymVector extends VectorBase { readonly kind: 'sym'; readonly data: Int32Array; readonly dict: SymbolTable }
/** STRING, VARCHAR, UUID or LONG256 values as strings (null = null). */
export interface StrVector extends VectorBase { readonly kind: 'str'; readonly data: (string | null)[] }
/** BINARY values. */
export interface BinVector extends VectorBase { readonly kind: 'bin'; readonly data: (Uint8Array | null)[] }
/** Values of the NULL type (every row null). */
export interface NullVector extends VectorBase { readonly kind: 'null'; readonly data: null }

/** A column vector; `kind` is the physical layout of `type`. */
export type Vector =
  | BoolVector | I8Vector | I16Vector | U16Vector | I32Vector | I64Vector
  | F32Vector | F64Vector | SymVector | StrVector | BinVector | ArrVector | NullVector

/** A batch of rows as column vectors of equal length. */
export interface Batch {
  readonly length: number
  readonly vectors: readonly Vector[]
}

/** Rows per batch that operators aim for (DuckDB's STANDARD_VECTOR_SIZE, scaled for JS). */
export const BATCH_SIZE = 65536

/**
 * The engine's scalar form of one value, used at the edges (literals, parameters, the row-wise
 * function fallback): numbers for numeric types, `number | bigint` for i64 types (bigint only
 * when not a safe integer), strings for text, UUID, LONG256 and SYMBOL, a 1-character string for
 * CHAR, a number (unsigned) for IPV4, boolean for BOOLEAN, Uint8Array for BINARY, a
 * {@link DoubleArray} for the array types; null for null.
 */
export type Scalar = number | bigint | string | boolean | Uint8Array | DoubleArray | null

const MAX_SAFE = Number.MAX_SAFE_INTEGER

/** Allocates a vector of `length` values of `type`, every value null (or 0/false where not nullable). */
export function allocate(type: ColumnType, length: number, dict?: SymbolTable): Vector {
  switch (physicalOf(type)) {
    case 'bool': return { kind: 'bool', type, length, data: new Uint8Array(length) }
    case 'i8': return { kind: 'i8', type, length, data: new Int8Array(length) }
    case 'i16': return { kind: 'i16', type, length, data: new Int16Array(length) }
    case 'u16': return { kind: 'u16', type, length, data: new Uint16Array(length) }
    case 'i32': {
      const data = new Int32Array(length)
      if (type !== 'IPV4') data.fill(INT_NULL) // INT and GEOHASH (up to 31 bits)
      return { kind: 'i32', type, length, data }
    }
    case 'i64': return { kind: 'i64', type, length, data: new Float64Array(length).fill(LONG_NULL) }
    case 'f32': return { kind: 'f32', type, length, data: new Float32Array(length).fill(NaN) }
    case 'f64': return { kind: 'f64', type, length, data: new Float64Array(length).fill(NaN) }
    case 'sym': return { kind: 'sym', type, length, data: new Int32Array(length).fill(SYMBOL_NULL), dict: dict ?? new SymbolTable() }
    case 'str': return { kind: 'str', type, length, data: new Array<string | null>(length).fill(null) }
    case 'bin': return { kind: 'bin', type, length, data: new Array<Uint8Array | null>(length).fill(null) }
    case 'arr': return allocateArr(type, length)
    case 'null': return { kind: 'null', type, length, data: null }
  }
}

/** Wraps existing data as a vector of `type` (no copy). The data must match the physical layout. */
export function vectorOf(type: ColumnType, data: Vector['data'], length: number, dict?: SymbolTable): Vector {
  const kind = physicalOf(type)
  if (kind === 'sym') return { kind, type, length, data: data as Int32Array, dict: dict ?? new SymbolTable() }
  if (kind === 'arr') return arrOf(type, data as unknown as (DoubleArray | null)[])
  return { kind, type, length, data } as Vector
}

/** True when row `i` of `v` is null (non-nullable types are never null). */
export function isNullAt(v: Vector, i: number): boolean {
  const j = v.isConst ? 0 : i
  switch (v.kind) {
    case 'bool': case 'i8': case 'i16': return false
    case 'u16': return v.data[j] === 0
    case 'i32': return v.type === 'IPV4' ? v.data[j] === 0 : v.data[j] === INT_NULL
    case 'i64': return v.data instanceof Float64Array ? v.data[j] === LONG_NULL : v.data[j] === -9223372036854775808n
    case 'f32': case 'f64': return !Number.isFinite(v.data[j]!)
    case 'sym': return v.data[j]! < 0
    case 'str': case 'bin': return v.data[j] === null
    case 'arr': return arrIsNull(v, i)
    case 'null': return true
  }
}

/** Reads row `i` of `v` in {@link Scalar} form. */
export function getScalar(v: Vector, i: number): Scalar {
  const j = v.isConst ? 0 : i
  switch (v.kind) {
    case 'bool': return v.data[j] !== 0
    case 'i8': case 'i16': return v.data[j]!
    case 'u16': { const c = v.data[j]!; return c === 0 ? null : String.fromCharCode(c) }
    case 'i32': {
      const x = v.data[j]!
      if (v.type === 'IPV4') return x === 0 ? null : x >>> 0
      return x === INT_NULL ? null : x
    }
    case 'i64': {
      const x = v.data[j]!
      if (typeof x === 'bigint') {
        if (x === -9223372036854775808n) return null
        return x >= -9007199254740991n && x <= 9007199254740991n ? Number(x) : x
      }
      return x === LONG_NULL ? null : x
    }
    case 'f32': case 'f64': { const x = v.data[j]!; return Number.isFinite(x) ? x : null }
    case 'sym': { const k = v.data[j]!; return k < 0 ? null : v.dict.values[k]! }
    case 'str': case 'bin': return v.data[j]!
    case 'arr': return arrGet(v, i)
    case 'null': return null
  }
}

/** Converts a vector to a fully materialized (non-constant) one. */
export function materialize(v: Vector): Vector {
  if (!v.isConst) return v
  if (v.kind === 'arr') return arrMaterialize(v)
  const out = allocate(v.type, v.length, v.kind === 'sym' ? v.dict : undefined)
  switch (v.kind) {
    case 'null': return out
    case 'str': case 'bin': (out.data as unknown[]).fill(v.data[0]); return out
    case 'i64':
      if (v.data instanceof BigInt64Array) return { ...v, isConst: false, data: new BigInt64Array(v.length).fill(v.data[0]!) }
      ;(out.data as Float64Array).fill(v.data[0]!)
      return out
    default: (out.data as Float64Array).fill((v.data as Float64Array)[0]!); return out
  }
}

/** A constant vector: `value` for each of `length` rows. */
export function constVector(type: ColumnType, value: Scalar, length: number): Vector {
  const w = new VectorWriter(type, 1)
  w.set(0, value)
  return { ...w.finish(), length, isConst: true } as Vector
}

/** Rows [start, end) of `v`; typed arrays are viewed, not copied. */
export function sliceVector(v: Vector, start: number, end: number): Vector {
  const length = end - start
  if (v.isConst) return { ...v, length }
  switch (v.kind) {
    case 'arr': return arrSlice(v, start, end)
    case 'null': return { ...v, length }
    case 'str': case 'bin': return { ...v, length, data: v.data.slice(start, end) } as Vector
    default: return { ...v, length, data: (v.data as Float64Array).subarray(start, end) } as Vector
  }
}

/** Rows `sel[0..count)` of `v`, in that order (a gather; used by filters and sorts). */
export function gather(v: Vector, sel: Int32Array, count: number): Vector {
  if (v.isConst) return { ...v, length: count }
  switch (v.kind) {
    case 'arr': return arrGather(v, sel, count)
    case 'null': return { ...v, length: count }
    case 'str': case 'bin': {
      const src = v.data as unknown[]
      const out = new Array(count)
      for (let i = 0; i < count; i++) out[i] = src[sel[i]!]
      return { ...v, length: count, data: out } as Vector
    }
    case 'i64': {
      const src = v.data
      const out = src instanceof Float64Array ? new Float64Array(count) : new BigInt64Array(count)
      for (let i = 0; i < count; i++) out[i] = src[sel[i]!]!
      return { ...v, length: count, data: out } as Vector
    }
    default: {
      const src = v.data as Float64Array
      const out = new (src.constructor as Float64ArrayConstructor)(count)
      for (let i = 0; i < count; i++) out[i] = src[sel[i]!]!
      return { ...v, length: count, data: out } as Vector
    }
  }
}

/** Concatenates vectors of one type into one. Symbol vectors with different dictionaries are re-keyed. */
export function concatVectors(type: ColumnType, parts: readonly Vector[]): Vector {
  let length = 0
  for (const p of parts) length += p.length
  if (parts.length === 1 && !parts[0]!.isConst) return parts[0]!
  const kind = physicalOf(type)
  if (kind === 'arr') return arrConcat(type, parts as ArrVector[])
  if (kind === 'sym') {
    const first = parts.find((p) => p.kind === 'sym') as SymVector | undefined
    const dict = first?.dict ?? new SymbolTable()
    const data = new Int32Array(length).fill(SYMBOL_NULL)
    let at = 0
    for (const p of parts) {
      const m = materialize(p)
      if (m.kind === 'sym' && m.dict === dict) data.set(m.data, at)
      else for (let i = 0; i < m.length; i++) { const s = getScalar(m, i); data[at + i] = s === null ? SYMBOL_NULL : dict.intern(String(s)) }
      at += p.length
    }
    return { kind: 'sym', type, length, data, dict }
  }
  if (kind === 'i64' && parts.some((p) => p.kind === 'i64' && p.data instanceof BigInt64Array)) {
    const data = new BigInt64Array(length)
    let at = 0
    for (const p of parts) {
      const m = materialize(p) as I64Vector
      if (m.data instanceof BigInt64Array) data.set(m.data, at)
      else for (let i = 0; i < m.length; i++) data[at + i] = BigInt(m.data[i]!)
      at += p.length
    }
    return { kind: 'i64', type, length, data }
  }
  const out = allocate(type, length)
  if (kind === 'null') return out
  let at = 0
  for (const p of parts) {
    const m = materialize(p)
    if (kind === 'str' || kind === 'bin') {
      const dst = out.data as unknown[]
      const src = m.data as unknown[]
      for (let i = 0; i < m.length; i++) dst[at + i] = src[i]
    } else {
      ;(out.data as Float64Array).set(m.data as Float64Array, at)
    }
    at += p.length
  }
  return out
}

/**
 * Builds a vector of a type value by value from {@link Scalar}s. An i64 vector starts as a
 * Float64Array and becomes a BigInt64Array the first time a value outside the safe range arrives.
 * Intended for edges and slow paths; kernels write typed arrays directly.
 */
export class VectorWriter {
  private vec: Vector
  /** the rows of an array type, built into a vector by finish() */
  private arrays: (DoubleArray | null)[] | undefined

  constructor(readonly type: ColumnType, readonly length: number, dict?: SymbolTable) {
    this.vec = allocate(type, length, dict)
    if (this.vec.kind === 'arr') this.arrays = new Array<DoubleArray | null>(length).fill(null)
  }

  /** Sets row `i`; `null` writes the type's null. Values must already be of the right kind. */
  set(i: number, value: Scalar): void {
    const v = this.vec
    switch (v.kind) {
      case 'bool': v.data[i] = value === true ? 1 : 0; break
      case 'i8': case 'i16': v.data[i] = value === null ? 0 : Number(value); break
      case 'u16': v.data[i] = value === null ? 0 : typeof value === 'string' ? value.charCodeAt(0) : Number(value); break
      case 'i32': v.data[i] = value === null ? (v.type === 'IPV4' ? 0 : INT_NULL) : Number(value) | 0; break
      case 'i64': this.setI64(v, i, value); break
      case 'f32': case 'f64': v.data[i] = value === null ? NaN : Number(value); break
      case 'sym': v.data[i] = value === null ? SYMBOL_NULL : v.dict.intern(String(value)); break
      case 'str': v.data[i] = value === null ? null : String(value); break
      case 'bin': v.data[i] = value === null ? null : (value as Uint8Array); break
      case 'arr': this.arrays![i] = value as DoubleArray | null; break
      case 'null': break
    }
  }

  private setI64(v: I64Vector, i: number, value: Scalar): void {
    if (value === null) { v.data[i] = v.data instanceof Float64Array ? LONG_NULL : -9223372036854775808n; return }
    if (v.data instanceof Float64Array) {
      if (typeof value === 'bigint') {
        if (value >= -9007199254740991n && value <= 9007199254740991n) { v.data[i] = Number(value); return }
        this.promote(v)
        ;(this.vec.data as BigInt64Array)[i] = BigInt.asIntN(64, value)
        return
      }
      const n = Number(value)
      if (Math.abs(n) <= MAX_SAFE || n === LONG_NULL) { v.data[i] = n; return }
      this.promote(v)
      ;(this.vec.data as BigInt64Array)[i] = BigInt.asIntN(64, BigInt(Math.trunc(n)))
      return
    }
    v.data[i] = BigInt.asIntN(64, typeof value === 'bigint' ? value : BigInt(Math.trunc(Number(value))))
  }

  private promote(v: I64Vector): void {
    const src = v.data as Float64Array
    const data = new BigInt64Array(src.length)
    for (let k = 0; k < src.length; k++) data[k] = BigInt(src[k]!)
    this.vec = { ...v, data }
  }

  /** The vector built so far. */
  finish(): Vector {
    if (this.arrays !== undefined) return arrOf(this.type, this.arrays)
    return this.vec
  }
}

/**
 * Normalizes an i64 vector after a kernel wrote it as BigInt64Array: returns the Float64Array
 * form when every value is safe (or null), so later kernels take the fast path.
 */
export function compactI64(v: I64Vector): I64Vector {
  if (v.data instanceof Float64Array) return v
  const src = v.data
  const out = new Float64Array(src.length)
  for (let i = 0; i < src.length; i++) {
    const x = src[i]!
    if (x === -9223372036854775808n) out[i] = LONG_NULL
    else if (x >= -9007199254740991n && x <= 9007199254740991n) out[i] = Number(x)
    else return v
  }
  return { ...v, data: out }
}

/** Reads an i64 value exactly as a bigint (null sentinel included). */
export function i64At(v: I64Vector, i: number): bigint {
  const x = v.data[v.isConst ? 0 : i]!
  return typeof x === 'bigint' ? x : x === LONG_NULL ? -9223372036854775808n : BigInt(x)
}
