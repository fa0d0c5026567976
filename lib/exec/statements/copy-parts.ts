/**
 * `COPY t TO ...` by the table's own partitions: the rows of one snapshot of the table, part by
 * part, with each partition that is stored as one Parquet file (`ALTER TABLE t CONVERT PARTITION
 * TO PARQUET`) and holds all of its partition's rows handed over whole, to be copied byte for byte
 * (as QuestDB's COPY copies a partition already in Parquet) rather than decoded and encoded again.
 */
import { closeSync, openSync } from 'node:fs'
import type { ExecContext } from '../context.js'
import type { CopiedPartition } from '../../parquet/partitioned-export.js'
import type { PartitionUnit } from '../../sql/ast.js'
import type { Table } from '../../storage/table.js'
import type { SnapshotPart } from '../../storage/table-parts.js'
import { partitionOf } from '../../storage/partition-key.js'
import type { ColumnType } from '../../types/column-type.js'
import { BATCH_SIZE, type Batch, type Vector } from '../../types/vector.js'

/** A table's rows for a partitioned export, with the Parquet files they hold open. */
export interface TablePartRows {
  /** batches and whole partitions, in timestamp order */
  readonly batches: AsyncIterable<Batch | CopiedPartition>
  /** how many partitions come as files */
  readonly copied: number
  /** closes the files (call once the export ended, or failed) */
  close(): void
}

type Columns = readonly { readonly name: string; readonly type: ColumnType }[]

const sameColumns = (a: Columns, b: Columns): boolean => a.length === b.length && a.every((c, i) => c.name === b[i]!.name && c.type === b[i]!.type)

/**
 * The rows of `table` now (one snapshot) for an export partitioned by `unit` whose columns are
 * `columns` (the table's, in order), or undefined when no partition can be copied as a file (the
 * caller then runs the statement's plan as for any query). A part is copied when it is a whole
 * Parquet partition written for exactly these columns and no other part has rows in its partition.
 */
export function tablePartRows(table: Table, unit: Exclude<PartitionUnit, 'NONE'>, columns: Columns, ctx: ExecContext): TablePartRows | undefined {
  const snap = table.snapshot()
  const meta = snap.meta.columns
  if (unit !== snap.meta.partitionBy || snap.meta.timestampIndex < 0 || !sameColumns(meta, columns)) return undefined
  const parts = snap.parts.filter((p) => p.rows > 0)
  // opened now, before the event loop turns: the files as of the snapshot, even if replaced or removed later
  const fds = parts.map((p, i) => {
    const f = p.parquetFile?.()
    if (f === undefined || !sameColumns(f.columns, meta) || !alone(parts, i, unit)) return undefined
    try { return openSync(f.path, 'r') } catch { return undefined } // read as rows: the scan reports what is wrong
  })
  const copied = fds.filter((fd) => fd !== undefined).length
  const close = (): void => { for (const fd of fds) if (fd !== undefined) try { closeSync(fd) } catch { /* closed */ } }
  if (copied === 0) { close(); return undefined }
  const all = meta.map((_, c) => c)
  async function* batches(): AsyncGenerator<Batch | CopiedPartition> {
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!
      const fd = fds[i]
      if (fd !== undefined) { yield { fd, ts: p.minTs, rows: p.rows }; continue }
      const reader = p.open(all)
      for (let start = 0; start < p.rows; start += BATCH_SIZE) {
        const end = Math.min(start + BATCH_SIZE, p.rows)
        const vectors: Vector[] = all.map((c) => reader.view(c, start, end))
        yield { length: end - start, vectors }
        await ctx.maybeYield()
      }
    }
  }
  return { batches: batches(), copied, close }
}

/** True when part `i`'s rows are all in one partition and the parts beside it have none there. */
function alone(parts: readonly SnapshotPart[], i: number, unit: Exclude<PartitionUnit, 'NONE'>): boolean {
  const p = parts[i]!
  if (!(p.minTs <= p.maxTs)) return false
  const b = partitionOf(p.minTs, unit)
  const before = parts[i - 1]
  const after = parts[i + 1]
  return p.maxTs < b.hi && (before === undefined || before.maxTs < b.lo) && (after === undefined || after.minTs >= b.hi)
}
