/**
 * The DECIMAL kernel of `sum` and `avg` (QuestDB's result types: `sum` DECIMAL(38,s) for p <= 18,
 * (18,s) for p <= 9, (76,s) above; `avg` the input type, rounded half to even). Nulls are skipped;
 * a group without a non-null value gives null; a total that does not fit the result precision
 * raises 22003.
 *
 * For p <= 18 no BigInt is made per row: values in the `Float64Array` layout add into one double
 * per group while it stays below 2^52 (every addition exact), carrying into a per-group bigint
 * past that; values in the `BigInt64Array` layout add their two 32-bit halves into two doubles
 * per group (decimal-words.ts). Wider decimals (text) take the exact bigint path.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { type DecimalType, checkFits, divHalfEven } from '../../types/decimal.js'
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel } from '../registry-types.js'
import { DecimalWriter, unscaledAt } from '../decimal-vectors.js'
import { arg, grow, growArray, sameGroup } from './agg-util.js'
import { CARRY, HI, LO, NULL, NULL_HI, type ExactSum, halvesOf, sumDoubles, sumHalves } from './decimal-words.js'

/** `big[g] += a + x` exactly (out of the hot loops: a bigint inline makes V8 compile a loop 2-3x slower). */
function carryInto(big: bigint[], g: number, a: number, x: number): void {
  big[g]! += BigInt(a) + BigInt(x)
}

/** `big[g] += h * 2^32 + l` exactly, the halves' accumulators of group g emptied. */
function joinGroupHalves(big: bigint[], hs: Float64Array, ls: Float64Array, g: number): void {
  big[g]! += BigInt(hs[g]!) * 4294967296n + BigInt(ls[g]!)
  hs[g] = 0
  ls[g] = 0
}

/** Keyed sum of the BigInt64Array layout by halves: each adds below 2^32 in magnitude, a group's totals joining its bigint before they reach 2^52. */
function addHalves(groups: Int32Array, w: Int32Array, hs: Float64Array, ls: Float64Array, cnt: Float64Array, big: bigint[], length: number): void {
  for (let i = 0; i < length; i++) {
    const h = w[2 * i + HI]!, l = w[2 * i + LO]!
    if (h === NULL_HI && l === 0) continue
    const g = groups[i]!
    const th = hs[g]! + h, tl = ls[g]! + (l >>> 0)
    hs[g] = th
    ls[g] = tl
    cnt[g]!++
    if (tl >= CARRY || th >= CARRY || th <= -CARRY) joinGroupHalves(big, hs, ls, g)
  }
}

/** sum / avg of decimals. */
export class DecimalSumKernel implements AggregateKernel {
  /** per group: the double accumulator (an exact integer below 2^53), the non-null count, the carried part */
  acc = new Float64Array(0)
  count = new Float64Array(0)
  big: bigint[] = []
  /** per group: the high and low halves' totals of values read in the BigInt64Array layout */
  hs = new Float64Array(0)
  ls = new Float64Array(0)

  constructor(readonly avg: boolean, readonly out: DecimalType, readonly pos: number) {}

  resize(count: number): void {
    this.acc = grow(this.acc, count)
    this.count = grow(this.count, count)
    this.hs = grow(this.hs, count)
    this.ls = grow(this.ls, count)
    growArray(this.big, count, 0n)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    if (v.kind === 'i64' && v.data instanceof Float64Array) {
      // (a batch first checked for nulls and magnitudes, then added with no test per row, measured
      // slower: the loop is bound by the per-group stores, not by the tests)
      const d = v.data, acc = this.acc, cnt = this.count
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
    if (v.kind === 'i64') { addHalves(groups, halvesOf(v.data as BigInt64Array), this.hs, this.ls, this.count, this.big, length); return }
    const cnt = this.count
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
    if (v.kind === 'i64') {
      const s: ExactSum = { a: this.acc[group]!, big: this.big[group]!, count: 0 }
      if (v.data instanceof Float64Array) sumDoubles(v.data, length, s)
      else sumHalves(halvesOf(v.data), length, s)
      this.acc[group] = s.a
      this.big[group] = s.big
      this.count[group]! += s.count
      return
    }
    this.update(sameGroup(group, length), args, length)
  }

  /** Group g's exact total. */
  private total(g: number): bigint {
    return this.big[g]! + BigInt(this.acc[g]!) + BigInt(this.hs[g]!) * 4294967296n + BigInt(this.ls[g]!)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as DecimalSumKernel
    for (let i = 0; i < count; i++) {
      const f = from[i]!, g = to[i]!
      this.big[g]! += o.total(f)
      this.count[g]! += o.count[f]!
    }
  }

  result(count: number): Vector {
    const w = new DecimalWriter(this.out, count)
    for (let g = 0; g < count; g++) {
      const c = this.count[g]!
      if (c === 0) { w.set(g, null); continue }
      const total = this.total(g)
      w.set(g, checkFits(this.avg ? divHalfEven(total, BigInt(c)) : total, this.out, this.pos))
    }
    return w.finish()
  }
}
