/**
 * Several `avg(double)` / `sum(double)` aggregates of one GROUP BY or SAMPLE BY folded in one
 * pass over the rows (TSBS's `double-groupby-all`: ten averages per (hour, host)).
 *
 * {@link DoubleSumKernel} folds one aggregate per pass: per row it reads the group id, loads
 * and stores the group's sum and its count. With ten aggregates that is ten passes over the
 * group ids and twenty scattered read-modify-writes per row. Here the rows are read once:
 * each row's group id once, one row count per group shared by all the aggregates (a null —
 * NaN or ±Infinity — counts as a null of its aggregate instead, rare), and the aggregates' sums
 * of a group side by side in one array (`sums[g * n + a]`), so a row touches one cache line
 * of sums. The row loop is generated once per number of aggregates (straight-line code per
 * aggregate, no inner loop over an array of columns, which V8 compiles 2x slower).
 *
 * Each group's sum adds its values in row order, as the per-aggregate kernel does, so
 * {@link FusedDoubleSums.settle} hands the member kernels exactly the sums and counts they
 * would have computed, and their `result` / `merge` work unchanged.
 */
import { type Vector, materialize } from '../../types/vector.js'
import type { AggregateKernel } from '../registry-types.js'
import { DoubleSumKernel, sumF64 } from './double-sum.js'

/** Aggregates folded by one generated loop, at most (more are split into several). */
export const MAX_FUSED = 16

type RowLoop = (groups: Int32Array, length: number, rows: Float64Array, sums: Float64Array, nulls: Float64Array, ...cols: Float64Array[]) => void

const loops = new Map<number, RowLoop>()

/**
 * The row loop for `n` aggregates. Generated from a fixed template: only `n` and the column
 * ordinals vary, no text from a statement reaches it.
 */
function rowLoop(n: number): RowLoop {
  let f = loops.get(n)
  if (f !== undefined) return f
  const cols = Array.from({ length: n }, (_, a) => `d${a}`)
  let body = 'for (let i = 0; i < length; i++) {\n  const g = groups[i];\n  rows[g]++;\n'
  body += `  const o = g * ${n};\n`
  for (let a = 0; a < n; a++) body += `  { const x = d${a}[i]; if (x - x === 0) sums[o + ${a}] += x; else nulls[o + ${a}]++; }\n`
  body += '}\n'
  f = new Function('groups', 'length', 'rows', 'sums', 'nulls', ...cols, body) as RowLoop
  loops.set(n, f)
  return f
}

/** True when `k` can be folded by {@link FusedDoubleSums}: sum or avg of doubles (not of INT / LONG), accumulated as doubles. */
export function isFusableDoubleSum(k: AggregateKernel): k is DoubleSumKernel {
  return k instanceof DoubleSumKernel && k.type === 'DOUBLE' && !k.integers
}

/** The argument of one member as a Float64Array of `length` values (constants expanded, FLOAT widened). */
function f64Arg(v: Vector, length: number): Float64Array {
  const m = materialize(v)
  const d = m.data
  if (d instanceof Float64Array) return d
  if (d instanceof Float32Array) return Float64Array.from(d.subarray(0, length))
  return new Float64Array(length).fill(NaN)
}

/** The shared state of a few {@link DoubleSumKernel}s folded together. */
export class FusedDoubleSums {
  private readonly n: number
  private readonly loop: RowLoop
  private rows = new Float64Array(16)
  private sums: Float64Array
  private nulls: Float64Array
  private cap = 16
  private count = 0
  private readonly cols: Float64Array[]
  /** the unkeyed batch sum's scratch (sum, count) */
  private readonly acc = new Float64Array(2)

  /** @param members the kernels folded here (each passes {@link isFusableDoubleSum}), at most {@link MAX_FUSED} */
  constructor(private readonly members: readonly DoubleSumKernel[]) {
    this.n = members.length
    if (this.n < 1 || this.n > MAX_FUSED) throw new RangeError(`fuse 1..${MAX_FUSED} aggregates, not ${this.n}`)
    this.loop = rowLoop(this.n)
    this.sums = new Float64Array(16 * this.n)
    this.nulls = new Float64Array(16 * this.n)
    this.cols = new Array<Float64Array>(this.n)
  }

  /** Makes room for groups 0..count-1. */
  resize(count: number): void {
    if (count > this.count) this.count = count
    if (count <= this.cap) return
    const cap = Math.max(count, this.cap * 2)
    const rows = new Float64Array(cap); rows.set(this.rows); this.rows = rows
    const sums = new Float64Array(cap * this.n); sums.set(this.sums); this.sums = sums
    const nulls = new Float64Array(cap * this.n); nulls.set(this.nulls); this.nulls = nulls
    this.cap = cap
  }

  /** Adds rows 0..length-1, row i to group `groups[i]`; `args[a]` is member a's argument. */
  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    for (let a = 0; a < this.n; a++) this.cols[a] = f64Arg(args[a]!, length)
    this.loop(groups, length, this.rows, this.sums, this.nulls, ...this.cols)
  }

  /** Adds rows 0..length-1, all to `group` (each member's values summed first, as {@link DoubleSumKernel.updateOne}). */
  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    const o = group * this.n
    const acc = this.acc
    for (let a = 0; a < this.n; a++) {
      sumF64(f64Arg(args[a]!, length), length, acc)
      this.sums[o + a] = this.sums[o + a]! + acc[0]!
      this.nulls[o + a] = this.nulls[o + a]! + (length - acc[1]!)
    }
    this.rows[group] = this.rows[group]! + length
  }

  /**
   * Adds what was folded here to the member kernels' sums and counts (which then hold exactly
   * what folding each alone would have given) and clears this state.
   */
  settle(): void {
    const { n, count, rows, sums, nulls } = this
    for (let a = 0; a < n; a++) {
      const k = this.members[a]!
      k.resize(count)
      const st = k.st
      for (let g = 0, o = a; g < count; g++, o += n) {
        st[2 * g] = st[2 * g]! + sums[o]!
        st[2 * g + 1] = st[2 * g + 1]! + (rows[g]! - nulls[o]!)
      }
    }
    rows.fill(0); sums.fill(0); nulls.fill(0)
  }
}

/**
 * Splits `kernels` into fused sets of the fusable ones (two or more together, at most
 * {@link MAX_FUSED} a set) and the rest: `fused[j].of` lists the kernel ordinals set j folds.
 */
export function fuseDoubleSums(kernels: readonly AggregateKernel[]): { fused: { of: number[]; sums: FusedDoubleSums }[]; rest: number[] } {
  const fusable: number[] = []
  const rest: number[] = []
  kernels.forEach((k, a) => (isFusableDoubleSum(k) ? fusable : rest).push(a))
  if (fusable.length < 2) return { fused: [], rest: kernels.map((_, a) => a) }
  const fused: { of: number[]; sums: FusedDoubleSums }[] = []
  for (let from = 0; from < fusable.length; from += MAX_FUSED) {
    const of = fusable.slice(from, from + MAX_FUSED)
    if (of.length === 1) { rest.push(of[0]!); continue }
    fused.push({ of, sums: new FusedDoubleSums(of.map((a) => kernels[a] as DoubleSumKernel)) })
  }
  rest.sort((x, y) => x - y)
  return { fused, rest }
}
