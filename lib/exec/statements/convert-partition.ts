/**
 * `ALTER TABLE t CONVERT PARTITION TO PARQUET | NATIVE LIST '2024-01-15'[, ...] | WHERE <ts filter>`
 * (QuestDB 9): the chosen partitions' column files become one Parquet file each in the data
 * directory (`<partition>.<txn>/data.parquet`), which the engine keeps querying and other engines
 * read directly; `TO NATIVE` turns them back. Needs a data directory.
 *
 * The active (last) partition, as QuestDB 9's TableWriter treats it (its documentation says the
 * active partition is never converted; its code converts it for WAL tables):
 * - a WAL table (the default for a partitioned table) converts it like any other, by LIST or WHERE;
 * - a `BYPASS WAL` table skips it `TO PARQUET`, silently, by LIST and by WHERE alike (the
 *   statement succeeds; the affected count leaves it out);
 * - `TO NATIVE` takes it either way.
 * A WHERE that matches no partition at all is refused (`no partitions matched WHERE clause`), one
 * that matches only a skipped active partition is not.
 */
import { SqlError, SqlState, notSupported } from '../../errors.js'
import type { AlterTable, ConvertPartition } from '../../sql/ast.js'
import type { Catalog } from '../../storage/catalog.js'
import type { DurableStore } from '../../storage/durable/store.js'
import type { PartitionEntry } from '../../storage/durable/table-files.js'
import { partitionPredicate } from '../../storage/partition-info.js'
import { parseTimestamp } from '../../types/timestamp.js'
import { type Execution, done } from '../../result.js'

/** Runs CONVERT PARTITION; the command's affected count is the partitions converted. */
export async function convertPartition(stmt: AlterTable, a: ConvertPartition, catalog: Catalog, store: DurableStore | undefined): Promise<Execution> {
  const t = catalog.get(stmt.table, stmt.tablePos)
  if (t.meta.partitionBy === 'NONE' || t.meta.timestampIndex < 0) throw new SqlError(SqlState.SYNTAX_ERROR, 'table is not partitioned', stmt.tablePos)
  if (store === undefined) throw notSupported('CONVERT PARTITION needs a data directory (an in-memory database has no partition files)', a.pos)
  const test = a.where === undefined ? undefined : partitionPredicate(t, a.where)
  // a non-WAL table's writer appends to its active partition in place: it stays native (QuestDB)
  const skipActive = a.to === 'parquet' && !t.meta.wal
  const choose = (entries: readonly PartitionEntry[]): ReadonlySet<PartitionEntry> => {
    const active = entries[entries.length - 1]
    const chosen = new Set<PartitionEntry>()
    if (a.list !== undefined) {
      for (const item of a.list) {
        const ts = parseTimestamp(item.value)
        const e = entries.find((x) => x.name === item.value) ?? (ts === null ? undefined : entries.find((x) => x.lo <= ts && ts < x.hi))
        if (e === undefined) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `could not convert partition [table=${t.meta.name}, partition=${item.value}]: no such partition`, item.pos)
        if (!(skipActive && e === active)) chosen.add(e)
      }
      return chosen
    }
    const matched = entries.filter((e) => test!(e.lo))
    if (matched.length === 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'no partitions matched WHERE clause', a.where!.pos)
    for (const e of matched) if (!(skipActive && e === active)) chosen.add(e)
    return chosen
  }
  // the statement runs as DDL: alone on the table (see Statements.start)
  return done('alter_table', await store.convertPartitions(t, choose, a.to))
}
