/**
 * The out-of-order merge of an append without DEDUP: the new rows go into timestamp order among
 * the table's in-memory rows, rewriting only the rows from the first one a new row lands before.
 *
 * The common case is not random order: two or more producers writing "now", each in order, whose
 * batches meet in one group commit (two ILP clients, two TCP connections). The new rows are then
 * a few ascending runs, and they overlap only the newest existing rows. So, instead of copying
 * every in-memory row one by one, building an order over all of them and sorting the new rows
 * with a comparator (merge-rows.ts `timestampOrder`, which DEDUP still uses):
 * - the rows before the first one a new row lands before are copied as a block per column;
 * - the new rows are ordered by a natural merge sort: their ascending runs are found in one pass
 *   and merged pairwise (one run: no work; two interleaved in-order streams: one merge), stable,
 *   on typed arrays of row numbers;
 * - that order is merged with the overlapped existing rows (existing first on ties, then the new
 *   rows in arrival order, as before) and only those rows are gathered.
 *
 * QuestDB does the same in spirit: its O3 commit sorts the uncommitted rows by timestamp and merges
 * them with the overlapped part of the partition, leaving the part before it alone
 * (`cairo.o3.max.lag` bounds how far back a commit expects late rows).
 */
import { type I64Vector, type Vector, materialize } from '../types/vector.js'
import { ColumnBuffer, type RowPiece } from './column-buffer.js'
import { firstAfter, minOf } from './merge-rows.js'

type Stamps = Float64Array | BigInt64Array

/**
 * The stable ascending order of `d[base, base + n)`, as row numbers relative to `base`: a
 * natural merge sort (ascending runs found in one pass, then merged pairwise).
 */
export function runOrder(d: Stamps, base: number, n: number): Int32Array {
  let a = new Int32Array(n)
  for (let i = 0; i < n; i++) a[i] = i
  // run starts, with n at the end
  const starts: number[] = [0]
  for (let i = 1; i < n; i++) if (d[base + i]! < d[base + i - 1]!) starts.push(i)
  starts.push(n)
  if (starts.length <= 2) return a
  let b = new Int32Array(n)
  let runs = starts
  while (runs.length > 2) {
    const next: number[] = [0]
    for (let r = 0; r + 1 < runs.length; r += 2) {
      const lo = runs[r]!, mid = runs[r + 1]!, hi = r + 2 < runs.length ? runs[r + 2]! : mid
      // left run first on ties: stable
      let i = lo, j = mid, o = lo
      while (i < mid && j < hi) b[o++] = d[base + a[j]!]! < d[base + a[i]!]! ? a[j++]! : a[i++]!
      while (i < mid) b[o++] = a[i++]!
      while (j < hi) b[o++] = a[j++]!
      next.push(hi)
    }
    if (next[next.length - 1] !== n) next.push(n)
    const t = a; a = b; b = t
    runs = next
  }
  return a
}

/**
 * The rows of `cols` from row `keep` on, after appending `vectors` (`length` rows, one vector per
 * column, not in order after the newest row) to the first `existing` rows, in timestamp order
 * (column `ts`): new buffers holding rows [keep, existing) and the new rows, the old buffers
 * untouched (readers may hold them). `from` is the first existing row a new row lands before
 * (`firstAfter`, at least `keep`): rows [keep, from) are copied as a block, the rest merged. Ties
 * keep existing rows first, then new rows in arrival order. Rows [0, keep) stay where they are:
 * the caller keeps them (a table's frozen in-memory segment, see `Table.merge`). The new buffers
 * have room for `spare` more rows (default: another `length`).
 */
export function mergeTail(cols: readonly ColumnBuffer[], keep: number, from: number, existing: number, vectors: readonly Vector[], length: number, ts: number, spare = length): ColumnBuffer[] {
  const tailOld = existing - from
  const n = tailOld + length
  const old = (cols[ts]!.view(from, existing) as I64Vector).data as Stamps
  const fresh = (materialize(vectors[ts]!) as I64Vector).data as Stamps
  const runs = runOrder(fresh, 0, length)
  // row k < tailOld: existing row from + k; otherwise new row k - tailOld
  const order = new Int32Array(n)
  let i = 0, j = 0, o = 0
  while (i < tailOld && j < length) {
    const k = runs[j]!
    if (fresh[k]! < old[i]!) { order[o++] = tailOld + k; j++ } else order[o++] = i++
  }
  while (i < tailOld) order[o++] = i++
  while (j < length) order[o++] = tailOld + runs[j++]!
  const total = existing - keep + length
  return cols.map((b, c) => {
    // room (`spare` rows) for the next in-order batch without regrowing at once
    const out = new ColumnBuffer(b.type, total + spare, b.dict)
    if (from > keep) out.appendRange(b.view(keep, from), 0, from - keep)
    const overlapped = b.view(from, existing)
    if (!out.appendGathered(overlapped, vectors[c]!, order, n, tailOld)) {
      // staged: the overlapped rows and the new ones in one buffer, then gathered
      const t = new ColumnBuffer(b.type, n, b.dict)
      t.appendRange(overlapped, 0, tailOld)
      t.append(vectors[c]!)
      out.appendRange(t.permuted(order, n).view(0, n), 0, n)
    }
    return out
  })
}

/**
 * The columns after appending `vectors` (`length` rows, one vector per column, not in order
 * after the newest row) to the first `existing` rows of `cols`, in timestamp order (column
 * `ts`): new buffers, the old ones untouched (readers may hold them). Ties keep existing rows
 * first, then new rows in arrival order.
 */
export function mergeOutOfOrder(cols: readonly ColumnBuffer[], existing: number, vectors: readonly Vector[], length: number, ts: number): ColumnBuffer[] {
  const from = firstAfter(cols[ts]!, existing, minOf(vectors[ts] as I64Vector, length), false)
  return mergeTail(cols, 0, from, existing, vectors, length, ts)
}

/**
 * Rows held as consecutive pieces, oldest first (what an out-of-order merge reaches across: the
 * rows after a cut partition's cut, whole partitions, the in-memory segments): `rows` rows whose
 * column `c` is `column(c)` (called once per column and merge).
 */
export interface RowSegment {
  readonly rows: number
  column(c: number): Vector
}

/** Index of the first row of the segments' timestamps `stamps` (rows in order) after `min`, or with `dedup` at it. */
function firstAfterSegments(stamps: readonly Stamps[], rows: readonly number[], min: number | bigint, dedup: boolean): number {
  let base = 0
  for (let s = 0; s < stamps.length; s++) {
    const d = stamps[s]!
    const n = rows[s]!
    if (n === 0 || (dedup ? d[n - 1]! < min : d[n - 1]! <= min)) { base += n; continue }
    let lo = 0, hi = n
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (dedup ? d[mid]! < min : d[mid]! <= min) lo = mid + 1
      else hi = mid
    }
    return base + lo
  }
  return base
}

/**
 * The rows of `segments` and the new rows `vectors` (`length`, not in order after the newest row)
 * in timestamp order (column `ts`), copied once into new buffers shaped like `like` (type and
 * dictionary per column): {@link mergeTail} over rows not in one buffer yet. An out-of-order merge
 * that moves checkpointed rows to memory gathers them from where they were read straight into the
 * merged version; before, they were first copied into one in-memory version (the thaw) and then
 * copied again by the merge. Rows before the first one a new row lands before are copied as
 * blocks; ties keep existing rows first, then the new rows in arrival order (as `mergeTail`).
 */
export function mergeSegments(like: readonly ColumnBuffer[], segments: readonly RowSegment[], vectors: readonly Vector[], length: number, ts: number): ColumnBuffer[] {
  const rows = segments.map((s) => s.rows)
  const tsVectors = segments.map((s) => materialize(s.column(ts)))
  const stamps = tsVectors.map((v) => v.data as Stamps)
  let existing = 0
  for (const n of rows) existing += n
  const fresh = (materialize(vectors[ts]!) as I64Vector).data as Stamps
  const from = firstAfterSegments(stamps, rows, minOf(vectors[ts] as I64Vector, length), false)
  const tailOld = existing - from
  const n = tailOld + length
  const runs = runOrder(fresh, 0, length)
  // row k < tailOld: existing row from + k; otherwise new row k - tailOld
  const order = new Int32Array(n)
  let s = 0, local = from
  while (s < rows.length && local >= rows[s]!) local -= rows[s++]!
  let i = 0, j = 0, o = 0
  while (i < tailOld && j < length) {
    while (local >= rows[s]!) { s++; local = 0 }
    const k = runs[j]!
    if (fresh[k]! < stamps[s]![local]!) { order[o++] = tailOld + k; j++ } else { order[o++] = i++; local++ }
  }
  while (i < tailOld) order[o++] = i++
  while (j < length) order[o++] = tailOld + runs[j++]!
  return like.map((b, c) => {
    const vs = c === ts ? tsVectors : segments.map((seg) => seg.column(c))
    // room for the next in-order batch of this size without regrowing at once
    const out = new ColumnBuffer(b.type, existing + length + length, b.dict)
    // the rows before `from` as blocks, then the pieces the merge gathers from
    const pieces: RowPiece[] = []
    let base = 0
    for (let k = 0; k < vs.length; k++) {
      const v = vs[k]!, r = rows[k]!
      const lo = Math.max(0, Math.min(r, from - base))
      out.appendRange(v, 0, lo)
      if (lo < r) pieces.push({ v, lo, hi: r })
      base += r
    }
    out.appendMerged(pieces, vectors[c]!, order, n, tailOld)
    return out
  })
}
