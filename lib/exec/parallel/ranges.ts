/**
 * Which rows of a table part the shares of a parallel operator read, and how they are cut: the
 * part's rows, or with timestamp intervals only the row ranges inside them (binary search, rows
 * being in timestamp order), each range cut into contiguous pieces, one per thread.
 */
import type { ScanNode } from '../../plan/plan-node.js'
import { type SnapshotPart, partMeets } from '../../storage/table-parts.js'
import { rowRanges } from '../operators/basic.js'
import { nsScanBounds } from '../../types/timestamp-ns.js'

/** The part-local row ranges [from, to) pairs `scan` reads of `part` (`ti`: the table's designated timestamp column). */
export function partRanges(scan: ScanNode, part: SnapshotPart, ti: number): number[] {
  if (part.rows === 0) return []
  if (scan.intervals === undefined) return [0, part.rows]
  if (!partMeets(part, scan.intervals)) return []
  const ts = part.open([ti]).view(0, 0, part.rows)
  // a TIMESTAMP_NS column's rows are searched with the nanosecond bounds covering the (µs) intervals, as a serial scan does
  return rowRanges(ts, ts.type === 'TIMESTAMP_NS' ? nsScanBounds(scan.intervals) : scan.intervals)
}

/** [from, to) cut into at most `pieces` contiguous pieces of near-equal size, as [start, end] pairs. */
export function cut(from: number, to: number, pieces: number): [number, number][] {
  const per = Math.ceil((to - from) / pieces)
  const out: [number, number][] = []
  for (let s = from; s < to; s += per) out.push([s, Math.min(s + per, to)])
  return out
}
