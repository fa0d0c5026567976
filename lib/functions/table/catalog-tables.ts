/**
 * Catalog table functions: `tables()` (QuestDB's core columns, tables and views) and
 * `table_columns('t')` (a table's or a view's), read from `ctx.catalog`. An unknown name gives
 * 42P01 `table does not exist [table=t]` at the argument's position.
 */
import { SqlError, SqlState, type SqlStateCode } from '../../errors.js'
import { typeName, type ColumnType } from '../../types/column-type.js'
import { VectorWriter, type Batch, type Scalar } from '../../types/vector.js'
import type { FunctionContext, FunctionDef, TableInfo, ViewInfo } from '../registry-types.js'

/** Builds one batch from column types and rows of scalars (the catalog and system table functions). */
export function batchOf(types: readonly ColumnType[], rows: readonly Scalar[][]): Batch {
  const writers = types.map((t) => new VectorWriter(t, rows.length))
  rows.forEach((row, i) => row.forEach((v, c) => writers[c]!.set(i, v)))
  return { length: rows.length, vectors: writers.map((w) => w.finish()) }
}

const TABLES_COLUMNS: readonly { name: string; type: ColumnType }[] = [
  { name: 'id', type: 'INT' },
  { name: 'table_name', type: 'STRING' },
  { name: 'designatedTimestamp', type: 'STRING' },
  { name: 'partitionBy', type: 'STRING' },
  { name: 'walEnabled', type: 'BOOLEAN' },
  { name: 'dedup', type: 'BOOLEAN' },
  { name: 'ttlValue', type: 'INT' },
  { name: 'ttlUnit', type: 'STRING' },
  { name: 'matView', type: 'BOOLEAN' },
  { name: 'directoryName', type: 'STRING' },
  { name: 'maxUncommittedRows', type: 'INT' },
  { name: 'o3MaxLag', type: 'LONG' },
  // QuestDB 9 goes on with table_* / wal_* / replica_* metrics; the first two are what its view
  // tests read (a view is table_type 'V', a table 'T')
  { name: 'table_suspended', type: 'BOOLEAN' },
  { name: 'table_type', type: 'CHAR' },
]

function tableRow(t: TableInfo): Scalar[] {
  const ts = t.timestampIndex >= 0 ? t.columns[t.timestampIndex]?.name ?? null : null
  return [
    t.id, t.name, ts, t.partitionBy, t.wal, t.matView !== true && t.dedupKeys.length > 0,
    t.ttl?.count ?? 0, t.ttl?.unit ?? 'HOUR', t.matView === true,
    t.wal ? `${t.name}~${t.id}` : t.name, t.maxUncommittedRows, t.o3MaxLag, false, t.matView === true ? 'M' : 'T',
  ]
}

/**
 * A view's row, as QuestDB 9's `tables()` shows one (its ViewsFunctionTest): partitionBy `N/A`,
 * walEnabled true, no dedup or TTL, directory `<name>~<id>`, table_type `V`; the designated
 * timestamp is the view query's (empty when it has none or does not bind now).
 */
function viewRow(v: ViewInfo): Scalar[] {
  return [v.id, v.name, v.timestamp ?? null, 'N/A', true, false, 0, 'HOUR', false, `${v.name}~${v.id}`, 0, 0, false, 'V']
}

/** Every table of the catalog, in the order they were created (`tables()`, `wal_tables()`, `table_storage()`). */
export function catalogTables(ctx: FunctionContext): TableInfo[] {
  const infos = ctx.catalog.tableNames().map((n) => ctx.catalog.table(n)).filter((t): t is TableInfo => t !== undefined)
  return infos.sort((a, b) => a.id - b.id)
}

const TABLES: FunctionDef = {
  kind: 'table',
  name: 'tables',
  family: 'meta',
  signatures: [{ args: [], returns: 'STRING' }],
  description: 'One row per table or view: id, name, designated timestamp, partitioning, WAL, dedup, TTL, directory, commit settings, suspended and type (T table, V view).',
  example: 'SELECT table_name, partitionBy FROM tables() ORDER BY table_name',
  columns: () => TABLES_COLUMNS,
  timestampIndex: () => -1,
  open: (_site, ctx) => {
    const rows = catalogTables(ctx).map((t) => ({ id: t.id, row: tableRow(t) }))
      .concat((ctx.catalog.views?.() ?? []).map((v) => ({ id: v.id, row: viewRow(v) })))
    return [batchOf(TABLES_COLUMNS.map((c) => c.type), rows.sort((a, b) => a.id - b.id).map((r) => r.row))]
  },
}

const TABLE_COLUMNS_COLUMNS: readonly { name: string; type: ColumnType }[] = [
  { name: 'column', type: 'STRING' },
  { name: 'type', type: 'STRING' },
  { name: 'indexed', type: 'BOOLEAN' },
  { name: 'indexBlockCapacity', type: 'INT' },
  { name: 'symbolCached', type: 'BOOLEAN' },
  { name: 'symbolCapacity', type: 'INT' },
  { name: 'symbolTableSize', type: 'INT' },
  { name: 'designated', type: 'BOOLEAN' },
  { name: 'upsertKey', type: 'BOOLEAN' },
]

/** Default index block capacity QuestDB reports for every column. */
const INDEX_BLOCK_CAPACITY = 256

const TABLE_COLUMNS: FunctionDef = {
  kind: 'table',
  name: 'table_columns',
  family: 'meta',
  signatures: [{ args: ['STRING'], constant: [0], returns: 'STRING' }],
  description: 'One row per column of a table or view: name, type, index and symbol settings, designated timestamp and upsert key flags.',
  example: "SELECT \"column\", type FROM table_columns('trades')",
  columns: () => TABLE_COLUMNS_COLUMNS,
  timestampIndex: () => -1,
  open: (site, ctx) => {
    const name = site.constants[0]
    const info = typeof name === 'string' ? ctx.catalog.table(name) : undefined
    // a view: its query's output, as SHOW COLUMNS lists it (an invalid view: its error)
    const view = info === undefined && typeof name === 'string' ? ctx.catalog.views?.().find((v) => v.name.toLowerCase() === name.toLowerCase()) : undefined
    if (view !== undefined) {
      if (view.columns === undefined) throw new SqlError((view.invalidCode ?? SqlState.UNDEFINED_TABLE) as SqlStateCode, view.invalidReason ?? `view is invalid [view=${view.name}]`, site.argPositions[0] ?? site.pos)
      const rows = view.columns.map((c): Scalar[] => [c.name, typeName(c.type), false, 0, false, 0, 0, c.name === view.timestamp, false])
      return [batchOf(TABLE_COLUMNS_COLUMNS.map((c) => c.type), rows)]
    }
    if (info === undefined) {
      throw new SqlError(SqlState.UNDEFINED_TABLE, `table does not exist [table=${String(name)}]`, site.argPositions[0] ?? site.pos)
    }
    const keys = new Set(info.dedupKeys.map((k) => k.toLowerCase()))
    const rows = info.columns.map((c, i): Scalar[] => {
      const sym = c.type === 'SYMBOL'
      return [
        c.name, typeName(c.type), c.indexed, c.indexCapacity ?? INDEX_BLOCK_CAPACITY, sym ? c.symbolCached : false,
        sym ? c.symbolCapacity : 0, sym ? c.symbolTableSize : 0, i === info.timestampIndex, keys.has(c.name.toLowerCase()),
      ]
    })
    return [batchOf(TABLE_COLUMNS_COLUMNS.map((c) => c.type), rows)]
  },
}

/** tables and table_columns. */
export const CATALOG_TABLE_FUNCTIONS: readonly FunctionDef[] = [TABLES, TABLE_COLUMNS]
