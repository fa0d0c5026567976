/**
 * Typed-array loops for binary arithmetic with Java semantics: integer results wrap, a null
 * operand gives null, integer division (and remainder) by zero gives null; BYTE and SHORT,
 * which have no null, wrap in their own width. LONG runs on doubles while every value is a safe
 * integer and redoes the batch exactly with BigInt when a result leaves the safe range.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { INT_NULL, LONG_NULL, LONG_NULL_BIG } from '../../types/column-type.js'
import type { ColumnType } from '../../types/column-type.js'
import { allocate } from '../../types/vector.js'
import type { I64Vector, Vector } from '../../types/vector.js'
import { MAX_SAFE, bigAt, i64FromBig, stride, toF64 } from '../kernel-helpers.js'

/** The five binary arithmetic operations. */
export type ArithOp = 'add' | 'sub' | 'mul' | 'div' | 'rem'

/** INT op INT -> INT (wrapping; null or a zero divisor gives null). */
export function intArith(op: ArithOp, a: Int32Array, sa: number, b: Int32Array, sb: number, n: number): Int32Array {
  const out = new Int32Array(n)
  const N = INT_NULL
  switch (op) {
    case 'add': for (let i = 0; i < n; i++) { const x = a[i * sa]!, y = b[i * sb]!; out[i] = x === N || y === N ? N : (x + y) | 0 } break
    case 'sub': for (let i = 0; i < n; i++) { const x = a[i * sa]!, y = b[i * sb]!; out[i] = x === N || y === N ? N : (x - y) | 0 } break
    case 'mul': for (let i = 0; i < n; i++) { const x = a[i * sa]!, y = b[i * sb]!; out[i] = x === N || y === N ? N : Math.imul(x, y) } break
    case 'div': for (let i = 0; i < n; i++) { const x = a[i * sa]!, y = b[i * sb]!; out[i] = x === N || y === N || y === 0 ? N : (x / y) | 0 } break
    case 'rem': for (let i = 0; i < n; i++) { const x = a[i * sa]!, y = b[i * sb]!; out[i] = x === N || y === N || y === 0 ? N : (x % y) | 0 } break
  }
  return out
}

/** DOUBLE op DOUBLE (NaN propagates; x / 0 is infinite, which reads as null). */
export function doubleArith(op: ArithOp, a: Float64Array, sa: number, b: Float64Array, sb: number, out: Float64Array | Float32Array, n: number): void {
  switch (op) {
    case 'add': for (let i = 0; i < n; i++) out[i] = a[i * sa]! + b[i * sb]!; break
    case 'sub': for (let i = 0; i < n; i++) out[i] = a[i * sa]! - b[i * sb]!; break
    case 'mul': for (let i = 0; i < n; i++) out[i] = a[i * sa]! * b[i * sb]!; break
    case 'div': for (let i = 0; i < n; i++) out[i] = a[i * sa]! / b[i * sb]!; break
    case 'rem': for (let i = 0; i < n; i++) out[i] = a[i * sa]! % b[i * sb]!; break
  }
}

/**
 * LONG op LONG on the double fast path. Returns false (leaving `out` partly written) when some
 * result is not a safe integer, so the caller redoes the batch exactly.
 */
function longArithFast(op: ArithOp, a: Float64Array, sa: number, b: Float64Array, sb: number, out: Float64Array, n: number): boolean {
  const N = LONG_NULL
  for (let i = 0; i < n; i++) {
    const x = a[i * sa]!, y = b[i * sb]!
    if (x === N || y === N) { out[i] = N; continue }
    let r: number
    switch (op) {
      case 'add': r = x + y; break
      case 'sub': r = x - y; break
      case 'mul': r = x * y; break
      case 'div': if (y === 0) { out[i] = N; continue } r = (x - (x % y)) / y; break
      case 'rem': if (y === 0) { out[i] = N; continue } r = x % y; break
    }
    if (r > MAX_SAFE || r < -MAX_SAFE) return false
    out[i] = r === 0 ? 0 : r
  }
  return true
}

/** One LONG operation on exact bigints with Java's 64-bit wrap-around; the null sentinel in or a zero divisor gives null. */
export function longOpBig(op: ArithOp, x: bigint, y: bigint): bigint {
  if (x === LONG_NULL_BIG || y === LONG_NULL_BIG) return LONG_NULL_BIG
  switch (op) {
    case 'add': return BigInt.asIntN(64, x + y)
    case 'sub': return BigInt.asIntN(64, x - y)
    case 'mul': return BigInt.asIntN(64, x * y)
    case 'div': return y === 0n ? LONG_NULL_BIG : BigInt.asIntN(64, x / y)
    case 'rem': return y === 0n ? LONG_NULL_BIG : x % y
  }
}

/** LONG-like op LONG-like -> i64 vector of `type` (LONG, TIMESTAMP, DATE), exact for every input. */
export function longArith(op: ArithOp, a: I64Vector, b: I64Vector, n: number, type: ColumnType): I64Vector {
  if (a.data instanceof Float64Array && b.data instanceof Float64Array) {
    const out = new Float64Array(n)
    if (longArithFast(op, a.data, stride(a), b.data, stride(b), out, n)) return { kind: 'i64', type, length: n, data: out }
  }
  const out = new BigInt64Array(n)
  for (let i = 0; i < n; i++) out[i] = longOpBig(op, bigAt(a, i), bigAt(b, i))
  return i64FromBig(type, out)
}

/** BYTE/SHORT op -> same width, wrapping (these types have no null; a zero divisor gives 0). */
export function smallArith(op: ArithOp, a: Vector, b: Vector, n: number, type: 'BYTE' | 'SHORT'): Vector {
  const out = allocate(type, n)
  const o = out.data as Int8Array | Int16Array
  const x = toF64(a), y = toF64(b)
  const xa = x.data, xs = x.s, ya = y.data, ys = y.s
  for (let i = 0; i < n; i++) {
    const p = xa[i * xs]!, q = ya[i * ys]!
    switch (op) {
      case 'add': o[i] = p + q; break
      case 'sub': o[i] = p - q; break
      case 'mul': o[i] = p * q; break
      case 'div': o[i] = q === 0 ? 0 : Math.trunc(p / q); break
      case 'rem': o[i] = q === 0 ? 0 : p % q; break
    }
  }
  return out
}
