/**
 * Splits a table's in-memory rows (in timestamp order) into time partitions: row ranges with
 * bounds and names. Used by checkpoints, SHOW PARTITIONS and DROP PARTITION alike.
 */
import type { PartitionUnit } from '../sql/ast.js'
import type { I64Vector } from '../types/vector.js'
import type { TableData, TableMeta } from './table.js'
import { partitionName, partitionOf } from './partition-key.js'
import { timestampMicros } from '../types/timestamp-ns.js'
import type { HeldRows } from './held-rows.js'

/** One partition's rows in a snapshot. */
export interface PartitionRange {
  readonly name: string
  /** bounds in microseconds: lo inclusive, hi exclusive (±Infinity for NONE) */
  readonly lo: number
  readonly hi: number
  /** rows [start, end) of the snapshot */
  readonly start: number
  readonly end: number
  /** smallest and largest designated timestamps (NaN without a designated timestamp) */
  readonly minTs: number
  readonly maxTs: number
}

/**
 * The partitions of in-memory rows (none when there are no rows); rows are indexes into `data`.
 * Segments held apart ({@link HeldRows}) are split one by one, a partition spanning them reported once.
 */
export function splitPartitions(meta: TableMeta, data: TableData | HeldRows): PartitionRange[] {
  if (!('segments' in data)) return splitOne(meta, data)
  const out: PartitionRange[] = []
  let start = 0
  for (const d of data.segments) {
    for (const r of splitOne(meta, d)) {
      const last = out[out.length - 1]
      if (last !== undefined && last.lo === r.lo && last.hi === r.hi) out[out.length - 1] = { ...last, end: start + r.end, maxTs: r.maxTs }
      else out.push({ ...r, start: start + r.start, end: start + r.end })
    }
    start += d.rowCount
  }
  return out
}

function splitOne(meta: TableMeta, data: TableData): PartitionRange[] {
  const n = data.rowCount
  if (n === 0) return []
  const unit: PartitionUnit = meta.timestampIndex < 0 ? 'NONE' : meta.partitionBy
  if (meta.timestampIndex < 0) return [{ name: 'default', lo: -Infinity, hi: Infinity, start: 0, end: n, minTs: NaN, maxTs: NaN }]
  const col = data.columns[meta.timestampIndex]!
  const ts = (col.view(0, n) as I64Vector).data
  const at = (i: number) => timestampMicros(col.type, ts[i]!)
  const out: PartitionRange[] = []
  let start = 0
  while (start < n) {
    const b = partitionOf(at(start), unit)
    let lo = start + 1
    let hi = n
    while (lo < hi) { const mid = (lo + hi) >>> 1; if (at(mid) < b.hi) lo = mid + 1; else hi = mid }
    out.push({ name: partitionName(b.lo, unit), lo: b.lo, hi: b.hi, start, end: lo, minTs: at(start), maxTs: at(lo - 1) })
    start = lo
  }
  return out
}
