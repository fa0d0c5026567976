/**
 * `min(x)` and `max(x)` of one GROUP BY or SAMPLE BY over the same column, folded in one pass over the rows.
 *
 * Each of {@link DecimalMinMaxKernel} and {@link MinMaxKernel} reads the whole column once, so
 * `SELECT k, min(v), max(v)` read every value and group id twice. {@link FusedMinMax} feeds both
 * kernels' own per-group arrays (`best`, NaN: none yet) from one loop, so their `merge` and
 * `result` work unchanged, and a batch in a layout the loop does not cover (a DECIMAL or LONG
 * column holding a value past 2^53, FLOAT, INT, text) goes to the two kernels' own `update`.
 *
 * Covered layouts: a `Float64Array` of safe integers with the null sentinel -2^63 (DECIMAL with
 * p <= 18, LONG, TIMESTAMP, DATE), and DOUBLE (NaN and ±Infinity skipped, as {@link MinMaxKernel} does).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { Vector } from '../../types/vector.js'
import type { BoundAggregate } from '../../plan/plan-node.js'
import type { AggregateKernel } from '../registry-types.js'
import { arg } from './agg-util.js'
import { DecimalMinMaxKernel } from './decimal-min-max-kernel.js'
import { MinMaxKernel } from './min-max.js'

/** The null sentinel -2^63 as this module's own literal (an imported binding kept the loops' chains boxed; see decimal-min-max-kernel.ts). */
const NULL_SENTINEL = -9223372036854775808

/** Scratch for the unkeyed loops' two answers: [min, max]. */
const BOTH = new Float64Array(2)

type MinMax = DecimalMinMaxKernel | MinMaxKernel

/** What one batch's values are to the fused loops: 0 not covered, 1 sentinel nulls, 2 DOUBLE. */
function layout(min: MinMax, max: MinMax, v: Vector): 0 | 1 | 2 {
  if (v.kind === 'f64') return min instanceof MinMaxKernel ? 2 : 0
  if (v.kind !== 'i64' || !(v.data instanceof Float64Array)) return 0
  if (min instanceof DecimalMinMaxKernel) return min.hi === null && (max as DecimalMinMaxKernel).hi === null ? 1 : 0
  return min.big === null && (max as MinMaxKernel).big === null ? 1 : 0
}

/** A `min` and a `max` kernel over the same column, fed by one loop (see the module comment). */
export class FusedMinMax {
  constructor(readonly min: MinMax, readonly max: MinMax) {}

  /** Makes room for groups 0..count-1 in both kernels. */
  resize(count: number): void {
    this.min.resize(count)
    this.max.resize(count)
  }

  /** Adds rows 0..length-1, row i to group `groups[i]`; `args` are the shared column's vectors. */
  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    const how = layout(this.min, this.max, v)
    if (how === 0) {
      this.min.update(groups, args, length)
      this.max.update(groups, args, length)
      return
    }
    const d = v.data as Float64Array
    const lo = this.min.best, hi = this.max.best
    if (how === 1) {
      for (let i = 0; i < length; i++) {
        const x = d[i]!
        if (x === NULL_SENTINEL) continue
        const g = groups[i]!
        if (!(hi[g]! >= x)) hi[g] = x
        if (!(lo[g]! <= x)) lo[g] = x
      }
      return
    }
    for (let i = 0; i < length; i++) {
      const x = d[i]!
      if (x - x !== 0) continue
      const g = groups[i]!
      if (!(hi[g]! >= x)) hi[g] = x
      if (!(lo[g]! <= x)) lo[g] = x
    }
  }

  /** Adds rows 0..length-1, all to `group` (the batch's min and max found first, in eight compare chains). */
  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    const v = arg(args, 0)
    const how = layout(this.min, this.max, v)
    if (how === 0) {
      this.min.updateOne(group, args, length)
      this.max.updateOne(group, args, length)
      return
    }
    const d = v.data as Float64Array
    if (how === 1) {
      sentinelMinMax(d, length)
      if (BOTH[1] === NULL_SENTINEL) return
    } else {
      doubleMinMax(d, length)
      if (BOTH[1] === -Infinity) return
    }
    const a = BOTH[0]!, b = BOTH[1]!
    const lo = this.min.best, hi = this.max.best
    if (!(lo[group]! <= a)) lo[group] = a
    if (!(hi[group]! >= b)) hi[group] = b
  }
}

/** [min, max] of the non-null values of `d[0, length)` into {@link BOTH}; max -2^63 when every row is null. */
function sentinelMinMax(d: Float64Array, length: number): void {
  let l0 = Infinity, l1 = Infinity, l2 = Infinity, l3 = Infinity
  let h0 = NULL_SENTINEL, h1 = NULL_SENTINEL, h2 = NULL_SENTINEL, h3 = NULL_SENTINEL
  let i = 0
  for (; i + 3 < length; i += 4) {
    const x = d[i]!, y = d[i + 1]!, z = d[i + 2]!, w = d[i + 3]!
    if (x > h0) h0 = x
    if (y > h1) h1 = y
    if (z > h2) h2 = z
    if (w > h3) h3 = w
    if (x < l0 && x !== NULL_SENTINEL) l0 = x
    if (y < l1 && y !== NULL_SENTINEL) l1 = y
    if (z < l2 && z !== NULL_SENTINEL) l2 = z
    if (w < l3 && w !== NULL_SENTINEL) l3 = w
  }
  for (; i < length; i++) {
    const x = d[i]!
    if (x > h0) h0 = x
    if (x < l0 && x !== NULL_SENTINEL) l0 = x
  }
  BOTH[0] = Math.min(l0, l1, l2, l3)
  BOTH[1] = Math.max(h0, h1, h2, h3)
}

/** [min, max] of the finite values of `d[0, length)` into {@link BOTH}; max -Infinity when there is none. */
function doubleMinMax(d: Float64Array, length: number): void {
  let l0 = Infinity, l1 = Infinity, l2 = Infinity, l3 = Infinity
  let h0 = -Infinity, h1 = -Infinity, h2 = -Infinity, h3 = -Infinity
  let i = 0
  // NaN fails every compare; +Infinity is never taken as a maximum nor -Infinity as a minimum
  for (; i + 3 < length; i += 4) {
    const x = d[i]!, y = d[i + 1]!, z = d[i + 2]!, w = d[i + 3]!
    if (x > h0 && x !== Infinity) h0 = x
    if (y > h1 && y !== Infinity) h1 = y
    if (z > h2 && z !== Infinity) h2 = z
    if (w > h3 && w !== Infinity) h3 = w
    if (x < l0 && x !== -Infinity) l0 = x
    if (y < l1 && y !== -Infinity) l1 = y
    if (z < l2 && z !== -Infinity) l2 = z
    if (w < l3 && w !== -Infinity) l3 = w
  }
  for (; i < length; i++) {
    const x = d[i]!
    if (x > h0 && x !== Infinity) h0 = x
    if (x < l0 && x !== -Infinity) l0 = x
  }
  BOTH[0] = Math.min(l0, l1, l2, l3)
  BOTH[1] = Math.max(h0, h1, h2, h3)
}

/** A min/max pair: the kernel ordinals `of` = [min, max] and their fused feed. */
export interface MinMaxPair {
  readonly of: readonly [number, number]
  readonly fused: FusedMinMax
}

/**
 * Pairs each `min(c)` with a `max(c)` over the same column `c` among the kernels `among`
 * (ordinals into `kernels` / `aggregates`); `rest` keeps the others, in order.
 */
export function pairMinMax(kernels: readonly AggregateKernel[], aggregates: readonly BoundAggregate[], among: readonly number[]): { pairs: MinMaxPair[]; rest: number[] } {
  const pairs: MinMaxPair[] = []
  const taken = new Set<number>()
  const column = (a: number): number => {
    const e = aggregates[a]!.args[0]
    return aggregates[a]!.args.length === 1 && e !== undefined && e.kind === 'column' ? e.index : -1
  }
  for (const a of among) {
    const k = kernels[a]
    if (taken.has(a) || !(k instanceof DecimalMinMaxKernel || k instanceof MinMaxKernel) || k.isMax || column(a) < 0) continue
    for (const b of among) {
      const m = kernels[b]
      if (taken.has(b) || m === undefined || m.constructor !== k.constructor || !(m as MinMax).isMax || column(b) !== column(a)) continue
      taken.add(a).add(b)
      pairs.push({ of: [a, b], fused: new FusedMinMax(k, m as MinMax) })
      break
    }
  }
  return { pairs, rest: among.filter((a) => !taken.has(a)) }
}
