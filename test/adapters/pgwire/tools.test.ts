/**
 * The queries tools send at connect and for schema browsing: Grafana's PostgreSQL data source
 * (version and TimescaleDB checks, schema / table / column pickers of the SQL builder and of the
 * older query builder, sent through psycopg2 as plain SQL text) and SQLAlchemy's psycopg2
 * dialect (connect-time queries, inspect() reflection, MetaData), with pandas read_sql through
 * the engine when pandas is installed. Probe scripts in python/ (see python.ts); a missing
 * Python module skips its test with the reason.
 */
import t, { type Test } from 'tap'
import { startServer } from './helpers.js'
import { missingModules, runProbe } from './python.js'

const srv = await startServer()
t.teardown(() => srv.close())
const missing = {
  grafana: await missingModules(['psycopg2']),
  sqlalchemy: await missingModules(['sqlalchemy', 'psycopg2']),
  pandas: await missingModules(['pandas']),
}

/** The seeded table's columns and their information_schema data types. */
const COLUMNS = [
  ['ts', 'timestamp without time zone'], ['sym', 'character varying'], ['v', 'double precision'], ['i', 'integer'], ['l', 'bigint'],
  ['b', 'boolean'], ['s', 'character varying'], ['d', 'timestamp without time zone'], ['u', 'uuid'], ['c', 'character'],
  ['ip', 'character varying'], ['f', 'real'], ['sh', 'smallint'],
]

const runs = new Map<string, ReturnType<typeof runProbe>>()

/** Asserts the checks of `script` (run once per file) under a subtest skipped with `why` when set. */
function probe(name: string, why: string | undefined, script: string, body: (t: Test, c: (check: string) => unknown) => void): void {
  t.test(name, why === undefined ? {} : { skip: why }, async (t) => {
    if (!runs.has(script)) runs.set(script, runProbe(script, srv.port))
    const run = await runs.get(script)!
    if ('missing' in run) { t.fail(run.missing); return }
    t.equal(run.failure, undefined, `${script} ran to the end`)
    body(t, (check) => {
      if (!run.checks.has(check)) t.fail(`${script} printed no check '${check}'`)
      return run.checks.get(check)
    })
  })
}

probe('Grafana PostgreSQL data source', missing.grafana, 'grafana_probe.py', (t, c) => {
  t.same(c('version'), [['version'], [[1200]]], "current_setting('server_version_num')::int/100")
  t.same(c('timescaledb'), [['extversion'], []], 'no TimescaleDB extension')
  t.same(c('schemas'), [['name'], [['public']]], 'schema picker')
  t.same(c('tables_in_schema'), [['table'], [['t']]], 'table picker for a schema')
  t.same(c('tables'), [['table'], [['t']]], 'table picker over search_path (string_to_array / generate_series / s[i])')
  t.same(c('tables_v10'), [['table'], [['t']]], "Grafana 10's table picker")
  t.same(c('columns'), [['column', 'type'], COLUMNS], 'column picker (parse_ident)')
  t.same(c('columns_qualified'), [['column', 'type'], COLUMNS], 'column picker with a schema-qualified table')
  t.same(c('columns_unknown'), [['column', 'type'], []], 'column picker of an unknown table')
  t.same(c('old_tables'), [['quote_ident'], [['t']]], 'older query builder: tables')
  t.same(c('old_time_columns'), [['quote_ident'], [['d'], ['f'], ['i'], ['l'], ['ts'], ['v']]], 'older query builder: time columns')
  t.same(c('old_metric_columns'), [['quote_ident'], [['c'], ['ip'], ['s'], ['sym']]], 'older query builder: metric columns')
  t.same(c('old_datatype'), [['udt_name'], [['float8']]], 'older query builder: a column type')
  t.same(c('old_aggregates'), [['proname'], []], 'older query builder: user aggregates (none)')
})

probe('SQLAlchemy', missing.sqlalchemy, 'sqlalchemy_probe.py', (t, c) => {
  t.same(c('dialect'), [[12, 3], 'public', false], 'dialect init: pg_catalog.version(), current_schema(), standard_conforming_strings')
  t.same(c('connect_queries'), ['public', 'on'], 'select current_schema(), show standard_conforming_strings')
  t.equal(c('isolation'), 'READ COMMITTED', 'show transaction isolation level')
  t.same(c('query'), [[3, 'héllo', 'datetime:2024-01-01T00:00:00.000001']], 'a text query with a bound parameter')
  t.same(c('table_names'), ['t'], 'get_table_names')
  t.same(c('schema_names'), ['information_schema', 'public'], 'get_schema_names')
  t.same(c('has_table'), [true, false], 'has_table through pg_catalog (pg_table_is_visible)')
  t.same(c('columns'), [
    ['ts', 'TIMESTAMP()', true, null], ['sym', 'VARCHAR()', true, null], ['v', 'DOUBLE_PRECISION(precision=53)', true, null], ['i', 'INTEGER()', true, null],
    ['l', 'BIGINT()', true, null], ['b', 'BOOLEAN()', true, null], ['s', 'VARCHAR()', true, null], ['d', 'TIMESTAMP()', true, null], ['u', 'UUID()', true, null],
    ['c', 'CHAR(length=1)', true, null], ['ip', 'VARCHAR()', true, null], ['f', 'REAL()', true, null], ['sh', 'SMALLINT()', true, null],
  ], 'get_columns (format_type, default and identity subqueries)')
  t.same(c('pk'), { constrained_columns: [], name: null }, 'get_pk_constraint: none')
  t.same([c('indexes'), c('foreign_keys'), c('unique'), c('checks'), c('views')], [[], [], [], [], []], 'no indexes, foreign keys, constraints or views')
  t.same(c('comment'), { text: null }, 'no table comment')
  t.same(c('reflected'), COLUMNS.map(([n]) => n), 'MetaData reflection')
  t.same(c('core_select'), [['a', 'float:1.5']], 'a Core select over the reflected table')
})

probe('pandas read_sql through SQLAlchemy', missing.sqlalchemy ?? missing.pandas, 'sqlalchemy_probe.py', (t, c) => {
  t.equal(c('pandas'), 'present')
  t.same(c('read_sql'), [['ts', 'sym', 'v', 'i', 'l'], ['datetime64[ns]', 'object', 'float64', 'float64', 'float64'], ['a', 'float:1.5', 'float:3.0', 'float:9007199254740992.0'], 1],
    'pandas read_sql (nullable integer columns become float64, as with PostgreSQL)')
  t.same(c('read_sql_params'), [['float:8.0', 'float:12.0'], ['float:9.0', 'float:13.5'], ['float:10.0', 'float:15.0']], 'read_sql with a bound parameter')
  t.same(c('read_sql_table'), [COLUMNS.map(([n]) => n), 2], 'read_sql_table reflects the table and reads it')
  t.same(c('to_sql'), [[3, 3], ['datetime64[ns]', 'object', 'float64', 'int64'], 6, 'float:15.0', 12],
    "to_sql creates the table from SQLAlchemy's PostgreSQL types, replaces and appends")
})
