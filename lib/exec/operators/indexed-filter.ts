/**
 * A filter straight over a symbol-index scan (`use-symbol-index`), with late materialisation:
 * the index gives the part's row numbers in range, the predicate is evaluated on just the
 * columns it reads (gathered at those rows), and the other columns are gathered only at the rows
 * it keeps. An indexed scan under a plain filter would gather every column at every indexed row
 * first: `SELECT * ... WHERE hostname = 'x' AND usage_user > 90` read 21 columns of a host's
 * rows to keep a handful.
 *
 * Same rows, same order, same batches' content as the plain filter over the indexed scan: every
 * conjunct is still evaluated (the index narrows what is read, never decides an answer).
 */
import { BATCH_SIZE, type Batch, type Vector, gather } from '../../types/vector.js'
import type { BoundExpr, FilterNode, ScanNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import { partMeets } from '../../storage/table-parts.js'
import { columnsOf } from '../../plan/optimize/walk.js'
import { filterSelector, gatherPartRows, indexKeys, indexedPartRows, rowRanges, scanRowIntervals, scanSnapshot, wholeColumns } from './basic.js'

/** Cells (values) gathered at indexed rows by this operator since the process started (tests read it: late materialisation gathers fewer). */
export const INDEXED_FILTER_STATS = { gathered: 0 }

/** True when `node` is a filter this operator runs: over an indexed scan, its predicate reading only the scan's columns. */
export function isIndexedFilter(node: FilterNode): node is FilterNode & { readonly input: ScanNode } {
  return node.input.kind === 'scan' && node.input.symbolIndex !== undefined && readsOnlyColumns(node.predicate)
}

/** No subqueries: every value the predicate reads is a column {@link columnsOf} names, or a constant. */
function readsOnlyColumns(e: BoundExpr): boolean {
  switch (e.kind) {
    case 'subquery': case 'exists': case 'in_query': return false
    case 'call': return e.args.every(readsOnlyColumns)
    case 'cast': case 'isnull': case 'in': case 'in_intervals': return readsOnlyColumns(e.expr)
    case 'case': return e.whens.every((w) => readsOnlyColumns(w.when) && readsOnlyColumns(w.then)) && readsOnlyColumns(e.else)
    default: return true
  }
}

/** Runs a filter over an indexed scan ({@link isIndexedFilter}). */
export async function* runIndexedFilter(node: FilterNode & { readonly input: ScanNode }, ctx: ExecContext): AsyncGenerator<Batch> {
  const scan = node.input
  const snap = scanSnapshot(scan)
  const keys = indexKeys(scan)
  const ti = scan.intervals === undefined ? -1 : snap.meta.timestampIndex
  const rowIntervals = scanRowIntervals(scan, snap)
  const pred = filterSelector(node.predicate, ctx)
  const read = new Set<number>()
  columnsOf(node.predicate, read)
  const predCols = [...read]
  const k = scan.columns.length
  const out = node.projection ?? scan.columns.map((_, c) => c)
  for (const part of snap.parts) {
    if (part.rows === 0 || (scan.intervals !== undefined && !partMeets(part, scan.intervals))) continue
    const reader = part.open(scan.columns)
    const rows = keys === undefined ? undefined : indexedPartRows(scan, part, keys, ti, rowIntervals)
    if (rows === undefined) {
      // no index in this part (its column has no keys): its rows in range, as a plain scan reads them
      const ranges = rowIntervals === undefined ? [0, part.rows] : rowRanges(part.open([snap.meta.timestampIndex]).view(0, 0, part.rows), rowIntervals)
      for (let r = 0; r < ranges.length; r += 2) {
        for (let start = ranges[r]!; start < ranges[r + 1]!; start += BATCH_SIZE) {
          const end = Math.min(start + BATCH_SIZE, ranges[r + 1]!)
          const vectors: Vector[] = new Array(k)
          for (let c = 0; c < k; c++) vectors[c] = reader.view(c, start, end)
          const { sel, count } = pred({ length: end - start, vectors })
          if (count > 0) yield { length: count, vectors: out.map((c) => (count === end - start ? vectors[c]! : gather(vectors[c]!, sel, count))) }
          await ctx.maybeYield()
        }
      }
      continue
    }
    const whole = wholeColumns(part, reader, k)
    for (let from = 0; from < rows.length; from += BATCH_SIZE) {
      const ids = rows.subarray(from, Math.min(rows.length, from + BATCH_SIZE))
      const n = ids.length
      const vectors: Vector[] = new Array(k)
      for (const c of predCols) vectors[c] = gatherPartRows(whole, reader, c, ids, n)
      INDEXED_FILTER_STATS.gathered += predCols.length * n
      const { sel, count } = pred({ length: n, vectors })
      if (count > 0) {
        const kept = count === n ? ids : pick(ids, sel, count)
        const cols: Vector[] = new Array(out.length)
        for (let o = 0; o < out.length; o++) {
          const c = out[o]!
          const have = vectors[c]
          if (have !== undefined) { cols[o] = count === n ? have : gather(have, sel, count); continue }
          cols[o] = gatherPartRows(whole, reader, c, kept, count)
          INDEXED_FILTER_STATS.gathered += count
        }
        yield { length: count, vectors: cols }
      }
      await ctx.maybeYield()
    }
  }
}

/** `ids[sel[i]]` for i < count. */
function pick(ids: Int32Array, sel: Int32Array, count: number): Int32Array {
  const out = new Int32Array(count)
  for (let i = 0; i < count; i++) out[i] = ids[sel[i]!]!
  return out
}
