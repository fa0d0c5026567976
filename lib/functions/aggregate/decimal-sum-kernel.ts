/**
 * The DECIMAL kernel of `sum` and `avg` (QuestDB's result types: `sum` DECIMAL(38,s) for p <= 18,
 * (18,s) for p <= 9, (76,s) above; `avg` the input type, rounded half to even). Nulls are skipped;
 * a group without a non-null value gives null; a total that does not fit the result precision
 * raises 22003.
 *
 * For p <= 18 no BigInt is made per row: values in the `Float64Array` layout add into one double
 * per group while the total stays below 2^53 in magnitude (every addition exact), carrying into a
 * per-group bigint past that; values in the `BigInt64Array` layout add their two 32-bit halves
 * into two doubles per group (decimal-words.ts). Wider decimals (text) take the exact bigint path.
 *
 * A group's double total and its non-null count sit side by side in one array (`st`: total at
 * 2g, count at 2g+1), so the keyed loop touches one cache line and one array per row, and it
 * tests only the new total: a total below 2^53 in magnitude is exact (the true sum of two safe
 * integers rounds past that bound only when it lies past it), and a null (-2^63) added to any
 * total lands far below -2^53, so nulls and carries leave the loop by the same test.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { type DecimalType, checkFits, divHalfEven } from '../../types/decimal.js'
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel } from '../registry-types.js'
import { DecimalWriter, unscaledAt } from '../decimal-vectors.js'
import { arg, grow, growArray, sameGroup } from './agg-util.js'
import { CARRY, HI, LO, NULL, NULL_HI, type ExactSum, halvesOf, sumDoubles, sumHalves } from './decimal-words.js'

/** 2^53: a double total below it in magnitude is an exact integer. */
const EXACT = 9007199254740992

/**
 * The keyed loop's way out for row value `x` of group g (index `j` = 2g into `st`): a null is
 * skipped; otherwise the total so far and `x` join the group's bigint exactly (out of the hot
 * loop: a bigint inline makes V8 compile a loop 2-3x slower).
 */
function nullOrCarry(st: Float64Array, big: bigint[], j: number, x: number): void {
  if (x === NULL) return
  big[j >> 1]! += BigInt(st[j]!) + BigInt(x)
  st[j] = 0
  st[j + 1]!++
}

/**
 * Keyed sum of the Float64Array layout (see the module comment). Two rows a step: the second
 * row's loads start before the first row's store (in row order still when both rows are of one
 * group); 2.8-3.4 against 3.8-3.9 ns/row one row a step, 100 groups. The exactness test is one
 * compare of `Math.abs(t)` (false for NaN as well): 1.95 against 2.13 ns/row for the two
 * compares `t < 2^53 && t > -2^53` (2M rows in 65,536-row batches, 100 groups, load 15).
 */
function addDoubles(groups: Int32Array, d: Float64Array, st: Float64Array, big: bigint[], length: number): void {
  let i = 0
  for (; i + 1 < length; i += 2) {
    const j = groups[i]! << 1, k = groups[i + 1]! << 1
    const x = d[i]!, y = d[i + 1]!
    const t = st[j]! + x
    if (Math.abs(t) < EXACT) { st[j] = t; st[j + 1]!++ } else nullOrCarry(st, big, j, x)
    const u = st[k]! + y
    if (Math.abs(u) < EXACT) { st[k] = u; st[k + 1]!++ } else nullOrCarry(st, big, k, y)
  }
  for (; i < length; i++) {
    const j = groups[i]! << 1
    const x = d[i]!
    const t = st[j]! + x
    if (Math.abs(t) < EXACT) { st[j] = t; st[j + 1]!++ } else nullOrCarry(st, big, j, x)
  }
}

/** `big[g] += h * 2^32 + l` exactly, the halves' accumulators of group g emptied. */
function joinGroupHalves(big: bigint[], hs: Float64Array, ls: Float64Array, g: number): void {
  big[g]! += BigInt(hs[g]!) * 4294967296n + BigInt(ls[g]!)
  hs[g] = 0
  ls[g] = 0
}

/** Keyed sum of the BigInt64Array layout by halves: each adds below 2^32 in magnitude, a group's totals joining its bigint before they reach 2^52. */
function addHalves(groups: Int32Array, w: Int32Array, hs: Float64Array, ls: Float64Array, st: Float64Array, big: bigint[], length: number): void {
  for (let i = 0; i < length; i++) {
    const h = w[2 * i + HI]!, l = w[2 * i + LO]!
    if (h === NULL_HI && l === 0) continue
    const g = groups[i]!
    const th = hs[g]! + h, tl = ls[g]! + (l >>> 0)
    hs[g] = th
    ls[g] = tl
    st[2 * g + 1]!++
    if (tl >= CARRY || th >= CARRY || th <= -CARRY) joinGroupHalves(big, hs, ls, g)
  }
}

/** sum / avg of decimals. */
export class DecimalSumKernel implements AggregateKernel {
  /** per group g: at 2g the double total (an exact integer below 2^53), at 2g+1 the non-null count */
  st = new Float64Array(0)
  /** per group: the carried part of the total */
  big: bigint[] = []
  /** per group: the high and low halves' totals of values read in the BigInt64Array layout */
  hs = new Float64Array(0)
  ls = new Float64Array(0)

  constructor(readonly avg: boolean, readonly out: DecimalType, readonly pos: number) {}

  resize(count: number): void {
    this.st = grow(this.st, 2 * count)
    this.hs = grow(this.hs, count)
    this.ls = grow(this.ls, count)
    growArray(this.big, count, 0n)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    if (v.kind === 'i64' && v.data instanceof Float64Array) { addDoubles(groups, v.data, this.st, this.big, length); return }
    if (v.kind === 'i64') { addHalves(groups, halvesOf(v.data as BigInt64Array), this.hs, this.ls, this.st, this.big, length); return }
    const st = this.st
    for (let i = 0; i < length; i++) {
      const u = unscaledAt(v, i)
      if (u === null) continue
      const g = groups[i]!
      st[2 * g + 1]!++
      this.big[g]! += u
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    const v = arg(args, 0)
    if (v.kind === 'i64') {
      const s: ExactSum = { a: this.st[2 * group]!, big: this.big[group]!, count: 0 }
      if (v.data instanceof Float64Array) sumDoubles(v.data, length, s)
      else sumHalves(halvesOf(v.data), length, s)
      this.st[2 * group] = s.a
      this.big[group] = s.big
      this.st[2 * group + 1]! += s.count
      return
    }
    this.update(sameGroup(group, length), args, length)
  }

  /** Group g's exact total. */
  private total(g: number): bigint {
    return this.big[g]! + BigInt(this.st[2 * g]!) + BigInt(this.hs[g]!) * 4294967296n + BigInt(this.ls[g]!)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as DecimalSumKernel
    for (let i = 0; i < count; i++) {
      const f = from[i]!, g = to[i]!
      this.big[g]! += o.total(f)
      this.st[2 * g + 1]! += o.st[2 * f + 1]!
    }
  }

  result(count: number): Vector {
    const w = new DecimalWriter(this.out, count)
    for (let g = 0; g < count; g++) {
      const c = this.st[2 * g + 1]!
      if (c === 0) { w.set(g, null); continue }
      const total = this.total(g)
      w.set(g, checkFits(this.avg ? divHalfEven(total, BigInt(c)) : total, this.out, this.pos))
    }
    return w.finish()
  }
}
