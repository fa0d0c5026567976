/**
 * Batch loops over the unscaled 64-bit integers of a DECIMAL(p <= 18) vector, for the sum / avg
 * and min / max kernels, with no BigInt per row:
 *
 * - the `Float64Array` layout (every value a safe integer, null = -2^63): the non-keyed sum adds
 *   4,096-row blocks into doubles with no test per row but the magnitude sum that proves the block
 *   exact;
 * - the `BigInt64Array` layout (some value past 2^53): the values are read as their two 32-bit
 *   halves (an `Int32Array` over the same memory) and summed half by half into doubles, which stay
 *   exact for 2^20 rows; the halves' totals join a bigint once per run of rows.
 *
 * Browser-safe: imports nothing from `node:*`.
 */

/** 2^52: a double accumulator below it takes any safe-integer addend of the same bound exactly. */
export const CARRY = 4503599627370496
/** LONG_NULL (column-type.ts) as a literal module constant for the hot loops. */
export const NULL = -9223372036854775808
/** 2^32, the weight of the high half. */
export const TWO32 = 4294967296
/** The high half of the null sentinel -2^63 (its low half is 0). */
export const NULL_HI = -2147483648
/** Rows per block of the non-keyed double sum. */
const BLOCK = 4096
/** Rows per run of the halves sum: the low halves' total stays below 2^52. */
const HALVES_RUN = 1 << 20

/** Whether this machine stores integers little-endian (the halves' order in memory). */
const LITTLE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1

/**
 * The 32-bit halves of `d`'s values, interleaved: low (unsigned) at 2i, high (signed) at 2i+1 on a
 * little-endian machine. The two words of row i are `w[2i + LO]` and `w[2i + HI]`.
 */
export function halvesOf(d: BigInt64Array): Int32Array {
  return new Int32Array(d.buffer, d.byteOffset, d.length * 2)
}
/** Offset of the low half in a row's word pair. */
export const LO = LITTLE ? 0 : 1
/** Offset of the high half in a row's word pair. */
export const HI = LITTLE ? 1 : 0

/**
 * Exact sum of a run of safe integers: `a` (a double accumulator below 2^52) plus `big` (the
 * carried part). The result of {@link sumDoubles}.
 */
export interface ExactSum { a: number; big: bigint; count: number }

/** `s.a + x` carried into `s.big` (out of the hot loops: a bigint inline makes V8 compile a loop 2-3x slower). */
function carry(s: ExactSum, x: number): void {
  s.big += BigInt(s.a) + BigInt(x)
  s.a = 0
}

/** Row-by-row exact sum of the non-null values of `d[lo, hi)` into `s` (the slow path of a block). */
function sumRowsChecked(d: Float64Array, lo: number, hi: number, s: ExactSum): void {
  for (let i = lo; i < hi; i++) {
    const x = d[i]!
    if (x === NULL) continue
    s.count++
    const a = s.a
    if (a < CARRY && a > -CARRY && x < CARRY && x > -CARRY) s.a = a + x
    else carry(s, x)
  }
}

/**
 * Adds the non-null values of `d[0, length)` (unscaled safe integers, null -2^63) exactly into `s`.
 *
 * Each 4,096-row block is first summed with no test per row into four doubles, beside the sum of
 * the values' magnitudes: a null (magnitude 2^63) or values large enough to leave the exact range
 * push that past 2^52, and only then is the block summed again with null tests (and, if its
 * non-null magnitudes still reach 2^52, row by row with carries). Below 2^52 every partial sum is
 * an exact integer whatever the order, so the block's total is exact and every row counts.
 */
export function sumDoubles(d: Float64Array, length: number, s: ExactSum): void {
  let a = s.a, c = 0
  for (let lo = 0; lo < length; lo += BLOCK) {
    const hi = lo + BLOCK < length ? lo + BLOCK : length
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0, m0 = 0, m1 = 0, m2 = 0, m3 = 0, i = lo
    for (; i + 3 < hi; i += 4) {
      const x = d[i]!, y = d[i + 1]!, z = d[i + 2]!, w = d[i + 3]!
      s0 += x; m0 += Math.abs(x)
      s1 += y; m1 += Math.abs(y)
      s2 += z; m2 += Math.abs(z)
      s3 += w; m3 += Math.abs(w)
    }
    for (; i < hi; i++) { const x = d[i]!; s0 += x; m0 += Math.abs(x) }
    let t: number
    if ((m0 + m1) + (m2 + m3) < CARRY) {
      t = (s0 + s1) + (s2 + s3)
      c += hi - lo
    } else {
      // a null or large values: the block again, nulls skipped
      s0 = 0; s1 = 0; m0 = 0; m1 = 0
      let n = 0
      for (i = lo; i + 1 < hi; i += 2) {
        const x = d[i]!, y = d[i + 1]!
        if (x !== NULL) { n++; s0 += x; m0 += Math.abs(x) }
        if (y !== NULL) { n++; s1 += y; m1 += Math.abs(y) }
      }
      if (i < hi) { const x = d[i]!; if (x !== NULL) { n++; s0 += x; m0 += Math.abs(x) } }
      if (m0 + m1 >= CARRY) {
        s.a = a; s.count += c; c = 0
        sumRowsChecked(d, lo, hi, s)
        a = s.a
        continue
      }
      t = s0 + s1
      c += n
    }
    if (a < CARRY && a > -CARRY) a += t
    else { s.a = a; carry(s, t); a = 0 }
  }
  s.a = a
  s.count += c
}

/**
 * Adds the non-null values of a `BigInt64Array` layout (as {@link halvesOf}) of `length` rows
 * exactly into `s`: the high halves (signed, below 2^31 in magnitude) and the low halves
 * (unsigned, below 2^32) summed apart into doubles, joined into `s.big` every 2^20 rows.
 */
export function sumHalves(w: Int32Array, length: number, s: ExactSum): void {
  for (let lo = 0; lo < length; lo += HALVES_RUN) {
    const end = lo + HALVES_RUN < length ? lo + HALVES_RUN : length
    let hs = 0, ls = 0, n = 0
    for (let i = lo; i < end; i++) {
      const h = w[2 * i + HI]!, l = w[2 * i + LO]!
      if (h === NULL_HI && l === 0) continue
      hs += h
      ls += l >>> 0
      n++
    }
    joinHalves(s, hs, ls)
    s.count += n
  }
}

/** `s.big += hs * 2^32 + ls` (the halves' totals, exact doubles). */
export function joinHalves(s: ExactSum, hs: number, ls: number): void {
  s.big += BigInt(hs) * 4294967296n + BigInt(ls)
}
