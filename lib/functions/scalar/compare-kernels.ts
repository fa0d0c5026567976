/**
 * Comparison loops with QuestDB's sentinel null semantics (reference §1.3):
 * `NULL = NULL` is true; an ordering comparison with exactly one null side is false; with both
 * sides null, the operators that include equality (`<=`, `>=`) are true. DOUBLE equality
 * tolerates |a - b| <= 1e-10 and NaN = NaN is true.
 *
 * Browser-safe: imports nothing from `node:*`.
 */

/** The six comparison operations. */
export type CmpOp = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge'

/** QuestDB's double equality tolerance (`Numbers.DOUBLE_TOLERANCE`). */
export const DOUBLE_TOLERANCE = 1e-10

/** INT-like comparison where `N` is the null sentinel and the smallest value of the domain. */
export function cmpI32(op: CmpOp, a: Int32Array, sa: number, b: Int32Array, sb: number, N: number, o: Uint8Array, n: number): void {
  switch (op) {
    case 'eq': for (let i = 0; i < n; i++) o[i] = a[i * sa] === b[i * sb] ? 1 : 0; break
    case 'ne': for (let i = 0; i < n; i++) o[i] = a[i * sa] !== b[i * sb] ? 1 : 0; break
    case 'lt': for (let i = 0; i < n; i++) { const x = a[i * sa]!; o[i] = x !== N && x < b[i * sb]! ? 1 : 0 } break
    case 'le': for (let i = 0; i < n; i++) { const x = a[i * sa]!, y = b[i * sb]!; o[i] = x === y || (x !== N && x < y) ? 1 : 0 } break
    case 'gt': for (let i = 0; i < n; i++) { const y = b[i * sb]!; o[i] = y !== N && a[i * sa]! > y ? 1 : 0 } break
    case 'ge': for (let i = 0; i < n; i++) { const x = a[i * sa]!, y = b[i * sb]!; o[i] = x === y || (y !== N && x > y) ? 1 : 0 } break
  }
}

/** LONG-like comparison on the double fast path; `N` is the null sentinel -2^63 (the minimum). */
export function cmpI64(op: CmpOp, a: Float64Array, sa: number, b: Float64Array, sb: number, N: number, o: Uint8Array, n: number): void {
  switch (op) {
    case 'eq': for (let i = 0; i < n; i++) o[i] = a[i * sa] === b[i * sb] ? 1 : 0; break
    case 'ne': for (let i = 0; i < n; i++) o[i] = a[i * sa] !== b[i * sb] ? 1 : 0; break
    case 'lt': for (let i = 0; i < n; i++) { const x = a[i * sa]!; o[i] = x !== N && x < b[i * sb]! ? 1 : 0 } break
    case 'le': for (let i = 0; i < n; i++) { const x = a[i * sa]!, y = b[i * sb]!; o[i] = x === y || (x !== N && x < y) ? 1 : 0 } break
    case 'gt': for (let i = 0; i < n; i++) { const y = b[i * sb]!; o[i] = y !== N && a[i * sa]! > y ? 1 : 0 } break
    case 'ge': for (let i = 0; i < n; i++) { const x = a[i * sa]!, y = b[i * sb]!; o[i] = x === y || (y !== N && x > y) ? 1 : 0 } break
  }
}

/** True when two doubles are equal for QuestDB: both null (non-finite), or within the tolerance. */
export function doubleEq(x: number, y: number): boolean {
  if (x === y) return true
  const xn = !Number.isFinite(x), yn = !Number.isFinite(y)
  if (xn || yn) return xn && yn
  return Math.abs(x - y) <= DOUBLE_TOLERANCE
}

/** DOUBLE comparison (every non-finite value is null). */
export function cmpF64(op: CmpOp, a: Float64Array, sa: number, b: Float64Array, sb: number, o: Uint8Array, n: number): void {
  const T = DOUBLE_TOLERANCE
  switch (op) {
    case 'eq': for (let i = 0; i < n; i++) { const x = a[i * sa]!, y = b[i * sb]!; o[i] = x === y || Math.abs(x - y) <= T || doubleEq(x, y) ? 1 : 0 } break
    case 'ne': for (let i = 0; i < n; i++) { const x = a[i * sa]!, y = b[i * sb]!; o[i] = x === y || Math.abs(x - y) <= T || doubleEq(x, y) ? 0 : 1 } break
    case 'lt': for (let i = 0; i < n; i++) { const x = a[i * sa]!, y = b[i * sb]!; o[i] = x < y && Number.isFinite(x) && Number.isFinite(y) ? 1 : 0 } break
    case 'gt': for (let i = 0; i < n; i++) { const x = a[i * sa]!, y = b[i * sb]!; o[i] = x > y && Number.isFinite(x) && Number.isFinite(y) ? 1 : 0 } break
    case 'le': for (let i = 0; i < n; i++) { const x = a[i * sa]!, y = b[i * sb]!; o[i] = (x < y && Number.isFinite(x) && Number.isFinite(y)) || doubleEq(x, y) ? 1 : 0 } break
    case 'ge': for (let i = 0; i < n; i++) { const x = a[i * sa]!, y = b[i * sb]!; o[i] = (x > y && Number.isFinite(x) && Number.isFinite(y)) || doubleEq(x, y) ? 1 : 0 } break
  }
}

/** Compares two possibly-null values of one ordered domain (strings, bigints) with the null rules. */
export function cmpNullable<T extends string | bigint>(op: CmpOp, x: T | null, y: T | null): boolean {
  if (x === null || y === null) {
    const both = x === null && y === null
    switch (op) {
      case 'eq': case 'le': case 'ge': return both
      case 'ne': return !both
      case 'lt': case 'gt': return false
    }
  }
  switch (op) {
    case 'eq': return x === y
    case 'ne': return x !== y
    case 'lt': return x < y
    case 'le': return x <= y
    case 'gt': return x > y
    case 'ge': return x >= y
  }
}

/** The operation with its operands swapped (a < b  ==  b > a). */
export function flipOp(op: CmpOp): CmpOp {
  switch (op) {
    case 'lt': return 'gt'
    case 'gt': return 'lt'
    case 'le': return 'ge'
    case 'ge': return 'le'
    case 'eq': case 'ne': return op
  }
}
