/**
 * The kernel of `first` / `last` / `first_not_null` / `last_not_null` over DECIMAL(p <= 18), with
 * no BigInt per row: while every batch comes in the `Float64Array` layout a group's value is one
 * double; the first batch in the `BigInt64Array` layout switches the kernel to 64-bit values
 * written as their two 32-bit halves (decimal-words.ts). Without keys a batch gives its first or
 * last (non-null) row directly instead of visiting every row; a keyed `last`, when the groups are
 * few against the batch, finds each group's row that counts first (one store per row) and copies
 * its value once, instead of copying a value per row.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { DecimalType } from '../../types/decimal.js'
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel } from '../registry-types.js'
import { arg, grow } from './agg-util.js'
import { HI, LO, NULL, NULL_HI, TWO32, halvesOf } from './decimal-words.js'

/** first / last of narrow decimals. */
export class DecimalFirstLastKernel implements AggregateKernel {
  seen = new Uint8Array(0)
  /** per group: the value (exact safe integer, or the null sentinel), until the BigInt64Array layout arrives */
  value = new Float64Array(0)
  /** per group after it: the value as 64 bits (read through {@link halvesOf}) */
  wide: BigInt64Array | null = null

  constructor(readonly first: boolean, readonly skipNulls: boolean, readonly type: DecimalType) {}

  resize(count: number): void {
    this.seen = grow(this.seen, count)
    if (this.wide !== null) this.wide = grow(this.wide, count)
    else this.value = grow(this.value, count)
  }

  /** Switches to 64-bit values. */
  private widen(): BigInt64Array {
    if (this.wide === null) {
      const v = this.value
      const wide = new BigInt64Array(v.length)
      const w = halvesOf(wide)
      for (let g = 0; g < v.length; g++) setHalves(w, g, v[g]!)
      this.wide = wide
    }
    return this.wide
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const d = values(arg(args, 0), length)
    const n = this.seen.length
    if (!this.first && n <= length * ROWS_PER_GROUP_SLOT) { this.updateByRow(groups, d, length, n); return }
    const seen = this.seen, first = this.first, skip = this.skipNulls
    if (d instanceof Float64Array && this.wide === null) {
      const value = this.value
      for (let i = 0; i < length; i++) {
        const x = d[i]!
        if (skip && x === NULL) continue
        const g = groups[i]!
        if (first && seen[g] === 1) continue
        value[g] = x
        seen[g] = 1
      }
      return
    }
    const w = halvesOf(this.widen())
    if (d instanceof Float64Array) {
      for (let i = 0; i < length; i++) {
        const x = d[i]!
        if (skip && x === NULL) continue
        const g = groups[i]!
        if (first && seen[g] === 1) continue
        setHalves(w, g, x)
        seen[g] = 1
      }
      return
    }
    const src = halvesOf(d)
    for (let i = 0; i < length; i++) {
      const h = src[2 * i + HI]!, l = src[2 * i + LO]!
      if (skip && h === NULL_HI && l === 0) continue
      const g = groups[i]!
      if (first && seen[g] === 1) continue
      w[2 * g + HI] = h
      w[2 * g + LO] = l
      seen[g] = 1
    }
  }

  /**
   * {@link update} of `last` when the groups are few against the batch: first each group's row
   * that counts (its last (non-null) row of the batch: one store per row, {@link rowOfGroup}),
   * then one copy per group, instead of a copy of the value per row. (`first` keeps its row loop:
   * once a group has its value, its rows cost a load and a test, no store.)
   */
  private updateByRow(groups: Int32Array, d: Float64Array | BigInt64Array, length: number, n: number): void {
    const rows = rowOfGroup(groups, d, length, n, this.first, this.skipNulls)
    const seen = this.seen, first = this.first
    if (d instanceof Float64Array && this.wide === null) {
      const value = this.value
      for (let g = 0; g < n; g++) {
        const r = rows[g]!
        if (r < 0 || (first && seen[g] === 1)) continue
        value[g] = d[r]!
        seen[g] = 1
      }
      return
    }
    const w = halvesOf(this.widen())
    const src = d instanceof BigInt64Array ? halvesOf(d) : null
    for (let g = 0; g < n; g++) {
      const r = rows[g]!
      if (r < 0 || (first && seen[g] === 1)) continue
      if (src === null) setHalves(w, g, d[r] as number)
      else { w[2 * g + HI] = src[2 * r + HI]!; w[2 * g + LO] = src[2 * r + LO]! }
      seen[g] = 1
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    if (this.first && this.seen[group] === 1) return
    const d = values(arg(args, 0), length)
    // the one row that counts: the first or last (non-null) of the batch
    const row = pick(d, length, this.first, this.skipNulls)
    if (row >= 0) this.put(group, d, row)
  }

  /** Sets group g to row `row` of `d`. */
  private put(g: number, d: Float64Array | BigInt64Array, row: number): void {
    if (d instanceof Float64Array && this.wide === null) this.value[g] = d[row]!
    else {
      const w = halvesOf(this.widen())
      if (d instanceof Float64Array) setHalves(w, g, d[row]!)
      else { const s = halvesOf(d); w[2 * g + HI] = s[2 * row + HI]!; w[2 * g + LO] = s[2 * row + LO]! }
    }
    this.seen[g] = 1
  }

  /** Copies `o`'s group f into this kernel's group g (o's layout may differ). */
  private copy(o: DecimalFirstLastKernel, f: number, g: number): void {
    if (o.wide === null && this.wide === null) this.value[g] = o.value[f]!
    else {
      const w = halvesOf(this.widen())
      if (o.wide === null) setHalves(w, g, o.value[f]!)
      else { const s = halvesOf(o.wide); w[2 * g + HI] = s[2 * f + HI]!; w[2 * g + LO] = s[2 * f + LO]! }
    }
    this.seen[g] = 1
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as DecimalFirstLastKernel
    for (let i = 0; i < count; i++) {
      const f = from[i]!, g = to[i]!
      if (o.seen[f] !== 1 || (this.first && this.seen[g] === 1)) continue
      this.copy(o, f, g)
    }
  }

  result(count: number): Vector {
    if (this.wide !== null) {
      const data = new BigInt64Array(count)
      const w = halvesOf(data), src = halvesOf(this.wide)
      for (let g = 0; g < count; g++) {
        if (this.seen[g] === 1) { w[2 * g + HI] = src[2 * g + HI]!; w[2 * g + LO] = src[2 * g + LO]! } else { w[2 * g + HI] = NULL_HI; w[2 * g + LO] = 0 }
      }
      return { kind: 'i64', type: this.type, length: count, data }
    }
    const data = new Float64Array(count)
    for (let g = 0; g < count; g++) data[g] = this.seen[g] === 1 ? this.value[g]! : NULL
    return { kind: 'i64', type: this.type, length: count, data }
  }
}

/**
 * A keyed batch goes through {@link rowOfGroup} when the kernel's groups (its arrays' length) are
 * at most this many per batch row: the per-group pass then costs less than the per-row copies.
 */
const ROWS_PER_GROUP_SLOT = 2

/** Scratch for {@link rowOfGroup}: a row per group (this thread's; reused by every batch). */
let groupRows = new Int32Array(1024)

/**
 * For each of the `n` groups, the batch row whose value a `first` / `last` keeps: its first or
 * last row (non-null when `skip`), -1 when the batch has none. Rows are visited from the end for
 * `first`, so the earliest row's store is the one left.
 */
function rowOfGroup(groups: Int32Array, d: Float64Array | BigInt64Array, length: number, n: number, first: boolean, skip: boolean): Int32Array {
  if (groupRows.length < n) groupRows = new Int32Array(Math.max(n, groupRows.length * 2))
  const rows = groupRows
  rows.fill(-1, 0, n)
  if (!skip) {
    if (first) for (let i = length - 1; i >= 0; i--) rows[groups[i]!] = i
    else for (let i = 0; i < length; i++) rows[groups[i]!] = i
  } else if (d instanceof Float64Array) {
    if (first) { for (let i = length - 1; i >= 0; i--) if (d[i] !== NULL) rows[groups[i]!] = i } else for (let i = 0; i < length; i++) if (d[i] !== NULL) rows[groups[i]!] = i
  } else {
    const w = halvesOf(d)
    if (first) { for (let i = length - 1; i >= 0; i--) if (w[2 * i + HI] !== NULL_HI || w[2 * i + LO] !== 0) rows[groups[i]!] = i } else for (let i = 0; i < length; i++) if (w[2 * i + HI] !== NULL_HI || w[2 * i + LO] !== 0) rows[groups[i]!] = i
  }
  return rows
}

/** The unscaled values of a DECIMAL argument (an untyped NULL arrives as the null layout: all null). */
function values(v: Vector, length: number): Float64Array | BigInt64Array {
  return v.kind === 'i64' ? v.data : new Float64Array(length).fill(NULL)
}

/** Writes the safe integer (or null sentinel) `x` as row g's halves. */
function setHalves(w: Int32Array, g: number, x: number): void {
  if (x === NULL) { w[2 * g + HI] = NULL_HI; w[2 * g + LO] = 0; return }
  const h = Math.floor(x / TWO32)
  w[2 * g + HI] = h
  w[2 * g + LO] = x - h * TWO32
}

/** The first or last row of `d[0, length)` (non-null when `skip`), or -1. */
function pick(d: Float64Array | BigInt64Array, length: number, first: boolean, skip: boolean): number {
  if (length === 0) return -1
  if (!skip) return first ? 0 : length - 1
  if (d instanceof Float64Array) {
    if (first) { for (let i = 0; i < length; i++) if (d[i] !== NULL) return i } else for (let i = length - 1; i >= 0; i--) if (d[i] !== NULL) return i
    return -1
  }
  const w = halvesOf(d)
  const isNull = (i: number): boolean => w[2 * i + HI] === NULL_HI && w[2 * i + LO] === 0
  if (first) { for (let i = 0; i < length; i++) if (!isNull(i)) return i } else for (let i = length - 1; i >= 0; i--) if (!isNull(i)) return i
  return -1
}
