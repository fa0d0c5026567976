/**
 * DDL: CREATE TABLE (plain, AS SELECT, LIKE), DROP, TRUNCATE, RENAME, ALTER TABLE.
 * Each statement validates everything before it changes the catalog, so a failing statement
 * leaves it unchanged.
 */
import { SqlError, SqlState, notSupported } from '../../errors.js'
import type { AlterTable, ColumnDef, CreateTable, CreateTableLike, DropTable, RenameTable, TableOptions, TruncateTable } from '../../sql/ast.js'
import { type ColumnType, STORABLE_TYPES, isInterval, parseTypeName, typeName } from '../../types/column-type.js'
import { isDecimal } from '../../types/decimal.js'
import { isGeohash } from '../../types/geohash.js'
import type { Catalog } from '../../storage/catalog.js'
import { dropPartitionStatement } from '../../storage/partition-info.js'
import type { ColumnMeta, TableMeta } from '../../storage/table.js'
import { checkColumnName, checkTableName, nameKey } from '../../storage/names.js'

/**
 * The error for a column of a type that exists only in expressions (INTERVAL): QuestDB 9 says
 * `non-persisted type: INTERVAL` (its data-types page: "you can use it in expressions, but can't
 * have a database column of this type"), at the type name or, for CREATE TABLE AS, the statement.
 */
export function nonPersisted(t: ColumnType, pos: number, column?: string): SqlError {
  return new SqlError(SqlState.FEATURE_NOT_SUPPORTED, `non-persisted type: ${typeName(t)}${column === undefined ? '' : ` [column=${column}]`}`, pos)
}

/** True for a type a table column cannot have. */
export function isNonPersisted(t: ColumnType): boolean {
  return isInterval(t)
}

/** Resolves a DDL type name to a storable type. */
export function columnType(name: string, pos: number): ColumnType {
  const t = parseTypeName(name, pos)
  if (t !== undefined && isNonPersisted(t)) throw nonPersisted(t, pos)
  if (t === undefined || !(STORABLE_TYPES.includes(t) || isDecimal(t) || isGeohash(t))) throw new SqlError(SqlState.UNDEFINED_OBJECT, `unsupported column type: ${name}`, pos)
  return t
}

/** Checks a column or table name as QuestDB does (see storage/names.ts); 42602 or 42622 at `pos`. */
export function checkName(name: string, pos: number, what: 'column' | 'table', maxLength?: number): void {
  if (what === 'table') checkTableName(name, pos, maxLength)
  else checkColumnName(name, pos, maxLength)
}

function columnMeta(d: ColumnDef, maxLength: number): ColumnMeta {
  checkColumnName(d.name, d.pos, maxLength)
  const capacity = d.indexed === true && d.indexCapacity !== undefined ? { indexCapacity: d.indexCapacity } : {}
  return { name: d.name, type: columnType(d.type, d.typePos), indexed: d.indexed === true, ...capacity, symbolCapacity: d.symbolCapacity ?? 256, symbolCached: d.symbolCache !== false }
}

/** Table metadata from columns and options, validated. */
export function tableMeta(name: string, namePos: number, columns: readonly ColumnMeta[], o: TableOptions, stmtPos: number, maxLength?: number): Omit<TableMeta, 'id'> {
  checkTableName(name, namePos, maxLength)
  const seen = new Set<string>()
  for (const c of columns) {
    if (seen.has(nameKey(c.name))) throw new SqlError(SqlState.DUPLICATE_COLUMN, `Duplicate column [name=${c.name}]`, stmtPos)
    seen.add(nameKey(c.name))
  }
  let timestampIndex = -1
  if (o.timestamp !== undefined) {
    timestampIndex = columns.findIndex((c) => c.name.toLowerCase() === o.timestamp!.name.toLowerCase())
    if (timestampIndex < 0) throw new SqlError(SqlState.UNDEFINED_COLUMN, `invalid designated timestamp column [name=${o.timestamp.name}]`, o.timestamp.pos)
    if (columns[timestampIndex]!.type !== 'TIMESTAMP' && columns[timestampIndex]!.type !== 'TIMESTAMP_NS') throw new SqlError(SqlState.DATATYPE_MISMATCH, `TIMESTAMP column expected [actual=${columns[timestampIndex]!.type}]`, o.timestamp.pos)
  }
  const partitionBy = o.partitionBy ?? 'NONE'
  if (partitionBy !== 'NONE' && timestampIndex < 0) throw new SqlError(SqlState.SYNTAX_ERROR, 'partitioning is possible only on tables with designated timestamps', o.partitionByPos ?? stmtPos)
  if (o.wal === true && partitionBy === 'NONE') throw new SqlError(SqlState.SYNTAX_ERROR, 'WAL Write Mode can only be used on partitioned tables', o.partitionByPos ?? stmtPos)
  const wal = partitionBy !== 'NONE' && o.wal !== false
  const dedupKeys = (o.dedupKeys ?? []).map((k) => {
    const c = columns.find((x) => x.name.toLowerCase() === k.name.toLowerCase())
    if (c === undefined) throw new SqlError(SqlState.UNDEFINED_COLUMN, `deduplicate key column not found [column=${k.name}]`, k.pos)
    return c.name
  })
  if (dedupKeys.length > 0) {
    if (!wal) throw new SqlError(SqlState.SYNTAX_ERROR, 'deduplication is possible only on WAL tables', o.dedupKeys![0]!.pos)
    if (!dedupKeys.some((k) => k.toLowerCase() === columns[timestampIndex]!.name.toLowerCase())) {
      throw new SqlError(SqlState.SYNTAX_ERROR, `deduplicate key list must include dedicated timestamp column`, o.dedupKeys![0]!.pos)
    }
  }
  if (o.ttl !== undefined && partitionBy === 'NONE') throw new SqlError(SqlState.SYNTAX_ERROR, 'TTL is only supported on partitioned tables', o.ttl.pos)
  const param = (n: string) => o.params?.find((p) => p.name.toLowerCase() === n.toLowerCase())?.value
  return {
    name, columns, timestampIndex, partitionBy, wal, dedupKeys,
    ttl: o.ttl === undefined ? undefined : { count: o.ttl.count, unit: o.ttl.unit },
    maxUncommittedRows: Number(param('maxUncommittedRows') ?? 500000),
    o3MaxLag: 600000000,
  }
}

/** CREATE TABLE (...). */
export function createTable(s: CreateTable, catalog: Catalog): void {
  if (catalog.find(s.name) !== undefined) {
    if (s.ifNotExists) return
    throw new SqlError(SqlState.DUPLICATE_TABLE, `table already exists [table=${s.name}]`, s.namePos)
  }
  if (s.columns.length === 0) throw new SqlError(SqlState.SYNTAX_ERROR, 'table must have at least one column', s.namePos)
  const max = catalog.maxNameLength
  catalog.create(tableMeta(s.name, s.namePos, s.columns.map((c) => columnMeta(c, max)), s.options, s.pos, max), s.namePos)
}

/** CREATE TABLE new (LIKE src). */
export function createTableLike(s: CreateTableLike, catalog: Catalog): void {
  if (catalog.find(s.name) !== undefined) {
    if (s.ifNotExists) return
    throw new SqlError(SqlState.DUPLICATE_TABLE, `table already exists [table=${s.name}]`, s.namePos)
  }
  const src = catalog.get(s.like, s.likePos).meta
  checkTableName(s.name, s.namePos, catalog.maxNameLength)
  catalog.create({ ...structuredClone({ ...src, id: 0 }), name: s.name }, s.namePos)
}

/** DROP TABLE [IF EXISTS] a[, b] / DROP ALL TABLES. */
export function dropTable(s: DropTable, catalog: Catalog): void {
  const names = s.all ? catalog.names().map((name) => ({ name, pos: s.pos })) : s.names
  for (const n of names) if (catalog.find(n.name) === undefined && !s.ifExists) catalog.get(n.name, n.pos)
  for (const n of names) catalog.drop(n.name)
}

/** TRUNCATE TABLE [IF EXISTS] a[, b]. */
export function truncateTable(s: TruncateTable, catalog: Catalog): void {
  for (const n of s.names) if (catalog.find(n.name) === undefined && !s.ifExists) catalog.get(n.name, n.pos)
  for (const n of s.names) catalog.find(n.name)?.truncate()
}

/** RENAME TABLE a TO b. */
export function renameTable(s: RenameTable, catalog: Catalog): void {
  catalog.get(s.from, s.fromPos)
  checkTableName(s.to, s.toPos, catalog.maxNameLength)
  catalog.rename(s.from, s.to, s.toPos)
}

/** ALTER TABLE: add, drop, rename columns; dedup; TTL; parameters; partitions. */
export function alterTable(s: AlterTable, catalog: Catalog): void {
  const table = catalog.get(s.table, s.tablePos)
  const meta = table.meta
  const a = s.action
  const indexOf = (name: string, pos: number) => {
    const i = meta.columns.findIndex((c) => c.name.toLowerCase() === name.toLowerCase())
    if (i < 0) throw new SqlError(SqlState.UNDEFINED_COLUMN, `column '${name}' does not exist in table '${meta.name}'`, pos)
    return i
  }
  switch (a.kind) {
    case 'add_column': {
      const metas = a.columns.map((c) => columnMeta(c, catalog.maxNameLength))
      const fresh: ColumnMeta[] = []
      metas.forEach((m, i) => {
        const exists = [...meta.columns, ...fresh].some((c) => nameKey(c.name) === nameKey(m.name))
        if (exists && !a.ifNotExists) throw new SqlError(SqlState.DUPLICATE_COLUMN, `column '${m.name}' already exists`, a.columns[i]!.pos)
        if (!exists) fresh.push(m)
      })
      // one rewrite for all of them: it succeeds or fails as a whole
      if (fresh.length > 0) table.addColumns(fresh)
      return
    }
    case 'drop_column': {
      const idx = a.names.map((n) => indexOf(n.name, n.pos))
      idx.forEach((i, k) => {
        if (i === meta.timestampIndex) throw new SqlError(SqlState.SYNTAX_ERROR, 'cannot drop designated timestamp column', a.names[k]!.pos)
      })
      table.dropColumns(idx)
      return
    }
    case 'rename_column': {
      const i = indexOf(a.from, a.fromPos)
      checkColumnName(a.to, a.toPos, catalog.maxNameLength)
      if (meta.columns.some((c, j) => j !== i && nameKey(c.name) === nameKey(a.to))) throw new SqlError(SqlState.DUPLICATE_COLUMN, `column '${a.to}' already exists`, a.toPos)
      const old = meta.columns[i]!.name
      table.setMeta({
        ...meta,
        columns: meta.columns.map((c, j) => (j === i ? { ...c, name: a.to } : c)),
        dedupKeys: meta.dedupKeys.map((k) => (k.toLowerCase() === old.toLowerCase() ? a.to : k)),
      })
      return
    }
    case 'dedup': {
      if (!a.enable) { table.setMeta({ ...meta, dedupKeys: [] }); return }
      const next = tableMeta(meta.name, s.tablePos, meta.columns, {
        timestamp: meta.timestampIndex < 0 ? undefined : { name: meta.columns[meta.timestampIndex]!.name, pos: s.pos },
        partitionBy: meta.partitionBy, wal: meta.wal, dedupKeys: a.keys,
      } as TableOptions, s.pos)
      table.setMeta({ ...meta, dedupKeys: next.dedupKeys })
      return
    }
    case 'set_ttl':
      if (meta.partitionBy === 'NONE') throw new SqlError(SqlState.SYNTAX_ERROR, 'TTL is only supported on partitioned tables', a.pos)
      table.setMeta({ ...meta, ttl: { count: a.count, unit: a.unit } })
      return
    case 'set_param': return
    case 'set_type_wal': return
    case 'column_index': {
      const i = indexOf(a.column, a.columnPos)
      const c = meta.columns[i]!
      if (a.add && c.type !== 'SYMBOL') throw new SqlError(SqlState.DATATYPE_MISMATCH, `column '${c.name}' is of type '${c.type}'. Index supports column type 'SYMBOL' only.`, a.columnPos)
      // the capacity goes with the index: given or the default when added, gone when dropped
      const indexed = (c: ColumnMeta): ColumnMeta => {
        const { indexCapacity: _, ...rest } = c
        return { ...rest, indexed: a.add, ...(a.add && a.capacity !== undefined ? { indexCapacity: a.capacity } : {}) }
      }
      table.setMeta({ ...meta, columns: meta.columns.map((c, j) => (j === i ? indexed(c) : c)) })
      return
    }
    case 'column_cache': {
      const i = indexOf(a.column, a.columnPos)
      table.setMeta({ ...meta, columns: meta.columns.map((c, j) => (j === i ? { ...c, symbolCached: a.cache } : c)) })
      return
    }
    case 'alter_column_type': throw notSupported('ALTER COLUMN TYPE is not supported yet', a.pos)
    case 'drop_partition': dropPartitionStatement(table, a.list, a.where, a.pos); return
    case 'convert_partition': throw notSupported('CONVERT PARTITION is not supported yet', a.pos)
  }
}
