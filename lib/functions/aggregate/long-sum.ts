/**
 * An exact 64-bit integer sum per group without BigInt in the hot loop: each group keeps two
 * float accumulators, `hi` (multiples of 2^32) and `lo`, normalized whenever |lo| passes 2^52
 * so every addition stays exact. The result wraps to 64 bits like Java's `long` arithmetic.
 * Used by `sum(int)`, `sum(long)` (both → LONG).
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
  hi = new Float64Array(0)
  lo = new Float64Array(0)
  seen = new Uint8Array(0)

  resize(count: number): void {
    this.hi = grow(this.hi, count)
    this.lo = grow(this.lo, count)
    this.seen = grow(this.seen, count)
  }

  /** Adds `x` (any exact integer value as a double, |x| <= 2^53) to group g, carrying into hi. */
  private addSlow(g: number, x: number): void {
    const xh = Math.floor(x / TWO_32)
    const s = this.lo[g]! + (x - xh * TWO_32)
    const c = Math.floor(s / TWO_32)
    this.hi[g] = this.hi[g]! + xh + c
    this.lo[g] = s - c * TWO_32
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    const lo = this.lo
    const seen = this.seen
    if (v.kind === 'i32') {
      const d = v.data
      for (let i = 0; i < length; i++) {
        const x = d[i]!
        if (x === INT_NULL) continue
        const g = groups[i]!
        const s = lo[g]! + x
        if (s > LIMIT || s < -LIMIT) this.addSlow(g, x)
        else lo[g] = s
        seen[g] = 1
      }
      return
    }
    const d = (v as I64Vector).data
    if (d instanceof Float64Array) {
      for (let i = 0; i < length; i++) {
        const x = d[i]!
        if (x === LONG_NULL) continue
        const g = groups[i]!
        const s = lo[g]! + x
        if (s > LIMIT || s < -LIMIT) this.addSlow(g, x)
        else lo[g] = s
        seen[g] = 1
      }
      return
    }
    for (let i = 0; i < length; i++) {
      const x = d[i]!
      if (x === -9223372036854775808n) continue
      const g = groups[i]!
      this.hi[g] = this.hi[g]! + Number(x >> 32n)
      this.addSlow(g, Number(x & 0xffffffffn))
      seen[g] = 1
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as LongSumKernel
    for (let i = 0; i < count; i++) {
      const f = from[i]!
      if (o.seen[f] === 0) continue
      const g = to[i]!
      this.hi[g] = this.hi[g]! + o.hi[f]!
      this.addSlow(g, o.lo[f]!)
      this.seen[g] = 1
    }
  }

  /** The exact sum of group g: a number when safe, a bigint otherwise (wrapped to 64 bits). */
  value(g: number): number | bigint {
    const h = this.hi[g]!
    const l = this.lo[g]!
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
      if (this.seen[g] !== 1) { data[g] = data instanceof Float64Array ? LONG_NULL : -9223372036854775808n; continue }
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
