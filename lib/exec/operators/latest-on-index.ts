/**
 * `LATEST ON ts PARTITION BY sym` over a bare table scan whose key is an indexed SYMBOL column
 * (`LatestByAllIndexed`, rule `use-symbol-index`): the latest row of a symbol is the last row of
 * its postings in the newest part that has any, so the answer is found from the index alone,
 * part by part from the newest, and then only those rows are read — one per symbol — instead of
 * scanning rows backwards until every symbol is met (which reads the whole table when one
 * symbol's latest row is old). The null key counts as a key, as in the row scan. With the scan's
 * timestamp intervals, only the row ranges inside them are looked up, newest first.
 */
import { type Batch, type Vector, VectorWriter, gather, getScalar } from '../../types/vector.js'
import type { LatestOnNode, ScanNode } from '../../plan/plan-node.js'
import type { SnapshotPart } from '../../storage/table-parts.js'
import type { BackwardRanges } from './latest-on.js'
import { concatBatches } from './sort.js'

/**
 * The latest row per symbol of the scan's snapshot, in timestamp order; undefined when some part
 * has no index to read (the caller then scans rows).
 */
export function latestFromIndex(node: LatestOnNode, scan: ScanNode, column: number, ranges: BackwardRanges): Batch | undefined {
  const key = node.partitionBy[0]!
  const dict = key.kind === 'column' ? scan.output[key.index]?.dict : undefined
  if (dict === undefined) return undefined
  // the keys not found yet: null (-1) and every symbol of the dictionary
  const remaining = new Int32Array(dict.size + 1)
  for (let k = 0; k < remaining.length; k++) remaining[k] = k - 1
  let left = remaining.length
  // the rows found per range, newest range first
  const hits: { part: SnapshotPart; sel: Int32Array }[] = []
  for (let s = 0, seg = ranges.at(0); seg !== undefined && left > 0; seg = ranges.at(++s)) {
    const postings = seg.part.postings?.(column)
    if (postings === undefined) return undefined
    const rows: number[] = []
    let kept = 0
    for (let i = 0; i < left; i++) {
      const k = remaining[i]!
      const r = postings.rows(k, seg.from, seg.to)
      if (r.length > 0) rows.push(r[r.length - 1]!)
      else remaining[kept++] = k
    }
    left = kept
    if (rows.length > 0) hits.push({ part: seg.part, sel: Int32Array.from(rows).sort() })
  }
  const out: Batch[] = []
  for (let h = hits.length - 1; h >= 0; h--) out.push(rowsOf(hits[h]!.part, scan.columns, hits[h]!.sel))
  return concatBatches(out, node.output)
}

/** Rows `sel` (ascending) of a part's columns `columns`. */
function rowsOf(part: SnapshotPart, columns: readonly number[], sel: Int32Array): Batch {
  const reader = part.open(columns)
  const n = sel.length
  const vectors: Vector[] = columns.map((_, c) => {
    const probe = reader.view(c, 0, 0)
    // text and binary views copy: those columns are read row by row
    if (probe.kind !== 'str' && probe.kind !== 'bin') return gather(reader.view(c, 0, part.rows), sel, n)
    const w = new VectorWriter(probe.type, n)
    for (let i = 0; i < n; i++) w.set(i, getScalar(reader.view(c, sel[i]!, sel[i]! + 1), 0))
    return w.finish()
  })
  return { length: n, vectors }
}
