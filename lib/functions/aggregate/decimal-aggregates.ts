/**
 * DECIMAL kernels of the aggregates (joined to `sum.ts` and `min-max.ts` by one signature and one
 * call each): `sum` (QuestDB's result: DECIMAL(38,s) for p <= 18, (18,s) for p <= 9,
 * (76,s) above), `avg` (the input type, rounded half to even), `min`/`max` (the input type).
 * Nulls are skipped; a group without a non-null value gives null. `first`/`last` are the generic
 * kernels (they work on any layout).
 *
 * The sum's hot loop reads the Float64Array of unscaled safe integers and adds into one double
 * per group while the partial sum stays below 2^52 (so every addition is exact); past that it
 * carries the partial sum into a per-group bigint. No BigInt per row for p <= 18. A total that
 * does not fit the result precision raises 22003.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { type DecimalType, checkFits, divHalfEven, isDecimal, isNarrowDecimal } from '../../types/decimal.js'
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, CallSite } from '../registry-types.js'
import { DecimalWriter, unscaledAt } from '../decimal-vectors.js'
import { arg, grow, growArray, sameGroup } from './agg-util.js'
import { MinMaxKernel } from './min-max.js'

const CARRY = 4503599627370496 // 2^52
/** LONG_NULL (column-type.ts) as a literal module constant for the hot loops. */
const NULL = -9223372036854775808
/** Rows per block of the non-keyed sum (a block whose magnitudes reach 2^52 is re-added row by row). */
const BLOCK = 4096

/**
 * Adds `a + x` exactly into `big[g]`: the carry of the sum kernels' double accumulator, kept out
 * of their hot loops (a bigint operation inline in the loop makes V8 compile the whole loop
 * 2-3x slower, even when the branch never runs).
 */
function carryInto(big: bigint[], g: number, a: number, x: number): void {
  big[g]! += BigInt(a) + BigInt(x)
}

/**
 * Adds the non-null values of `d[lo, hi)` to the double accumulator `a` of group `g` (returned),
 * carrying into `big[g]` when an addition could leave the exact range.
 */
function sumRows(d: Float64Array, lo: number, hi: number, a: number, big: bigint[], g: number): number {
  for (let i = lo; i < hi; i++) {
    const x = d[i]!
    if (x === NULL) continue
    if (a < CARRY && a > -CARRY && x < CARRY && x > -CARRY) a += x
    else { carryInto(big, g, a, x); a = 0 }
  }
  return a
}

/** sum / avg of decimals. */
class DecimalSumKernel implements AggregateKernel {
  acc = new Float64Array(0)
  count = new Float64Array(0)
  big: bigint[] = []

  constructor(readonly avg: boolean, readonly out: DecimalType, readonly pos: number) {}

  resize(count: number): void {
    this.acc = grow(this.acc, count)
    this.count = grow(this.count, count)
    growArray(this.big, count, 0n)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    const acc = this.acc, cnt = this.count
    if (v.kind === 'i64' && v.data instanceof Float64Array) {
      const d = v.data
      for (let i = 0; i < length; i++) {
        const x = d[i]!
        if (x === NULL) continue
        const g = groups[i]!
        const a = acc[g]!
        cnt[g]!++
        if (a < CARRY && a > -CARRY && x < CARRY && x > -CARRY) acc[g] = a + x
        else { carryInto(this.big, g, a, x); acc[g] = 0 }
      }
      return
    }
    for (let i = 0; i < length; i++) {
      const u = unscaledAt(v, i)
      if (u === null) continue
      const g = groups[i]!
      cnt[g]!++
      this.big[g]! += u
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    const v = arg(args, 0)
    if (v.kind === 'i64' && v.data instanceof Float64Array) {
      // the non-keyed path: one local accumulator
      const d = v.data
      // blocks of BLOCK rows summed into four doubles with no branch but the null test, next to
      // the sum of their magnitudes: while that stays below 2^52 every partial sum is an exact
      // integer; a block reaching it is re-added by the row-by-row carry loop. No bigint in these
      // loops: V8 compiles a loop holding one 2-3x slower, so the rare carry goes through carryInto.
      let a = this.acc[group]!, c = 0
      for (let lo = 0; lo < length; lo += BLOCK) {
        const hi = lo + BLOCK < length ? lo + BLOCK : length
        let s0 = 0, s1 = 0, s2 = 0, s3 = 0, m0 = 0, m1 = 0, n = 0, i = lo
        for (; i + 3 < hi; i += 4) {
          const x = d[i]!, y = d[i + 1]!, z = d[i + 2]!, w = d[i + 3]!
          if (x !== NULL) { n++; s0 += x; m0 += Math.abs(x) }
          if (y !== NULL) { n++; s1 += y; m1 += Math.abs(y) }
          if (z !== NULL) { n++; s2 += z; m0 += Math.abs(z) }
          if (w !== NULL) { n++; s3 += w; m1 += Math.abs(w) }
        }
        for (; i < hi; i++) { const x = d[i]!; if (x !== NULL) { n++; s0 += x; m0 += Math.abs(x) } }
        c += n
        if (m0 + m1 >= CARRY) { a = sumRows(d, lo, hi, a, this.big, group); continue }
        const t = (s0 + s1) + (s2 + s3)
        if (a < CARRY && a > -CARRY) a += t
        else { carryInto(this.big, group, a, t); a = 0 }
      }
      this.acc[group] = a
      this.count[group]! += c
      return
    }
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as DecimalSumKernel
    for (let i = 0; i < count; i++) {
      const f = from[i]!, g = to[i]!
      this.big[g]! += o.big[f]! + BigInt(o.acc[f]!)
      this.count[g]! += o.count[f]!
    }
  }

  result(count: number): Vector {
    const w = new DecimalWriter(this.out, count)
    for (let g = 0; g < count; g++) {
      const c = this.count[g]!
      if (c === 0) { w.set(g, null); continue }
      const total = this.big[g]! + BigInt(this.acc[g]!)
      w.set(g, checkFits(this.avg ? divHalfEven(total, BigInt(c)) : total, this.out, this.pos))
    }
    return w.finish()
  }
}

/** min / max of wide decimals (p > 18), compared as bigints. */
class WideMinMaxKernel implements AggregateKernel {
  best: (bigint | null)[] = []
  constructor(readonly isMax: boolean, readonly type: DecimalType) {}
  resize(count: number): void { growArray(this.best, count, null) }
  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    for (let i = 0; i < length; i++) {
      const u = unscaledAt(v, i)
      if (u === null) continue
      const g = groups[i]!
      const b = this.best[g]
      if (b === null || b === undefined || (this.isMax ? u > b : u < b)) this.best[g] = u
    }
  }
  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }
  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as WideMinMaxKernel
    for (let i = 0; i < count; i++) {
      const u = o.best[from[i]!] ?? null
      if (u === null) continue
      const g = to[i]!
      const b = this.best[g]
      if (b === null || b === undefined || (this.isMax ? u > b : u < b)) this.best[g] = u
    }
  }
  result(count: number): Vector {
    const w = new DecimalWriter(this.type, count)
    for (let g = 0; g < count; g++) w.set(g, this.best[g] ?? null)
    return w.finish()
  }
}

/**
 * The DECIMAL kernel of `sum`, `avg`, `min` or `max` for a call site whose result is a DECIMAL;
 * undefined otherwise (the caller's own kernel applies).
 */
export function decimalAggregateKernel(name: 'sum' | 'avg' | 'min' | 'max', site: CallSite): AggregateKernel | undefined {
  const t = site.returns
  if (!isDecimal(t)) return undefined
  switch (name) {
    case 'sum': return new DecimalSumKernel(false, t, site.pos)
    case 'avg': return new DecimalSumKernel(true, t, site.pos)
    default: return isNarrowDecimal(t) ? new MinMaxKernel(name === 'max', t) : new WideMinMaxKernel(name === 'max', t)
  }
}
