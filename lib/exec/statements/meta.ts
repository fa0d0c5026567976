/**
 * SHOW statements, EXPLAIN, and the catalog view meta functions read.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { Show } from '../../sql/ast.js'
import { type ColumnType, typeName } from '../../types/column-type.js'
import { type Batch, type Scalar, VectorWriter } from '../../types/vector.js'
import { formatTimestamp } from '../../types/timestamp.js'
import type { CatalogView, MatViewInfo, TableInfo, ViewInfo } from '../../functions/registry-types.js'
import { ExecContext } from '../context.js'
import { checkView, noteViewStatus } from './views.js'
import type { Catalog, ViewDef } from '../../storage/catalog.js'
import type { MatViewDef } from '../../storage/mat-views.js'
import type { Table } from '../../storage/table.js'
import { PARTITION_COLUMNS, partitionRows } from '../../storage/partition-info.js'
import type { LateralJoinNode, OutputColumn, PlanNode } from '../../plan/plan-node.js'
import type { Session } from '../../session.js'

/** QuestDB's default index value block capacity, shown for a column without `INDEX CAPACITY n`. */
const INDEX_BLOCK_CAPACITY = 256

/** A small result built row by row. */
export interface Rows {
  readonly output: readonly OutputColumn[]
  readonly batch: Batch
}

/** Builds a batch from rows of scalars. */
export function rowsOf(columns: readonly { name: string; type: ColumnType }[], rows: readonly Scalar[][]): Rows {
  const writers = columns.map((c) => new VectorWriter(c.type, rows.length))
  rows.forEach((r, i) => r.forEach((v, k) => writers[k]!.set(i, v)))
  return { output: columns, batch: { length: rows.length, vectors: writers.map((w) => w.finish()) } }
}

/** The CREATE TABLE statement that recreates `t`'s structure. */
export function createSql(t: Table): string {
  const m = t.meta
  const cols = m.columns.map((c) => {
    let s = `\t${c.name} ${typeName(c.type)}`
    if (c.type === 'SYMBOL') s += ` CAPACITY ${c.symbolCapacity} ${c.symbolCached ? 'CACHE' : 'NOCACHE'}${c.indexed ? ` INDEX CAPACITY ${c.indexCapacity ?? INDEX_BLOCK_CAPACITY}` : ''}`
    return s
  })
  let sql = `CREATE TABLE '${m.name}' ( \n${cols.join(',\n')}\n)`
  if (m.timestampIndex >= 0) {
    sql += ` timestamp(${m.columns[m.timestampIndex]!.name}) PARTITION BY ${m.partitionBy}`
    if (m.ttl !== undefined) sql += ` TTL ${m.ttl.count} ${m.ttl.unit}${m.ttl.count === 1 ? '' : 'S'}`
    sql += m.wal ? ' WAL' : ' BYPASS WAL'
  }
  sql += `\nWITH maxUncommittedRows=${m.maxUncommittedRows}, o3MaxLag=${m.o3MaxLag}us`
  if (m.dedupKeys.length > 0) sql += `\nDEDUP UPSERT KEYS(${m.dedupKeys.join(',')})`
  return sql + ';'
}

/** Describes a table for meta functions. */
export function tableInfo(t: Table): TableInfo {
  const m = t.meta
  return {
    id: m.id, name: m.name,
    columns: m.columns.map((c, i) => ({
      name: c.name, type: c.type, indexed: c.indexed, ...(c.indexCapacity === undefined ? {} : { indexCapacity: c.indexCapacity }), symbolCapacity: c.symbolCapacity, symbolCached: c.symbolCached,
      symbolTableSize: t.dictOf(i)?.size ?? 0,
    })),
    timestampIndex: m.timestampIndex, partitionBy: m.partitionBy, wal: m.wal, dedupKeys: m.dedupKeys,
    ttl: m.ttl, rowCount: t.rowCount, maxUncommittedRows: m.maxUncommittedRows, o3MaxLag: m.o3MaxLag,
    createSql: createSql(t), txn: t.txn,
  }
}

/** Every materialized view with its refresh state. */
function matViewInfos(catalog: Catalog): MatViewInfo[] {
  return catalog.matViews.all().map((d) => {
    const s = catalog.matViews.state(d.name)
    const refreshing = s.lastRefreshStart !== null && (s.lastRefreshFinish === null || s.lastRefreshStart > s.lastRefreshFinish)
    return {
      id: d.id, name: d.name, baseTable: d.baseTable, sql: d.sql, refreshType: d.refreshType,
      status: s.invalid ? 'invalid' : refreshing ? 'refreshing' : 'valid', invalidReason: s.reason,
      lastRefreshStart: s.lastRefreshStart, lastRefreshFinish: s.lastRefreshFinish, refreshTxn: s.refreshTxn,
      baseTxn: catalog.find(d.baseTable)?.txn ?? -1, timer: d.timer, period: d.period, periodHi: s.periodHi ?? null, refreshLimit: d.refreshLimit,
    }
  })
}

/** Every view with its status now (the view's query bound: QuestDB recompiles a view to check it). */
function checkViews(catalog: Catalog): ViewInfo[] {
  const fn = new ExecContext(0, () => 0, '', catalogView(catalog), '', [], undefined, undefined)
  return catalog.allViews().map((v) => {
    const { reason, code, timestamp, columns } = checkView(v, { catalog, paramTypes: [], ctes: new Map(), fn })
    const st = noteViewStatus(catalog, v.name.toLowerCase(), reason, Date.now() * 1000)
    return { id: v.id, name: v.name, sql: v.sql, invalidReason: reason, invalidCode: code, since: st.since, timestamp, columns }
  })
}

/** The catalog as meta functions see it. */
export function catalogView(catalog: Catalog): CatalogView {
  return {
    tableNames: () => catalog.names(),
    table: (name) => { const t = catalog.find(name); return t === undefined ? undefined : catalog.matViews.find(name) === undefined ? tableInfo(t) : { ...tableInfo(t), matView: true } },
    partitions: (name) => { const t = catalog.find(name); return t === undefined ? undefined : partitionRows(t) },
    views: () => checkViews(catalog),
    matViews: () => matViewInfos(catalog),
  }
}

/**
 * `view` showing only the tables `canSee` allows: the others are left out of `tableNames()` and
 * `table()` answers undefined for them, as for a table that does not exist (access control's
 * catalog filtering: tables(), table_columns(), table_partitions(), pg_catalog emulation).
 */
export function visibleCatalog(view: CatalogView, canSee: (table: string) => boolean): CatalogView {
  return {
    tableNames: () => view.tableNames().filter(canSee),
    table: (name) => { const t = view.table(name); return t === undefined || !canSee(t.name) ? undefined : t },
    partitions: (name) => { const t = view.table(name); return t === undefined || !canSee(t.name) ? undefined : view.partitions(name) },
    views: () => (view.views?.() ?? []).filter((v) => canSee(v.name)),
    matViews: () => (view.matViews?.() ?? []).filter((v) => canSee(v.name)),
  }
}

/** `catalog.get`, except that a table `canSee` hides does not exist (42P01). */
function visibleTable(catalog: Catalog, name: string, pos: number, canSee: ((table: string) => boolean) | undefined): Table {
  const t = catalog.get(name, pos)
  if (canSee !== undefined && !canSee(t.meta.name)) throw new SqlError(SqlState.UNDEFINED_TABLE, `table does not exist [table=${name}]`, pos)
  return t
}

/** The view, or QuestDB's errors: `view name expected, got table name` for a table, 42P01 for nothing (or a view `canSee` hides). */
function visibleView(catalog: Catalog, name: string, pos: number, canSee: ((table: string) => boolean) | undefined): ViewDef {
  const v = catalog.findView(name)
  if (v === undefined && catalog.find(name) !== undefined && (canSee === undefined || canSee(name))) {
    throw new SqlError(SqlState.WRONG_OBJECT_TYPE, 'view name expected, got table name', pos)
  }
  if (v === undefined || (canSee !== undefined && !canSee(v.name))) throw new SqlError(SqlState.UNDEFINED_TABLE, `view does not exist [view=${name}]`, pos)
  return v
}

/**
 * SHOW CREATE MATERIALIZED VIEW's text, as QuestDB 9 prints it: `CREATE MATERIALIZED VIEW 'v'
 * WITH BASE 't' REFRESH IMMEDIATE | MANUAL | EVERY 7d [DEFERRED] [START '...' [TIME ZONE 'z']]
 * [PERIOD (LENGTH 1d [TIME ZONE 'z'] [DELAY 2h])] AS (`, the query on a line of its own,
 * `) PARTITION BY DAY [TTL n UNITS];`.
 */
export function createMatViewSql(def: MatViewDef, table: Table): string {
  let refresh = def.refreshType === 'immediate' ? 'IMMEDIATE' : def.refreshType === 'manual' ? 'MANUAL' : `EVERY ${def.timer?.count ?? 1}${def.timer?.unit ?? 'h'}`
  if (def.deferred === true) refresh += ' DEFERRED'
  const p = def.period
  // as QuestDB: a period view's timer has no START of its own (it starts at the period boundary)
  if (def.refreshType === 'timer' && def.timer !== undefined && p === undefined) {
    refresh += ` START '${formatTimestamp(def.timer.start)}'${def.timer.timeZone === undefined ? '' : ` TIME ZONE '${def.timer.timeZone}'`}`
  }
  if (p !== undefined) {
    refresh += ` PERIOD (LENGTH ${p.count}${p.unit}${p.timeZone === undefined ? '' : ` TIME ZONE '${p.timeZone}'`}${p.delay === undefined ? '' : ` DELAY ${p.delay.count}${p.delay.unit}`})`
  }
  const m = table.meta
  const ttl = m.ttl === undefined || m.ttl === null ? '' : ` TTL ${m.ttl.count} ${m.ttl.unit}${m.ttl.count === 1 ? '' : 'S'}`
  return `CREATE MATERIALIZED VIEW '${def.name}' WITH BASE '${def.baseTable}' REFRESH ${refresh} AS (\n${def.sql.trim()}\n) PARTITION BY ${m.partitionBy}${ttl};`
}

/**
 * The materialized view, or QuestDB's errors at the name: 42P01 `materialized view does not
 * exist [view=v]` for nothing (or one `canSee` hides), 42809 `materialized view name expected,
 * got table name` for a table or a view.
 */
function visibleMatView(catalog: Catalog, name: string, pos: number, canSee: ((table: string) => boolean) | undefined): { def: MatViewDef; table: Table } {
  const hidden = canSee !== undefined && !canSee(name)
  const def = catalog.matViews.find(name)
  const table = def === undefined ? undefined : catalog.find(def.name)
  if (def !== undefined && table !== undefined && !hidden) return { def, table }
  if (!hidden && (catalog.find(name) !== undefined || catalog.findView(name) !== undefined)) {
    throw new SqlError(SqlState.WRONG_OBJECT_TYPE, 'materialized view name expected, got table name', pos)
  }
  throw new SqlError(SqlState.UNDEFINED_TABLE, `materialized view does not exist [view=${name}]`, pos)
}

/** SHOW CREATE VIEW's text, as QuestDB 9 prints it: `CREATE VIEW 'v' AS ( ` and the query on lines of their own. */
export function createViewSql(v: ViewDef): string {
  return `CREATE VIEW '${v.name}' AS ( \n${v.sql.trim()}\n);`
}

const PARAMETERS: Record<string, [string, string]> = {
  server_version: ['server_version', '12.3 (questdb)'],
  server_version_num: ['server_version_num', '120003'],
  'time zone': ['TimeZone', 'UTC'],
  timezone: ['TimeZone', 'UTC'],
  'transaction isolation level': ['transaction_isolation', 'read committed'],
  transaction_isolation: ['transaction_isolation', 'read committed'],
  standard_conforming_strings: ['standard_conforming_strings', 'on'],
  max_identifier_length: ['max_identifier_length', '63'],
  search_path: ['search_path', '"$user", public'],
  datestyle: ['DateStyle', 'ISO, MDY'],
  client_encoding: ['client_encoding', 'UTF8'],
  server_encoding: ['server_encoding', 'UTF8'],
  integer_datetimes: ['integer_datetimes', 'on'],
}

/**
 * Runs a SHOW statement. With `canSee` (access control on), tables it hides are left out of
 * SHOW TABLES and do not exist for SHOW COLUMNS / PARTITIONS / CREATE TABLE. `bindView` binds a
 * view's query (SHOW COLUMNS FROM a view lists its output), undefined for a name that is no view.
 */
export function show(s: Show, catalog: Catalog, session: Session, canSee?: (table: string) => boolean, bindView?: (name: string) => { readonly output: readonly { readonly name: string; readonly type: ColumnType }[]; readonly timestampIndex: number } | undefined): Rows {
  switch (s.what) {
    case 'tables': {
      // views too (QuestDB 9's SHOW TABLES reads the same catalog as all_tables())
      const all = [...catalog.names(), ...catalog.allViews().map((v) => v.name)]
      const names = canSee === undefined ? all : all.filter(canSee)
      return rowsOf([{ name: 'table_name', type: 'STRING' }], names.sort().map((n) => [n]))
    }
    case 'columns': {
      const view = bindView?.(s.table)
      if (view !== undefined) {
        if (canSee !== undefined && !canSee(s.table)) throw new SqlError(SqlState.UNDEFINED_TABLE, `table does not exist [table=${s.table}]`, s.tablePos)
        // a view's columns: its query's output (no index, symbol or dedup facts of its own; QuestDB's
        // ViewsFunctionTest shows indexBlockCapacity 0 for them)
        return rowsOf(TABLE_COLUMNS, view.output.map((c, i) => [c.name, typeName(c.type), false, 0, false, 0, 0, i === view.timestampIndex, false, '', '']))
      }
      const t = visibleTable(catalog, s.table, s.tablePos, canSee)
      const info = tableInfo(t)
      return rowsOf(TABLE_COLUMNS, info.columns.map((c, i) => [
        c.name, typeName(c.type), c.indexed, c.indexCapacity ?? INDEX_BLOCK_CAPACITY, c.type === 'SYMBOL' && c.symbolCached, c.type === 'SYMBOL' ? c.symbolCapacity : 0,
        c.symbolTableSize, i === info.timestampIndex, info.dedupKeys.some((k) => k.toLowerCase() === c.name.toLowerCase()),
        // QuestDB 9 names the index kind (its bitmap index is 'SYMBOL'; no posting index here, so
        // no covering INCLUDE columns) and appends both after upsertKey to keep older ordinals
        c.indexed ? 'SYMBOL' : '', '',
      ]))
    }
    case 'create_table':
      // QuestDB's message for a view or a materialized view (after the existence check: SHOW
      // CREATE VIEW / MATERIALIZED VIEW show them)
      if ((catalog.matViews.find(s.table) !== undefined || (catalog.find(s.table) === undefined && catalog.findView(s.table) !== undefined)) && (canSee === undefined || canSee(s.table))) {
        throw new SqlError(SqlState.WRONG_OBJECT_TYPE, 'table name expected, got view or materialized view name', s.tablePos)
      }
      return rowsOf([{ name: 'ddl', type: 'STRING' }], [[createSql(visibleTable(catalog, s.table, s.tablePos, canSee))]])
    case 'create_view': return rowsOf([{ name: 'ddl', type: 'VARCHAR' }], [[createViewSql(visibleView(catalog, s.table, s.tablePos, canSee))]])
    case 'create_mat_view': {
      const { def, table } = visibleMatView(catalog, s.table, s.tablePos, canSee)
      return rowsOf([{ name: 'ddl', type: 'VARCHAR' }], [[createMatViewSql(def, table)]])
    }
    case 'partitions': return rowsOf(PARTITION_COLUMNS, partitionRows(visibleTable(catalog, s.table, s.tablePos, canSee)))
    case 'parameter': {
      const key = s.name.toLowerCase()
      const known = PARAMETERS[key]
      const value = session.settings.get(key.replace(/ /g, '_')) ?? known?.[1]
      if (value === undefined) throw new SqlError(SqlState.UNDEFINED_OBJECT, `unrecognized configuration parameter "${s.name}"`, s.pos)
      return rowsOf([{ name: known?.[0] ?? key, type: 'STRING' }], [[value]])
    }
    case 'parameters': return rowsOf([{ name: 'property_path', type: 'STRING' }, { name: 'value', type: 'STRING' }], Object.values(PARAMETERS).map(([k, v]) => [k, v]))
  }
}

const TABLE_COLUMNS: { name: string; type: ColumnType }[] = [
  { name: 'column', type: 'STRING' }, { name: 'type', type: 'STRING' }, { name: 'indexed', type: 'BOOLEAN' },
  { name: 'indexBlockCapacity', type: 'INT' }, { name: 'symbolCached', type: 'BOOLEAN' }, { name: 'symbolCapacity', type: 'INT' },
  { name: 'symbolTableSize', type: 'INT' }, { name: 'designated', type: 'BOOLEAN' }, { name: 'upsertKey', type: 'BOOLEAN' },
  { name: 'indexType', type: 'STRING' }, { name: 'indexInclude', type: 'STRING' },
]

/**
 * A LATERAL node's EXPLAIN name: a join, a per-row correlated subquery, or a decorrelated one's
 * hash join (semi / anti under a WHERE, mark when its value is used otherwise, left for a scalar).
 */
function lateralName(n: LateralJoinNode): string {
  const a = n.apply
  if (a === undefined) return `Lateral ${n.type === 'left' ? 'Outer ' : ''}Join`
  const what = a.mode === 'scalar' ? 'Scalar' : a.mode === 'in' ? 'In' : 'Exists'
  if (n.hash === undefined) return `Correlated ${what} Subquery`
  const keys = `keys: ${n.hash.leftKeys.length}`
  if (a.mode === 'scalar') return `Hash Left Join (scalar subquery) ${keys}`
  if (n.hash.semi !== true) return `Hash Mark Join (${a.not ? 'NOT ' : ''}${what === 'In' ? 'IN' : 'EXISTS'}) ${keys}`
  return `Hash ${a.not ? 'Anti' : 'Semi'} Join (${what === 'In' ? 'IN' : 'EXISTS'}) ${keys}`
}

/**
 * A join's EXPLAIN name. RIGHT / FULL take QuestDB's names: `Hash Right Outer Join` /
 * `Hash Full Outer Join` with equality keys, `Nested Loop Right Join` / `Nested Loop Full Join`
 * without (an arbitrary ON condition tried on every pair).
 */
function joinName(n: Extract<PlanNode, { kind: 'join' }>): string {
  if (n.type === 'right' || n.type === 'full') {
    const kind = n.type === 'right' ? 'Right' : 'Full'
    return n.leftKeys.length > 0 ? `Hash ${kind} Outer Join` : `Nested Loop ${kind} Join`
  }
  return `Hash ${n.type === 'left' ? 'Outer ' : ''}Join`
}

/** At most this many of a scan's intervals are listed (a TICK list can have a million). */
const EXPLAIN_INTERVALS = 10

/**
 * A scan's intervals as QuestDB's EXPLAIN lists them: `[("2024-01-20T00:00:00.000000Z","2024-01-20T23:59:59.999999Z")]`,
 * an open end as MIN / MAX, in microseconds (a TIMESTAMP_NS table's are the microseconds covering its bounds).
 */
function intervalsText(iv: Float64Array): string {
  const bound = (x: number) => (x === -Infinity ? 'MIN' : x === Infinity ? 'MAX' : formatTimestamp(x))
  const shown: string[] = []
  for (let k = 0; k < iv.length && shown.length < EXPLAIN_INTERVALS; k += 2) shown.push(`("${bound(iv[k]!)}","${bound(iv[k + 1]!)}")`)
  const more = iv.length / 2 - shown.length
  return `[${shown.join(',')}${more > 0 ? `,... ${more} more` : ''}]`
}

/** EXPLAIN: one line per plan node, indented by depth. */
export function explain(plan: PlanNode): Rows {
  const lines: string[] = []
  // backward: the scan (under filters) of an ordered LATEST ON, read from its end
  const visit = (n: PlanNode, depth: number, backward = false) => {
    const pad = '    '.repeat(depth)
    const dir = backward ? 'backward' : 'forward'
    switch (n.kind) {
      case 'scan':
        lines.push(n.intervals === undefined ? `${pad}Row ${dir} scan` : `${pad}Interval ${dir} scan`, `${pad}  Frame ${dir} scan on: ${n.table.meta.name}`)
        if (n.intervals !== undefined) lines.push(`${pad}  intervals: ${intervalsText(n.intervals)}`)
        if (n.symbolIndex !== undefined) lines.push(`${pad}  Index forward scan on: ${n.table.meta.columns[n.symbolIndex.column]?.name ?? '?'} (${n.symbolIndex.values.length} ${n.symbolIndex.values.length === 1 ? 'key' : 'keys'})`)
        if (n.columns.length < n.table.meta.columns.length) lines.push(`${pad}  columns: ${n.output.map((c) => c.name).join(',')}`)
        return
      case 'table_function': lines.push(`${pad}${n.def.name}`); return
      case 'values': lines.push(`${pad}VirtualRecord`); return
      case 'filter': lines.push(`${pad}Filter`); visit(n.input, depth + 1, backward); return
      case 'project': lines.push(`${pad}VirtualRecord`); break
      case 'aggregate': lines.push(`${pad}GroupBy keys: ${n.keys.length} values: ${n.aggregates.map((a) => a.def.name).join(',')}`); break
      case 'sort': lines.push(`${pad}Sort`); break
      case 'limit': lines.push(`${pad}Limit`); break
      case 'distinct': lines.push(`${pad}Distinct`); break
      case 'setop': lines.push(`${pad}${n.op === 'union' ? 'Union' : n.op === 'except' ? 'Except' : 'Intersect'}${n.all ? ' All' : ''}`); visit(n.left, depth + 1); visit(n.right, depth + 1); return
      case 'join': lines.push(`${pad}${joinName(n)}`); visit(n.left, depth + 1); visit(n.right, depth + 1); return
      case 'lateral_join': lines.push(`${pad}${lateralName(n)}`); visit(n.left, depth + 1); visit(n.right, depth + 1); return
      case 'time_join': lines.push(`${pad}${n.type === 'asof' ? 'AsOf' : n.type === 'lt' ? 'Lt' : 'Splice'} Join`); visit(n.left, depth + 1); visit(n.right, depth + 1); return
      case 'window_join': {
        // QuestDB's lines: `Window Join`, `window lo: 60000000 preceding (exclude prevailing)`, `window hi: ...`
        const unit = n.left.output[n.left.timestampIndex]?.type === 'TIMESTAMP_NS' ? 1 : 1000
        const bound = (x: number) => (x === 0 ? 'current row' : `${Math.abs(x) / unit} ${x < 0 ? 'preceding' : 'following'}`)
        lines.push(`${pad}Window ${n.leftKeys.length > 0 ? 'Fast ' : ''}Join`)
        lines.push(`${pad}  window lo: ${bound(n.loNanos)} (${n.includePrevailing ? 'include' : 'exclude'} prevailing)`, `${pad}  window hi: ${bound(n.hiNanos)}`)
        visit(n.left, depth + 1); visit(n.right, depth + 1); return
      }
      case 'horizon_join': lines.push(`${pad}Horizon Join`, `${pad}  offsets: ${n.offsetsNanos.length}`); visit(n.left, depth + 1); visit(n.right, depth + 1); return
      case 'sample_by': lines.push(`${pad}Sample By`); break
      case 'latest_on': lines.push(n.symbolIndex === undefined ? `${pad}LatestBy` : `${pad}LatestByAllIndexed`); visit(n.input, depth + 1, n.ordered); return
      case 'window': lines.push(`${pad}Window`); break
      case 'parallel_filter': lines.push(`${pad}Async Filter workers: ${n.workers}`); visit(n.scan, depth + 1); return
      case 'parallel_aggregate': {
        const l = n.logical
        lines.push(`${pad}Async ${l.kind === 'sample_by' ? 'Sample By' : 'Group By'} workers: ${n.workers}${l.kind === 'aggregate' ? ` keys: ${l.keys.length}` : ''} values: ${l.aggregates.map((a) => a.def.name).join(',')}`)
        // the scan the shares read (without the symbol index when the planner chose the split)
        visit(l.input.kind === 'filter' ? { ...l.input, input: n.scan } : n.scan, depth + 1)
        return
      }
    }
    visit(n.input, depth + 1)
  }
  visit(plan, 0)
  return rowsOf([{ name: 'QUERY PLAN', type: 'STRING' }], lines.map((l) => [l]))
}
