/**
 * pg_catalog / information_schema emulation for the queries tools send at connect and for
 * schema browsing (pgJDBC DatabaseMetaData, psycopg, SQLAlchemy, Grafana). The engine has no
 * such schemas, so for a query that reads them the adapter builds a small in-memory Database
 * holding `pg_type`, `pg_namespace`, `pg_class`, `pg_attribute`, `pg_database`, `pg_roles`,
 * `pg_settings`, `pg_proc`, the always-empty catalogs ({@link EMPTY_CATALOGS}: `pg_index`,
 * `pg_constraint`, `pg_attrdef`, ...) and `information_schema_{tables,columns,schemata}`, filled
 * from the real database's `tables()` / `table_columns()` with the type OIDs RowDescription uses.
 * catalog-rewrite.ts turns the client's PostgreSQL SQL into SQL the engine runs there.
 */
import { type ColumnType, Database } from '../../lib/index.js'
import { PG_ARRAY_TYPES, PG_SCALAR_TYPES, decimalPrecision, isDecimal, pgType } from '../../lib/internal.js'
import type { RunContext } from './prepared.js'
import { Oid, PG_TYPES, pgTypeOf } from './pg-types.js'

/** OID of the first table, as in psql-catalog.ts. */
const TABLE_OID_BASE = 16384
const NS_CATALOG = 11
const NS_PUBLIC = 2200
const NS_INFO = 13000

type Col = readonly [name: string, type: 'string' | 'int' | 'long' | 'double' | 'boolean']

const SCHEMAS: Readonly<Record<string, readonly Col[]>> = {
  pg_namespace: [['oid', 'int'], ['nspname', 'string'], ['nspowner', 'int']],
  pg_database: [['oid', 'int'], ['datname', 'string'], ['datdba', 'int'], ['encoding', 'int'], ['datcollate', 'string'], ['datctype', 'string'], ['datistemplate', 'boolean'], ['datallowconn', 'boolean']],
  pg_type: [['oid', 'int'], ['typname', 'string'], ['typnamespace', 'int'], ['typowner', 'int'], ['typlen', 'int'], ['typtype', 'string'], ['typcategory', 'string'],
    ['typrelid', 'int'], ['typelem', 'int'], ['typarray', 'int'], ['typbasetype', 'int'], ['typtypmod', 'int'], ['typnotnull', 'boolean'], ['typdelim', 'string'], ['typinput', 'string'],
    ['typdefault', 'string'], ['typcollation', 'int']],
  pg_class: [['oid', 'int'], ['relname', 'string'], ['relnamespace', 'int'], ['relkind', 'string'], ['relowner', 'int'], ['reltuples', 'int'], ['relhasindex', 'boolean'], ['relpersistence', 'string'], ['relispartition', 'boolean'],
    ['relam', 'int'], ['relpages', 'int'], ['reloptions', 'string'], ['relchecks', 'int'], ['reltablespace', 'int']],
  pg_attribute: [['attrelid', 'int'], ['attname', 'string'], ['atttypid', 'int'], ['attnum', 'int'], ['attlen', 'int'], ['atttypmod', 'int'], ['attnotnull', 'boolean'], ['attisdropped', 'boolean'], ['atthasdef', 'boolean'], ['attidentity', 'string'], ['attgenerated', 'string'],
    ['attcollation', 'int']],
  pg_roles: [['oid', 'int'], ['rolname', 'string'], ['rolsuper', 'boolean'], ['rolcanlogin', 'boolean']],
  pg_settings: [['name', 'string'], ['setting', 'string']],
  pg_proc: [['oid', 'int'], ['proname', 'string'], ['pronamespace', 'int'], ['prorettype', 'int'], ['pronargs', 'int'], ['prokind', 'string']],
  // always empty: EpochDB has no comments, defaults, indexes, constraints, sequences, enums,
  // extensions, inheritance or user-defined aggregates (see EMPTY_CATALOGS)
  pg_description: [['objoid', 'int'], ['classoid', 'int'], ['objsubid', 'int'], ['description', 'string']],
  pg_attrdef: [['oid', 'int'], ['adrelid', 'int'], ['adnum', 'int'], ['adbin', 'string']],
  pg_index: [['indexrelid', 'int'], ['indrelid', 'int'], ['indisprimary', 'boolean'], ['indisunique', 'boolean'], ['indisclustered', 'boolean'], ['indkey', 'string'],
    ['indoption', 'string'], ['indexprs', 'string'], ['indpred', 'string'], ['indnkeyatts', 'int']],
  pg_constraint: [['oid', 'int'], ['conname', 'string'], ['connamespace', 'int'], ['contype', 'string'], ['conrelid', 'int'], ['conindid', 'int'], ['confrelid', 'int'], ['conkey', 'string'], ['confkey', 'string']],
  pg_sequence: [['seqrelid', 'int'], ['seqstart', 'long'], ['seqincrement', 'long'], ['seqmax', 'long'], ['seqmin', 'long'], ['seqcache', 'long'], ['seqcycle', 'boolean']],
  pg_enum: [['oid', 'int'], ['enumtypid', 'int'], ['enumsortorder', 'double'], ['enumlabel', 'string']],
  pg_am: [['oid', 'int'], ['amname', 'string']],
  pg_extension: [['oid', 'int'], ['extname', 'string'], ['extversion', 'string']],
  pg_inherits: [['inhrelid', 'int'], ['inhparent', 'int'], ['inhseqno', 'int']],
  pg_aggregate: [['aggfnoid', 'int'], ['aggkind', 'string']],
  information_schema_schemata: [['catalog_name', 'string'], ['schema_name', 'string'], ['schema_owner', 'string']],
  information_schema_tables: [['table_catalog', 'string'], ['table_schema', 'string'], ['table_name', 'string'], ['table_type', 'string'], ['is_insertable_into', 'boolean']],
  information_schema_columns: [['table_catalog', 'string'], ['table_schema', 'string'], ['table_name', 'string'], ['column_name', 'string'], ['ordinal_position', 'int'],
    ['column_default', 'string'], ['is_nullable', 'string'], ['data_type', 'string'], ['udt_catalog', 'string'], ['udt_schema', 'string'], ['udt_name', 'string'],
    ['character_maximum_length', 'int'], ['numeric_precision', 'int'], ['datetime_precision', 'int']],
}

/** Catalogs with no rows in EpochDB: a row-less answer over one of them is the truth. */
export const EMPTY_CATALOGS: ReadonlySet<string> = new Set([
  'pg_description', 'pg_attrdef', 'pg_index', 'pg_constraint', 'pg_sequence', 'pg_enum', 'pg_am', 'pg_extension', 'pg_inherits', 'pg_aggregate',
  'pg_trigger', 'pg_policy', 'pg_rewrite', 'pg_statistic_ext', 'pg_publication', 'pg_partitioned_table', 'pg_depend',
  // psql's \db, \dc, \dC, \do, \dy, \des, \dew, \deu, \drds, \dL: no tablespaces,
  // conversions, casts, operators, event triggers, foreign data, role settings or languages to list
  'pg_tablespace', 'pg_conversion', 'pg_cast', 'pg_operator', 'pg_event_trigger', 'pg_foreign_server',
  'pg_foreign_data_wrapper', 'pg_user_mappings', 'pg_db_role_setting', 'pg_language',
])

/** The server settings `current_setting()`, `pg_settings` and SHOW agree on. */
export const SETTINGS: Readonly<Record<string, string>> = {
  server_version: '12.3', server_version_num: '120003', server_encoding: 'UTF8', client_encoding: 'UTF8', DateStyle: 'ISO, YMD',
  TimeZone: 'UTC', integer_datetimes: 'on', standard_conforming_strings: 'on', search_path: '"$user", public', max_identifier_length: '63',
  transaction_isolation: 'read committed', default_transaction_read_only: 'off', IntervalStyle: 'postgres', lc_collate: 'C', lc_ctype: 'C', max_index_keys: '32',
}

/** information_schema.columns.numeric_precision (binary digits) of the numeric types */
const NUMERIC_PRECISION: Readonly<Record<number, number>> = { 21: 16, 23: 32, 20: 64, 700: 24, 701: 53 }

/** True when `sql` reads a catalog this module emulates. */
export function readsCatalog(sql: string): boolean {
  if (/\binformation_schema\s*\.|\bpg_catalog\s*\.\s*pg_\w+/i.test(sql)) return true
  for (const m of sql.matchAll(/\b(?:from|join)\s+(pg_\w+)/gi)) if (m[1]!.toLowerCase() in SCHEMAS || EMPTY_CATALOGS.has(m[1]!.toLowerCase())) return true
  return false
}

/** A setting by name (case-insensitive), or undefined. */
export function settingValue(name: string): string | undefined {
  const k = Object.keys(SETTINGS).find((x) => x.toLowerCase() === name.toLowerCase())
  return k === undefined ? undefined : SETTINGS[k]
}

/** An in-memory Database holding the emulated catalogs of `ctx.db` (the caller closes it). */
export async function buildCatalogDb(ctx: RunContext): Promise<Database> {
  const user = ctx.session.principal.name
  // tables ('T') and materialized views ('M': a real table each; QuestDB's pg_class gives them relkind 'm')
  const tables = (await ctx.db.query("select id, table_name, table_type from tables() where table_type in ('T', 'M') order by table_name", [], { session: ctx.session })).rows
  const rows: Record<string, unknown[][]> = {
    pg_namespace: [[NS_CATALOG, 'pg_catalog', 10], [NS_PUBLIC, 'public', 10], [NS_INFO, 'information_schema', 10]],
    pg_database: [[1, 'qdb', 10, 6, 'C', 'C', false, true]],
    pg_type: PG_SCALAR_TYPES.map((t) => [t.oid, t.name, NS_CATALOG, 10, t.length, 'b', t.category, 0, 0, t.arrayOid, 0, -1, false, ',', `${t.name}in`])
      .concat(PG_ARRAY_TYPES.map((t) => [t.oid, t.name, NS_CATALOG, 10, t.length, 'b', t.category, 0, t.elementOid, 0, 0, -1, false, ',', 'array_in'])),
    pg_class: [], pg_attribute: [], information_schema_tables: [], information_schema_columns: [],
    pg_roles: [[10, user, true, true]],
    pg_settings: Object.entries(SETTINGS).map(([k, v]) => [k, v]),
    information_schema_schemata: [['qdb', 'public', user], ['qdb', 'pg_catalog', user], ['qdb', 'information_schema', user]],
  }
  const addColumns = (oid: number, table: string, cols: readonly (readonly unknown[])[]): void => {
    cols.forEach(([c, t], k) => {
      const tag = String(t).toUpperCase() as ColumnType
      const decimal = isDecimal(tag) // DECIMAL(p,s): numeric with its type modifier, precision in digits
      const type = decimal ? pgTypeOf(tag) : PG_TYPES[tag] ?? PG_TYPES.STRING
      const udt = pgType(type.oid)
      rows['pg_attribute']!.push([oid, String(c), type.oid, k + 1, udt?.length ?? -1, type.modifier, false, false, false, '', '', 0])
      rows['information_schema_columns']!.push(['qdb', 'public', table, String(c), k + 1, null, 'YES', udt?.formatName ?? 'character varying',
        'qdb', 'pg_catalog', udt?.name ?? 'varchar', type.modifier > 4 && !decimal ? type.modifier - 4 : null,
        decimal ? decimalPrecision(tag) : NUMERIC_PRECISION[type.oid] ?? null, type.oid === Oid.TIMESTAMP ? 6 : null])
    })
  }
  for (const [id, name, type] of tables) {
    const oid = TABLE_OID_BASE + Number(id)
    const table = String(name)
    rows['pg_class']!.push([oid, table, NS_PUBLIC, type === 'M' ? 'm' : 'r', 10, -1, false, 'p', false, 0, 0, null, 0, 0])
    // as QuestDB's InformationSchemaTablesFunctionFactory: a materialized view is its own type, not insertable
    rows['information_schema_tables']!.push(['qdb', 'public', table, type === 'M' ? 'MATERIALIZED VIEW' : 'BASE TABLE', type !== 'M'])
    addColumns(oid, table, (await ctx.db.query(`select "column", type from table_columns('${table.replace(/'/g, "''")}')`, [], { session: ctx.session })).rows)
  }
  // views: relkind 'v' (psql's \dv), table_type VIEW; the columns of those whose query binds now
  const views = (await ctx.db.query('select view_name, view_table_dir_name from views() order by view_name', [], { session: ctx.session })).rows
  for (const [name, dir] of views) {
    const view = String(name)
    const oid = TABLE_OID_BASE + Number(String(dir).slice(String(dir).lastIndexOf('~') + 1))
    rows['pg_class']!.push([oid, view, NS_PUBLIC, 'v', 10, -1, false, 'p', false, 0, 0, null, 0, 0])
    rows['information_schema_tables']!.push(['qdb', 'public', view, 'VIEW', false])
    try {
      const r = await ctx.db.query(`select * from "${view.replace(/"/g, '""')}" limit 0`, [], { session: ctx.session })
      addColumns(oid, view, r.columns.map((c) => [c.name, c.type]))
    } catch { /* an invalid view, or one the session may not read: listed without columns */ }
  }
  const db = await Database.open()
  for (const [table, cols] of Object.entries(SCHEMAS)) {
    await db.query(`create table ${table} (${cols.map(([n, t]) => `${n} ${t}`).join(', ')})`)
    const data = rows[table] ?? []
    if (data.length > 0) await db.append(table, Object.fromEntries(cols.map(([n], k) => [n, data.map((r) => r[k] ?? null)])))
  }
  return db
}
