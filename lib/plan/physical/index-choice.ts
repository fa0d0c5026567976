/**
 * Index or parallel scan: a scan the optimizer marked to read through a symbol index
 * (`sym = 'x'`, `sym IN (...)`, plan/optimize/use-symbol-index.ts) reads only the rows holding
 * those values, on the statement's thread, gathering them by row number; a parallel scan reads
 * every row in range, split across threads. The index wins while it reads a small share of the
 * rows: {@link INDEX_CHOICE}`.rowCost` is what one gathered row costs in sequentially scanned
 * rows, so the index is kept while `indexRows · rowCost ≤ scanRows / (workers + 1)`
 * (docs/benchmarks.md, "Index or parallel scan"). Dropping the index changes no answer: the
 * filter above the scan keeps every conjunct.
 *
 * The rows the index reads are estimated without reading it: the share of the column's distinct
 * values the scan asks for (values not in the dictionary have no rows), times the rows the scan
 * would read ({@link rowsToRead}) — values spread evenly, as TSBS hosts or instruments do.
 */
import type { ScanNode } from '../plan-node.js'
import { rowsToRead } from './scan-rows.js'

/**
 * One row read through the index costs about `rowCost` rows read by a sequential scan (measured
 * on 2 threads, docs/benchmarks.md). Benchmarks set 0 to force the index, Infinity to force the split.
 */
export const INDEX_CHOICE = { rowCost: 2.5 }

/** Estimated rows `scan` reads through its symbol index (all it would read without one when it has none). */
export function indexRows(scan: ScanNode): number {
  const rows = rowsToRead(scan)
  const ix = scan.symbolIndex
  if (ix === undefined) return rows
  const dict = scan.table.dictOf(ix.column)
  if (dict === undefined || dict.size === 0) return 0
  let known = 0
  for (const v of new Set(ix.values)) if (v === null || dict.lookup(v) >= 0) known++
  return rows * Math.min(1, known / dict.size)
}

/**
 * The scan a parallel operator with `workers` threads besides this one would read: `scan`
 * itself, or without its symbol index when the index is not the cheaper way; undefined when
 * the index is (keep the serial index scan).
 */
export function parallelScan(scan: ScanNode, workers: number): ScanNode | undefined {
  if (scan.symbolIndex === undefined) return scan
  if (indexRows(scan) * INDEX_CHOICE.rowCost <= rowsToRead(scan) / (workers + 1)) return undefined
  const { symbolIndex: _, ...full } = scan
  return full
}
