/**
 * `materialized_views()` (QuestDB 9's meta function): one row per materialized view, in QuestDB's
 * 22 columns — name, refresh type (`immediate`, `manual` or `timer`), base table, the last
 * refresh's start and finish, query text, directory name (`<name>~<id>`), invalidation reason,
 * status (`valid`, `invalid`, or `refreshing` while a refresh runs), the refresh's period high
 * bound (NULL: no PERIOD views here), the base table's commit count the last refresh saw and its
 * count now, the refresh limit (0: none), and the timer's zone, start, interval and unit. The
 * PERIOD columns are 0 / NULL (EpochDB has no PERIOD refresh).
 */
import type { ColumnType } from '../../types/column-type.js'
import type { FunctionDef } from '../registry-types.js'
import { batchOf } from './catalog-tables.js'

const COLUMNS: readonly { name: string; type: ColumnType }[] = [
  { name: 'view_name', type: 'STRING' }, { name: 'refresh_type', type: 'STRING' }, { name: 'base_table_name', type: 'STRING' },
  { name: 'last_refresh_start_timestamp', type: 'TIMESTAMP' }, { name: 'last_refresh_finish_timestamp', type: 'TIMESTAMP' },
  { name: 'view_sql', type: 'STRING' }, { name: 'view_table_dir_name', type: 'STRING' }, { name: 'invalidation_reason', type: 'STRING' },
  { name: 'view_status', type: 'STRING' }, { name: 'refresh_period_hi', type: 'TIMESTAMP' }, { name: 'refresh_base_table_txn', type: 'LONG' },
  { name: 'base_table_txn', type: 'LONG' }, { name: 'refresh_limit', type: 'INT' }, { name: 'refresh_limit_unit', type: 'STRING' },
  { name: 'timer_time_zone', type: 'STRING' }, { name: 'timer_start', type: 'TIMESTAMP' }, { name: 'timer_interval', type: 'INT' },
  { name: 'timer_interval_unit', type: 'STRING' }, { name: 'period_length', type: 'INT' }, { name: 'period_length_unit', type: 'STRING' },
  { name: 'period_delay', type: 'INT' }, { name: 'period_delay_unit', type: 'STRING' },
]

const UNITS: Record<string, string> = { m: 'MINUTE', h: 'HOUR', d: 'DAY', w: 'WEEK', M: 'MONTH', y: 'YEAR' }

/** `materialized_views()`. */
export const MATERIALIZED_VIEWS: FunctionDef = {
  kind: 'table', name: 'materialized_views', family: 'meta',
  description: 'One row per materialized view: name, refresh type, base table, last refresh start and finish, query, directory, invalidation reason, status (valid, invalid, refreshing), the base table commits refreshed and committed, and the timer of a REFRESH EVERY view.',
  example: 'SELECT view_name, view_status, invalidation_reason FROM materialized_views()',
  signatures: [{ args: [], returns: 'STRING' }],
  columns: () => COLUMNS,
  timestampIndex: () => -1,
  open: (_site, ctx) => [batchOf(COLUMNS.map((c) => c.type), (ctx.catalog.matViews?.() ?? []).map((v) => [
    v.name, v.refreshType, v.baseTable, v.lastRefreshStart, v.lastRefreshFinish, v.sql, `${v.name}~${v.id}`,
    v.invalidReason === '' ? null : v.invalidReason, v.status, null, v.refreshTxn, v.baseTxn, 0, null,
    v.timer?.timeZone ?? null, v.timer?.start ?? null, v.timer?.count ?? 0, v.timer === undefined ? null : UNITS[v.timer.unit] ?? null, 0, null, 0, null,
  ]))],
}
