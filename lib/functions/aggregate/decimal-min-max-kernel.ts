/**
 * The kernel of `min` / `max` over DECIMAL(p <= 18): the input type, nulls skipped, a group without
 * a non-null value null. No BigInt per row.
 *
 * While every batch comes in the `Float64Array` layout (safe integers) the best value of a group
 * is one exact double (NaN: none yet). The first batch in the `BigInt64Array` layout switches the
 * kernel to exact mode: a group keeps its best value's 32-bit halves (`hi` signed, `lo` unsigned,
 * as doubles) beside `best`, now the value rounded to a double. Rounding keeps order (x < y gives
 * round(x) <= round(y)), so a row compares by its rounded value and only a tie compares halves.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { DecimalType } from '../../types/decimal.js'
import { allocate, type Vector } from '../../types/vector.js'
import type { AggregateKernel } from '../registry-types.js'
import { arg, grow } from './agg-util.js'
import { HI, LO, NULL, NULL_HI, TWO32, halvesOf } from './decimal-words.js'

/** min / max of narrow decimals. */
export class DecimalMinMaxKernel implements AggregateKernel {
  /** per group: the best value (exact before exact mode, rounded in it), NaN for none */
  best = new Float64Array(0)
  /** exact mode: per group, the best value's high (signed) and low (unsigned) halves */
  hi: Float64Array | null = null
  lo: Float64Array | null = null

  constructor(readonly isMax: boolean, readonly type: DecimalType) {}

  resize(count: number): void {
    this.best = grow(this.best, count, NaN)
    if (this.hi !== null) { this.hi = grow(this.hi, count); this.lo = grow(this.lo!, count) }
  }

  /** Switches to exact mode: the halves of every best value so far. */
  private exact(): void {
    if (this.hi !== null) return
    const n = this.best.length
    const hi = new Float64Array(n), lo = new Float64Array(n)
    for (let g = 0; g < n; g++) {
      const b = this.best[g]!
      if (b !== b) continue
      const h = Math.floor(b / TWO32)
      hi[g] = h
      lo[g] = b - h * TWO32
    }
    this.hi = hi
    this.lo = lo
  }

  /** Exact mode: offers value (h, l) (rounded `k`) to group g. */
  private offer(g: number, k: number, h: number, l: number): void {
    const b = this.best[g]!, max = this.isMax
    if (b === b && (max ? k < b : k > b)) return
    if (b === k) {
      const bh = this.hi![g]!, bl = this.lo![g]!
      if (max ? h < bh || (h === bh && l <= bl) : h > bh || (h === bh && l >= bl)) return
    }
    this.best[g] = k
    this.hi![g] = h
    this.lo![g] = l
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    if (v.kind !== 'i64') return
    const d = v.data
    if (d instanceof Float64Array && this.hi === null) {
      const best = this.best
      if (this.isMax) for (let i = 0; i < length; i++) { const x = d[i]!; if (x !== NULL) { const g = groups[i]!; if (!(best[g]! >= x)) best[g] = x } }
      else for (let i = 0; i < length; i++) { const x = d[i]!; if (x !== NULL) { const g = groups[i]!; if (!(best[g]! <= x)) best[g] = x } }
      return
    }
    this.exact()
    const best = this.best, max = this.isMax
    if (d instanceof Float64Array) {
      for (let i = 0; i < length; i++) {
        const x = d[i]!
        if (x === NULL) continue
        const g = groups[i]!
        const b = best[g]!
        if (b === b && (max ? x < b : x > b)) continue
        const h = Math.floor(x / TWO32)
        this.offer(g, x, h, x - h * TWO32)
      }
      return
    }
    const w = halvesOf(d)
    for (let i = 0; i < length; i++) {
      const h = w[2 * i + HI]!, l = w[2 * i + LO]! >>> 0
      if (h === NULL_HI && l === 0) continue
      const k = h * TWO32 + l
      const g = groups[i]!
      const b = best[g]!
      if (b === b && (max ? k < b : k > b)) continue
      this.offer(g, k, h, l)
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    const v = arg(args, 0)
    if (v.kind !== 'i64') return
    const d = v.data
    if (!(d instanceof Float64Array) || this.hi !== null) { this.update(new Int32Array(length).fill(group), args, length); return }
    // one group: the best of the batch in four locals (independent compare chains), nulls (-2^63)
    // never above a value nor taken as a minimum
    const b = this.isMax ? batchMax(d, length) : batchMin(d, length)
    if (b === NULL || b === Infinity) return
    const cur = this.best[group]!
    if (this.isMax ? !(cur >= b) : !(cur <= b)) this.best[group] = b
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as DecimalMinMaxKernel
    if (o.hi !== null) this.exact()
    const max = this.isMax
    for (let i = 0; i < count; i++) {
      const f = from[i]!, g = to[i]!
      const x = o.best[f]!
      if (x !== x) continue
      if (this.hi === null) { const b = this.best[g]!; if (max ? !(b >= x) : !(b <= x)) this.best[g] = x; continue }
      if (o.hi !== null) { this.offer(g, x, o.hi[f]!, o.lo![f]!); continue }
      const h = Math.floor(x / TWO32)
      this.offer(g, x, h, x - h * TWO32)
    }
  }

  result(count: number): Vector {
    const out = allocate(this.type, count)
    if (this.hi !== null) {
      const data = new BigInt64Array(count)
      const w = halvesOf(data)
      for (let g = 0; g < count; g++) {
        const b = this.best[g]!
        if (b !== b) { w[2 * g + HI] = NULL_HI; w[2 * g + LO] = 0; continue }
        w[2 * g + HI] = this.hi[g]!
        w[2 * g + LO] = this.lo![g]!
      }
      return { kind: 'i64', type: this.type, length: count, data }
    }
    const d = out.data as Float64Array
    for (let g = 0; g < count; g++) { const b = this.best[g]!; d[g] = b === b ? b : NULL }
    return out
  }
}

/**
 * The null sentinel -2^63 as this module's own literal, for the start values of {@link batchMax}'s
 * chains. Started from the imported `NULL` (a module binding V8 does not fold), the chains'
 * variables were kept boxed and every new maximum allocated a number: `max` ran at 1.5-1.8x
 * `min`'s time over the same rows (a batch's first rising run takes a new maximum on every row).
 */
const NULL_START = -9223372036854775808

/** The largest value of `d[0, length)`, or the null sentinel when every row is null. */
function batchMax(d: Float64Array, length: number): number {
  let b0 = NULL_START, b1 = NULL_START, b2 = NULL_START, b3 = NULL_START, i = 0
  for (; i + 3 < length; i += 4) {
    const x = d[i]!, y = d[i + 1]!, z = d[i + 2]!, w = d[i + 3]!
    if (x > b0) b0 = x
    if (y > b1) b1 = y
    if (z > b2) b2 = z
    if (w > b3) b3 = w
  }
  for (; i < length; i++) { const x = d[i]!; if (x > b0) b0 = x }
  if (b1 > b0) b0 = b1
  if (b3 > b2) b2 = b3
  return b2 > b0 ? b2 : b0
}

/** The smallest non-null value of `d[0, length)`, or Infinity when every row is null. */
function batchMin(d: Float64Array, length: number): number {
  let b0 = Infinity, b1 = Infinity, b2 = Infinity, b3 = Infinity, i = 0
  for (; i + 3 < length; i += 4) {
    const x = d[i]!, y = d[i + 1]!, z = d[i + 2]!, w = d[i + 3]!
    if (x < b0 && x !== NULL) b0 = x
    if (y < b1 && y !== NULL) b1 = y
    if (z < b2 && z !== NULL) b2 = z
    if (w < b3 && w !== NULL) b3 = w
  }
  for (; i < length; i++) { const x = d[i]!; if (x < b0 && x !== NULL) b0 = x }
  if (b1 < b0) b0 = b1
  if (b3 < b2) b2 = b3
  return b2 < b0 ? b2 : b0
}
