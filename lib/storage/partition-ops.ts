/**
 * Partition management on a table's rows: dropping whole partitions (ALTER TABLE DROP PARTITION,
 * TTL). Works the same in memory and on disk: checkpointed partitions leave the table's list
 * without being read or rewritten; in-memory rows of dropped partitions are filtered out
 * (copy-on-write), and durable storage then persists the new list.
 */
import type { Table } from './table.js'
import { type PartitionRange, splitPartitions } from './partition-split.js'
import { partitionName, ttlCutoff } from './partition-key.js'

/**
 * The table's partitions now: checkpointed ones from their metadata (nothing is read), then
 * those of the in-memory rows (a partition in both is reported once). Row ranges are table rows.
 */
export function partitionsOf(table: Table): PartitionRange[] {
  const unit = table.meta.timestampIndex < 0 ? 'NONE' : table.meta.partitionBy
  // first: merging late rows can move cold partitions to memory
  const memory = table.inMemory()
  const out: PartitionRange[] = []
  let start = 0
  for (const p of table.coldParts()) {
    // a partition an out-of-order merge cut is in several parts: reported once
    const last = out[out.length - 1]
    if (last !== undefined && last.lo === p.lo && last.hi === p.hi) out[out.length - 1] = { ...last, end: start + p.rows, maxTs: p.maxTs }
    else out.push({ name: partitionName(p.lo, unit), lo: p.lo, hi: p.hi, start, end: start + p.rows, minTs: p.minTs, maxTs: p.maxTs })
    start += p.rows
  }
  // the in-memory rows as they are held (segments after an out-of-order merge), not joined: TTL looks on every append
  for (const data of memory) {
    for (const r of splitPartitions(table.meta, data)) {
      const last = out[out.length - 1]
      if (last !== undefined && last.lo === r.lo && last.hi === r.hi) {
        out[out.length - 1] = { ...last, end: start + r.end, maxTs: r.maxTs }
        continue
      }
      out.push({ ...r, start: start + r.start, end: start + r.end })
    }
    start += data.rowCount
  }
  return out
}

/**
 * Removes the partitions for which `drop` is true; returns how many were removed. `soon`: a
 * durable table persists it in its background checkpoint (TTL inside a commit, see
 * `TableStore.persistSoon`), not at once.
 */
export function dropPartitions(table: Table, drop: (p: PartitionRange) => boolean, soon = false): number {
  const gone = partitionsOf(table).filter(drop)
  if (gone.length === 0) return 0
  const los = new Set(gone.map((p) => p.lo))
  table.dropRanges((lo) => los.has(lo), splitPartitions(table.meta, table.pending().data), soon)
  return gone.length
}

/**
 * TTL: drops the partitions whose whole time range is older than the newest row minus the TTL.
 * Cheap when nothing expired (looks at the partition bounds only).
 */
export function applyTtl(table: Table): void {
  const ttl = table.meta.ttl
  if (ttl === undefined || ttl === null || table.meta.timestampIndex < 0 || table.meta.partitionBy === 'NONE' || table.rowCount === 0) return
  const parts = partitionsOf(table)
  const cutoff = ttlCutoff(parts[parts.length - 1]!.maxTs, ttl.count, ttl.unit)
  if (parts[0]!.minTs >= cutoff) return
  // applied with rows (inside a commit): the partitions leave now, the files follow in the background checkpoint
  dropPartitions(table, (p) => p.hi <= cutoff, true)
}
