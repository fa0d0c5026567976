/**
 * `materialized_views()` (QuestDB 9's meta function): one row per materialized view, in QuestDB's
 * 22 columns — name, refresh type (`immediate`, `manual` or `timer`), base table, the last
 * refresh's start and finish, query text, directory name (`<name>~<id>`), invalidation reason,
 * status (`valid`, `invalid`, or `refreshing` while a refresh runs), a period view's refreshed
 * periods' end (`refresh_period_hi`, NULL before any and for other views), the base table's commit
 * count the last refresh saw and its count now, the refresh limit (0 / NULL: none), the timer's
 * zone, start, interval and unit (a period view's zone and period start there too), and the
 * period's length and delay with their units.
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

/**
 * `refresh_limit` / `refresh_limit_unit` as QuestDB shows them: the limit in hours or months, in
 * the largest unit that divides it (48 HOURS shows as 2 DAY, 14 DAYS as 2 WEEK, 24 MONTHS as 2 YEAR).
 */
function limitColumns(limit: { count: number; unit: string } | undefined): [number, string | null] {
  if (limit === undefined || limit.count === 0) return [0, null]
  const months = limit.unit === 'MONTH' ? limit.count : limit.unit === 'YEAR' ? limit.count * 12 : 0
  if (months > 0) return months % 12 === 0 ? [months / 12, 'YEAR'] : [months, 'MONTH']
  const hours = limit.count * (limit.unit === 'WEEK' ? 168 : limit.unit === 'DAY' ? 24 : 1)
  if (hours % 24 !== 0) return [hours, 'HOUR']
  return (hours / 24) % 7 === 0 ? [hours / 168, 'WEEK'] : [hours / 24, 'DAY']
}

/** `materialized_views()`. */
export const MATERIALIZED_VIEWS: FunctionDef = {
  kind: 'table', name: 'materialized_views', family: 'meta',
  description: 'One row per materialized view: name, refresh type, base table, last refresh start and finish, query, directory, invalidation reason, status (valid, invalid, refreshing), the base table commits refreshed and committed, the refresh limit, the timer of a REFRESH EVERY view and the period of a PERIOD view.',
  example: 'SELECT view_name, view_status, invalidation_reason FROM materialized_views()',
  signatures: [{ args: [], returns: 'STRING' }],
  columns: () => COLUMNS,
  timestampIndex: () => -1,
  open: (_site, ctx) => [batchOf(COLUMNS.map((c) => c.type), (ctx.catalog.matViews?.() ?? []).map((v) => [
    v.name, v.refreshType, v.baseTable, v.lastRefreshStart, v.lastRefreshFinish, v.sql, `${v.name}~${v.id}`,
    v.invalidReason === '' ? null : v.invalidReason, v.status, v.periodHi ?? null, v.refreshTxn, v.baseTxn,
    ...limitColumns(v.refreshLimit),
    // a period view's zone and period start stand in the timer's columns (QuestDB keeps them there)
    v.period?.timeZone ?? v.timer?.timeZone ?? null, v.period?.start ?? v.timer?.start ?? null,
    v.timer?.count ?? 0, v.timer === undefined ? null : UNITS[v.timer.unit] ?? null,
    v.period?.count ?? 0, v.period === undefined ? null : UNITS[v.period.unit] ?? null,
    v.period?.delay?.count ?? 0, v.period?.delay === undefined ? null : UNITS[v.period.delay.unit] ?? null,
  ]))],
}
