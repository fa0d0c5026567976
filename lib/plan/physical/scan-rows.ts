/**
 * How many rows a scan will read, estimated without reading any: the table's row count, or with
 * timestamp intervals, each part's rows times the share of its [first, last] timestamp span the
 * intervals cover (rows spread evenly in time, which time-series tables roughly are).
 */
import type { ScanNode } from '../plan-node.js'

/** Estimated rows `scan` reads. */
export function rowsToRead(scan: ScanNode): number {
  const iv = scan.intervals
  if (iv === undefined) return scan.table.rowCount
  let n = 0
  for (const p of scan.table.snapshot().parts) {
    if (p.rows === 0) continue
    if (Number.isNaN(p.minTs) || Number.isNaN(p.maxTs)) { n += p.rows; continue }
    const span = p.maxTs - p.minTs
    let covered = 0
    for (let k = 0; k < iv.length; k += 2) {
      const lo = Math.max(iv[k]!, p.minTs)
      const hi = Math.min(iv[k + 1]!, p.maxTs)
      if (hi >= lo) covered += span === 0 ? 1 : (hi - lo) / span
    }
    n += p.rows * Math.min(1, covered)
  }
  return n
}
