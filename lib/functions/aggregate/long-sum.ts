/**
 * An exact 64-bit integer sum per group without BigInt in the hot loop: each group keeps two
 * float accumulators, `hi` (multiples of 2^32) and `lo`, normalized whenever |lo| passes 2^52
 * so every addition stays exact. The result wraps to 64 bits like Java's `long` arithmetic.
 * Used by `sum(int)`, `sum(long)` (both → LONG).
 *
 * A group's `lo` and its seen flag sit side by side in one array (`st`: lo at 2g, seen at 2g+1),
 * so the keyed row loop touches one array and one cache line per row, as the DOUBLE kernel does
 * (double-sum.ts); `hi` is its own array, touched only when a carry is taken.
 */
import { INT_NULL, LONG_NULL } from '../../types/column-type.js'
import type { I64Vector, Vector } from '../../types/vector.js'
import type { AggregateKernel } from '../registry-types.js'
import { arg, grow, sameGroup } from './agg-util.js'

const TWO_32 = 4294967296
const LIMIT = 4503599627370496 // 2^52
const MAX_SAFE = Number.MAX_SAFE_INTEGER

/** Exact integer sum kernel over INT (i32) or LONG (i64) input; all-null groups give null. */
export class LongSumKernel implements AggregateKernel {
  /** per group g: the multiples of 2^32 carried out of its running sum */
  hi = new Float64Array(0)
  /** per group g: at 2g the running sum (|lo| <= 2^52), at 2g+1 1 once a non-null value was added */
  st = new Float64Array(0)

  resize(count: number): void {
    this.hi = grow(this.hi, count)
    this.st = grow(this.st, 2 * count)
  }

  /** Adds `x` (any exact integer value as a double, |x| <= 2^53) to group g, carrying into hi. */
  private addSlow(g: number, x: number): void {
    const xh = Math.floor(x / TWO_32)
    const s = this.st[2 * g]! + (x - xh * TWO_32)
    const c = Math.floor(s / TWO_32)
    this.hi[g] = this.hi[g]! + xh + c
    this.st[2 * g] = s - c * TWO_32
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    const st = this.st
    if (v.kind === 'i32') {
      const d = v.data
      for (let i = 0; i < length; i++) {
        const x = d[i]!
        if (x === INT_NULL) continue
        const j = groups[i]! << 1
        const s = st[j]! + x
        if (s > LIMIT || s < -LIMIT) this.addSlow(j >> 1, x)
        else st[j] = s
        st[j + 1] = 1
      }
      return
    }
    const d = (v as I64Vector).data
    if (d instanceof Float64Array) {
      for (let i = 0; i < length; i++) {
        const x = d[i]!
        if (x === LONG_NULL) continue
        const j = groups[i]! << 1
        const s = st[j]! + x
        if (s > LIMIT || s < -LIMIT) this.addSlow(j >> 1, x)
        else st[j] = s
        st[j + 1] = 1
      }
      return
    }
    for (let i = 0; i < length; i++) {
      const x = d[i]!
      if (x === -9223372036854775808n) continue
      const g = groups[i]!
      this.hi[g] = this.hi[g]! + Number(x >> 32n)
      this.addSlow(g, Number(x & 0xffffffffn))
      st[2 * g + 1] = 1
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    const v = arg(args, 0)
    const d = v.data
    if (v.kind === 'i32') this.addRun(group, d as Int32Array, INT_NULL, length)
    else if (d instanceof Float64Array) this.addRunF64(group, d, LONG_NULL, length)
    else this.update(sameGroup(group, length), args, length)
  }

  /**
   * Adds the INT values of d[0..length) other than `nul` to group `group`: four running sums, so
   * an addition does not wait on the one before; a running sum that would pass 2^52 goes to the
   * group first (every addition stays exact, as in {@link update}).
   */
  private addRun(group: number, d: Int32Array, nul: number, length: number): void {
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0, n = 0, i = 0
    for (; i + 3 < length; i += 4) {
      const a = d[i]!, b = d[i + 1]!, c = d[i + 2]!, e = d[i + 3]!
      if (a !== nul) { n++; const t = s0 + a; if (t > LIMIT || t < -LIMIT) { this.addSlow(group, s0); s0 = a } else s0 = t }
      if (b !== nul) { n++; const t = s1 + b; if (t > LIMIT || t < -LIMIT) { this.addSlow(group, s1); s1 = b } else s1 = t }
      if (c !== nul) { n++; const t = s2 + c; if (t > LIMIT || t < -LIMIT) { this.addSlow(group, s2); s2 = c } else s2 = t }
      if (e !== nul) { n++; const t = s3 + e; if (t > LIMIT || t < -LIMIT) { this.addSlow(group, s3); s3 = e } else s3 = t }
    }
    for (; i < length; i++) {
      const a = d[i]!
      if (a !== nul) { n++; const t = s0 + a; if (t > LIMIT || t < -LIMIT) { this.addSlow(group, s0); s0 = a } else s0 = t }
    }
    if (n === 0) return
    this.addSlow(group, s0); this.addSlow(group, s1); this.addSlow(group, s2); this.addSlow(group, s3)
    this.st[2 * group + 1] = 1
  }

  /** {@link addRun} over LONG values held as doubles (a copy, so each loop's loads stay monomorphic). */
  private addRunF64(group: number, d: Float64Array, nul: number, length: number): void {
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0, n = 0, i = 0
    for (; i + 3 < length; i += 4) {
      const a = d[i]!, b = d[i + 1]!, c = d[i + 2]!, e = d[i + 3]!
      if (a !== nul) { n++; const t = s0 + a; if (t > LIMIT || t < -LIMIT) { this.addSlow(group, s0); s0 = a } else s0 = t }
      if (b !== nul) { n++; const t = s1 + b; if (t > LIMIT || t < -LIMIT) { this.addSlow(group, s1); s1 = b } else s1 = t }
      if (c !== nul) { n++; const t = s2 + c; if (t > LIMIT || t < -LIMIT) { this.addSlow(group, s2); s2 = c } else s2 = t }
      if (e !== nul) { n++; const t = s3 + e; if (t > LIMIT || t < -LIMIT) { this.addSlow(group, s3); s3 = e } else s3 = t }
    }
    for (; i < length; i++) {
      const a = d[i]!
      if (a !== nul) { n++; const t = s0 + a; if (t > LIMIT || t < -LIMIT) { this.addSlow(group, s0); s0 = a } else s0 = t }
    }
    if (n === 0) return
    this.addSlow(group, s0); this.addSlow(group, s1); this.addSlow(group, s2); this.addSlow(group, s3)
    this.st[2 * group + 1] = 1
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as LongSumKernel
    for (let i = 0; i < count; i++) {
      const f = from[i]!
      if (o.st[2 * f + 1] === 0) continue
      const g = to[i]!
      this.hi[g] = this.hi[g]! + o.hi[f]!
      this.addSlow(g, o.st[2 * f]!)
      this.st[2 * g + 1] = 1
    }
  }

  /** The exact sum of group g: a number when safe, a bigint otherwise (wrapped to 64 bits). */
  value(g: number): number | bigint {
    const h = this.hi[g]!
    const l = this.st[2 * g]!
    if (Math.abs(h) < 2097152) {
      const v = h * TWO_32 + l
      if (Math.abs(v) <= MAX_SAFE) return v
    }
    const b = BigInt.asIntN(64, BigInt(h) * 4294967296n + BigInt(l))
    return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b
  }

  result(count: number): Vector {
    let data: Float64Array | BigInt64Array = new Float64Array(count)
    for (let g = 0; g < count; g++) {
      if (this.st[2 * g + 1] !== 1) { data[g] = data instanceof Float64Array ? LONG_NULL : -9223372036854775808n; continue }
      const v = this.value(g)
      if (typeof v === 'bigint' && data instanceof Float64Array) {
        const big = new BigInt64Array(count)
        for (let k = 0; k < g; k++) big[k] = BigInt(data[k]!)
        data = big
      }
      if (data instanceof Float64Array) data[g] = v as number
      else data[g] = BigInt(v)
    }
    return { kind: 'i64', type: 'LONG', length: count, data }
  }
}
