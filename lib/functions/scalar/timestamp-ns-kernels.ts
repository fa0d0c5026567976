/**
 * Kernels over TIMESTAMP_NS (64-bit nanosecond) vectors that work on the two 32-bit halves of
 * each value, so a BigInt64Array is compared and added without a BigInt per row: comparisons
 * with QuestDB's null rules, `ns ± LONG`, `ns - ns`.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { LONG_NULL } from '../../types/column-type.js'
import { internalError } from '../../errors.js'
import type { BoolVector, I64Vector, Vector } from '../../types/vector.js'
import { compactI64 } from '../../types/vector.js'
import type { CmpOp } from './compare-kernels.js'
import { boolOut } from '../kernel-helpers.js'

const TWO32 = 4294967296
const NULL_HI = -2147483648

/** The halves (lo, hi per value; lo unsigned, hi signed) of the first `m` values of an i64 vector. */
export function halvesOf(v: Vector, m: number): { lo: Uint32Array; hi: Int32Array } {
  if (v.kind !== 'i64') throw internalError(`halvesOf(${v.kind})`)
  const d = v.data
  if (d instanceof BigInt64Array) {
    const buf = d.buffer, off = d.byteOffset
    const w = new Uint32Array(buf, off, m * 2)
    const lo = new Uint32Array(m), hi = new Int32Array(m)
    for (let i = 0; i < m; i++) { lo[i] = w[2 * i]!; hi[i] = w[2 * i + 1]! | 0 }
    return { lo, hi }
  }
  const lo = new Uint32Array(m), hi = new Int32Array(m)
  for (let i = 0; i < m; i++) {
    const x = d[i]!
    if (x === LONG_NULL) { hi[i] = NULL_HI; continue }
    const h = Math.floor(x / TWO32)
    lo[i] = x - h * TWO32
    hi[i] = h | 0
  }
  return { lo, hi }
}

/** `a op b` over two i64 vectors of nanoseconds: null = null is true, a null against a value orders false. */
export function compareNs(op: CmpOp, a: Vector, b: Vector, n: number): BoolVector {
  const ma = a.isConst ? 1 : n, mb = b.isConst ? 1 : n
  const x = halvesOf(a, ma), y = halvesOf(b, mb)
  const sa = a.isConst ? 0 : 1, sb = b.isConst ? 0 : 1
  const out = boolOut(n), o = out.data
  for (let i = 0; i < n; i++) {
    const ah = x.hi[i * sa]!, al = x.lo[i * sa]!, bh = y.hi[i * sb]!, bl = y.lo[i * sb]!
    const c = ah < bh ? -1 : ah > bh ? 1 : al < bl ? -1 : al > bl ? 1 : 0
    const an = ah === NULL_HI && al === 0, bn = bh === NULL_HI && bl === 0
    let r: boolean
    switch (op) {
      case 'eq': r = c === 0; break
      case 'ne': r = c !== 0; break
      default:
        if (an !== bn) { r = false; break }
        r = op === 'lt' ? c < 0 : op === 'le' ? c <= 0 : op === 'gt' ? c > 0 : c >= 0
    }
    o[i] = r ? 1 : 0
  }
  return out
}

/** `lo <= x <= hi` (bounds in either order), nulls never between. */
export function betweenNs(x: Vector, p: Vector, q: Vector, n: number): BoolVector {
  const ge1 = compareNs('ge', x, p, n), le1 = compareNs('le', x, q, n)
  const ge2 = compareNs('ge', x, q, n), le2 = compareNs('le', x, p, n)
  const nx = compareNs('eq', x, { kind: 'i64', type: 'LONG', length: 1, isConst: true, data: Float64Array.of(LONG_NULL) }, n)
  const out = boolOut(n), o = out.data
  for (let i = 0; i < n; i++) o[i] = nx.data[i] === 0 && ((ge1.data[i] === 1 && le1.data[i] === 1) || (ge2.data[i] === 1 && le2.data[i] === 1)) ? 1 : 0
  return out
}

/** `a + sign * b` over i64 vectors as 64-bit two's complement (Java's long), null if either is null. */
export function addNs(a: Vector, b: Vector, sign: 1 | -1, n: number, type: 'TIMESTAMP_NS' | 'LONG'): I64Vector {
  const allConst = a.isConst === true && b.isConst === true
  const m = allConst ? 1 : n
  const x = halvesOf(a, a.isConst ? 1 : m), y = halvesOf(b, b.isConst ? 1 : m)
  const sa = a.isConst ? 0 : 1, sb = b.isConst ? 0 : 1
  const data = new BigInt64Array(m)
  const w = new Uint32Array(data.buffer)
  for (let i = 0; i < m; i++) {
    const ah = x.hi[i * sa]!, al = x.lo[i * sa]!
    let bh = y.hi[i * sb]!, bl = y.lo[i * sb]!
    if ((ah === NULL_HI && al === 0) || (bh === NULL_HI && bl === 0)) { w[2 * i] = 0; w[2 * i + 1] = 0x80000000; continue }
    if (sign < 0) {
      // two's complement negation: ~b + 1
      bl = (~bl >>> 0) + 1
      bh = ~bh + (bl === TWO32 ? 1 : 0)
      if (bl === TWO32) bl = 0
    }
    const l = al + bl
    const carry = l >= TWO32 ? 1 : 0
    w[2 * i] = l - carry * TWO32
    w[2 * i + 1] = (ah + bh + carry) | 0
  }
  const out: I64Vector = { kind: 'i64', type, length: allConst ? n : m, data, isConst: allConst }
  return type === 'LONG' ? compactI64(out) : out
}
