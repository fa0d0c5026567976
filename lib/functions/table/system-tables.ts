/**
 * QuestDB 9's system table functions of the meta page, as far as EpochDB has what they report:
 *
 * - `wal_tables()`: one row per WAL table (`name`, `suspended`, `writerTxn`, `writerLagTxnCount`,
 *   `sequencerTxn`). EpochDB applies a commit before it acknowledges it and never suspends a
 *   table, so `suspended` is false, the lag 0 and both txns the table's commits since the database
 *   opened (QuestDB's survive a restart).
 * - `memory_metrics()`: `memory_tag`, `bytes`, with Node's figures instead of QuestDB's native
 *   memory tags (see `ExecContext.memoryMetrics`); empty where the process cannot be read.
 * - `views()`: QuestDB's columns, one row per view: its name, query text, directory name
 *   (`<name>~<id>`, as QuestDB's), and `valid`, or `invalid` with the error its query gives now
 *   (checked on every call: a view over a dropped table is invalid, valid again once it is back).
 * - `query_activity()`: the statements running now (QuestDB's `query_id`, `worker_id`,
 *   `worker_pool`, `username`, `query_start`, `state_change`, `state`, `is_wal`, `query`,
 *   `memory_used`, `memory_limit`; QuestDB has no `pid` column): all of them with SQL ENGINE
 *   ADMIN (or without access control), else the user's own. Statements run on the event loop:
 *   `worker_id` is 0 and `worker_pool` `shared`; `is_wal` is false (no WAL apply job runs as a
 *   query here). `memory_used` is the bytes the statement holds now (sort buffers, hash tables,
 *   results it gathers: what its memory limit counts), `memory_limit` that limit, NULL when there
 *   is none (QuestDB's NULL for an unlimited query); both NULL for a statement still being parsed.
 * - `table_storage()`: one row per table (`tableName`, `walEnabled`, `partitionBy`,
 *   `partitionCount`, `rowCount`, `diskSize`), the sums of `table_partitions()`' rows; `diskSize`
 *   counts checkpointed partition files (0 for a table held in memory only).
 */
import type { Scalar } from '../../types/vector.js'
import type { ColumnType } from '../../types/column-type.js'
import type { FunctionContext, FunctionDef } from '../registry-types.js'
import { batchOf, catalogTables } from './catalog-tables.js'

type Columns = readonly { name: string; type: ColumnType }[]


function systemTable(name: string, columns: Columns, description: string, example: string, rows: (ctx: FunctionContext) => Scalar[][]): FunctionDef {
  return {
    kind: 'table', name, family: 'meta', description, example,
    signatures: [{ args: [], returns: 'STRING' }],
    columns: () => columns,
    timestampIndex: () => -1,
    open: (_site, ctx) => [batchOf(columns.map((c) => c.type), rows(ctx))],
  }
}

const WAL_TABLES_COLUMNS: Columns = [
  { name: 'name', type: 'STRING' },
  { name: 'suspended', type: 'BOOLEAN' },
  { name: 'writerTxn', type: 'LONG' },
  { name: 'writerLagTxnCount', type: 'LONG' },
  { name: 'sequencerTxn', type: 'LONG' },
]

const MEMORY_COLUMNS: Columns = [
  { name: 'memory_tag', type: 'STRING' },
  { name: 'bytes', type: 'LONG' },
]

const VIEWS_COLUMNS: Columns = [
  { name: 'view_name', type: 'STRING' },
  { name: 'view_sql', type: 'STRING' },
  { name: 'view_table_dir_name', type: 'STRING' },
  { name: 'invalidation_reason', type: 'STRING' },
  { name: 'view_status', type: 'STRING' },
  { name: 'view_status_update_time', type: 'TIMESTAMP' },
]

const TABLE_STORAGE_COLUMNS: Columns = [
  { name: 'tableName', type: 'STRING' },
  { name: 'walEnabled', type: 'BOOLEAN' },
  { name: 'partitionBy', type: 'STRING' },
  { name: 'partitionCount', type: 'LONG' },
  { name: 'rowCount', type: 'LONG' },
  { name: 'diskSize', type: 'LONG' },
]

/** Index of `diskSize` in `table_partitions()`' rows. */
const PARTITION_DISK_SIZE = 6

function tableStorageRows(ctx: FunctionContext): Scalar[][] {
  return catalogTables(ctx).map((t) => {
    const parts = ctx.catalog.partitions(t.name) ?? []
    let disk = 0
    for (const p of parts) disk += Number(p[PARTITION_DISK_SIZE] ?? 0)
    return [t.name, t.wal, t.partitionBy, parts.length, t.rowCount, disk]
  })
}

const QUERY_ACTIVITY_COLUMNS: Columns = [
  { name: 'query_id', type: 'LONG' },
  { name: 'worker_id', type: 'LONG' },
  { name: 'worker_pool', type: 'STRING' },
  { name: 'username', type: 'STRING' },
  { name: 'query_start', type: 'TIMESTAMP' },
  { name: 'state_change', type: 'TIMESTAMP' },
  { name: 'state', type: 'STRING' },
  { name: 'is_wal', type: 'BOOLEAN' },
  { name: 'query', type: 'STRING' },
  { name: 'memory_used', type: 'LONG' },
  { name: 'memory_limit', type: 'LONG' },
]

/** wal_tables, memory_metrics, views, table_storage, query_activity. */
export const SYSTEM_TABLE_FUNCTIONS: readonly FunctionDef[] = [
  systemTable('wal_tables', WAL_TABLES_COLUMNS,
    'One row per WAL table or view: name, suspended (always false), writerTxn, writerLagTxnCount (0: commits apply before they are acknowledged), sequencerTxn (0 for a view).',
    'SELECT name, writerTxn FROM wal_tables()',
    // views too, with no transactions (QuestDB 9's ViewsFunctionTest)
    (ctx) => catalogTables(ctx).filter((t) => t.wal).map((t): Scalar[] => [t.name, false, t.txn ?? 0, 0, t.txn ?? 0])
      .concat((ctx.catalog.views?.() ?? []).map((v) => [v.name, false, 0, 0, 0]))),
  systemTable('memory_metrics', MEMORY_COLUMNS,
    'The process\'s memory in bytes by tag: TOTAL_USED, RSS and Node\'s HEAP_TOTAL, HEAP_USED, EXTERNAL, ARRAY_BUFFERS.',
    'SELECT * FROM memory_metrics()',
    (ctx) => (ctx.memoryMetrics?.() ?? []).map((m) => [m.tag, m.bytes])),
  systemTable('query_activity', QUERY_ACTIVITY_COLUMNS,
    'The statements running now: id (for CANCEL QUERY), worker, user, start, last state change, state (active or cancelled), text, and the bytes each holds and may hold; another user\'s only with SQL ENGINE ADMIN.',
    'SELECT query_id, username, query FROM query_activity()',
    (ctx) => (ctx.queryActivity?.() ?? []).map((q) => [q.id, 0, 'shared', q.user, q.start, q.stateChange, q.state, false, q.sql, q.memoryUsed, q.memoryLimit])),
  systemTable('views', VIEWS_COLUMNS,
    'One row per view: name, query text, directory name, invalidation reason, status (valid or invalid) and when the status last changed.',
    'SELECT view_name, view_status FROM views()',
    (ctx) => (ctx.catalog.views?.() ?? []).map((v) => [v.name, v.sql, `${v.name}~${v.id}`, v.invalidReason ?? null, v.invalidReason === undefined ? 'valid' : 'invalid', v.since])),
  systemTable('table_storage', TABLE_STORAGE_COLUMNS,
    'One row per table: name, WAL, partitioning, partition count, row count and bytes on disk.',
    'SELECT tableName, partitionCount, rowCount FROM table_storage()',
    tableStorageRows),
]
