/**
 * `ALTER TABLE t CONVERT PARTITION TO PARQUET | NATIVE LIST '2024-01-15'[, ...] | WHERE <ts filter>`
 * (QuestDB 9): the chosen partitions' column files become one Parquet file each in the data
 * directory (`<partition>.<txn>/data.parquet`), which the engine keeps querying and other engines
 * read directly; `TO NATIVE` turns them back. As QuestDB for non-WAL tables, the last (active)
 * partition is left alone by WHERE; naming it in LIST converts it. Needs a data directory.
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
  const choose = (entries: readonly PartitionEntry[]): ReadonlySet<PartitionEntry> => {
    if (a.list !== undefined) {
      const chosen = new Set<PartitionEntry>()
      for (const item of a.list) {
        const ts = parseTimestamp(item.value)
        const e = entries.find((x) => x.name === item.value) ?? (ts === null ? undefined : entries.find((x) => x.lo <= ts && ts < x.hi))
        if (e === undefined) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `could not convert partition [table=${t.meta.name}, partition=${item.value}]: no such partition`, item.pos)
        chosen.add(e)
      }
      return chosen
    }
    // the active partition takes the appends: WHERE leaves it native (QuestDB, non-WAL tables)
    const matched = entries.slice(0, -1).filter((e) => test!(e.lo))
    if (matched.length === 0 && !entries.some((e) => test!(e.lo))) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'no partitions matched WHERE clause', a.where!.pos)
    return new Set(matched)
  }
  // the statement runs as DDL: alone on the table (see Statements.start)
  return done('alter_table', await store.convertPartitions(t, choose, a.to))
}
