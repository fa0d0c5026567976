/**
 * UPDATE and Parquet partitions: QuestDB refuses an UPDATE that would change a row of a partition
 * converted to Parquet (`cannot update parquet-format partition`); EpochDB does the same, before
 * anything is written. Rows are positions in the table's materialized snapshot, whose order is the
 * partitions' (`partitionsOf`).
 */
import { SqlError, SqlState } from '../../errors.js'
import { partitionsOf } from '../../storage/partition-ops.js'
import type { Table } from '../../storage/table.js'

/**
 * A check of snapshot row positions against the table's Parquet partitions: throws 0A000 for a row
 * inside one; undefined when the table has none (in memory, or nothing converted).
 */
export function parquetRowGuard(table: Table, pos: number): ((row: number) => void) | undefined {
  const store = table.store
  if (store?.partitionFormat === undefined || table.meta.timestampIndex < 0) return undefined
  const ranges = partitionsOf(table).filter((p) => store.partitionFormat!(table, p.name) === 'parquet')
  if (ranges.length === 0) return undefined
  return (row) => {
    for (const r of ranges) {
      if (row >= r.start && row < r.end) {
        throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, `cannot update parquet-format partition [table=${table.meta.name}, partition=${r.name}]; convert it TO NATIVE first`, pos)
      }
    }
  }
}
