/**
 * Partition management on a table's rows: dropping whole partitions (ALTER TABLE DROP PARTITION,
 * TTL). Works the same in memory and on disk: the table gets a new version without the rows
 * (copy-on-write), which durable storage then persists.
 */
import type { Table } from './table.js'
import { type PartitionRange, splitPartitions } from './durable/partition-split.js'
import { ttlCutoff } from './durable/partition-key.js'

/** The table's partitions now (row ranges of its current snapshot). */
export function partitionsOf(table: Table): PartitionRange[] {
  return splitPartitions(table.snapshot())
}

/** Removes the partitions for which `drop` is true; returns how many were removed. */
export function dropPartitions(table: Table, drop: (p: PartitionRange) => boolean): number {
  const snap = table.snapshot()
  const parts = splitPartitions(snap)
  const gone = parts.filter(drop)
  if (gone.length === 0) return 0
  let count = 0
  for (const p of parts) if (!gone.includes(p)) count += p.end - p.start
  const order = new Int32Array(count)
  let n = 0
  for (const p of parts) if (!gone.includes(p)) for (let r = p.start; r < p.end; r++) order[n++] = r
  table.replace(snap.data.columns.map((c) => c.permuted(order, count)), count)
  return gone.length
}

/**
 * TTL: drops the partitions whose whole time range is older than the newest row minus the TTL.
 * Cheap when nothing expired (looks at the first and last rows only).
 */
export function applyTtl(table: Table): void {
  const ttl = table.meta.ttl
  if (ttl === undefined || ttl === null || table.meta.timestampIndex < 0 || table.meta.partitionBy === 'NONE' || table.rowCount === 0) return
  const snap = table.snapshot()
  const ts = snap.data.columns[table.meta.timestampIndex]!
  const first = Number(ts.view(0, 1).data![0])
  const last = Number(ts.view(snap.rowCount - 1, snap.rowCount).data![0])
  const cutoff = ttlCutoff(last, ttl.count, ttl.unit)
  if (first >= cutoff) return
  dropPartitions(table, (p) => p.hi <= cutoff)
}
