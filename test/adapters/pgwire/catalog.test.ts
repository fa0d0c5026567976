/**
 * pg_catalog / information_schema emulation through node `pg`: the connect-time and
 * schema-browsing queries of JDBC, psycopg, SQLAlchemy and Grafana, plus current_setting(),
 * pg_catalog.version() and parameter type inference in Describe.
 */
import t from 'tap'
import pg from 'pg'
import { pgConfig, startServer } from './helpers.js'

const srv = await startServer()
const client = new pg.Client(pgConfig(srv.port))
await client.connect()
const rows = async (sql: string, values: unknown[] = []): Promise<unknown[][]> =>
  (await client.query({ text: sql, values, rowMode: 'array' } as pg.QueryArrayConfig)).rows

t.test('settings and version', async (t) => {
  t.same(await rows("select current_setting('server_version')"), [['12.3']])
  t.same(await rows("select current_setting('TimeZone'), current_schema()"), [['UTC', 'public']])
  t.match((await rows('select pg_catalog.version()'))[0]![0], /^PostgreSQL 12\.3/)
  t.same(await rows('select current_user'), [['admin']])
})

t.test('pg_catalog tables', async (t) => {
  t.same(await rows("select oid, typname, typarray from pg_catalog.pg_type where typname = 'int4'"), [[23, 'int4', 1007]])
  t.same(await rows('select typname from pg_catalog.pg_type where oid = $1', [1114]), [['timestamp']])
  t.same(await rows('select nspname from pg_catalog.pg_namespace order by nspname'), [['information_schema'], ['pg_catalog'], ['public']])
  t.same(await rows('select datname from pg_catalog.pg_database'), [['qdb']])
  t.same(await rows("select relname, relkind from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'"), [['t', 'r']])
  t.same(await rows(`select a.attname, ty.typname from pg_catalog.pg_attribute a join pg_catalog.pg_class c on c.oid = a.attrelid
    join pg_catalog.pg_type ty on ty.oid = a.atttypid where c.relname = 't' and a.attnum <= 3 order by a.attnum`), [['ts', 'timestamp'], ['sym', 'varchar'], ['v', 'float8']])
})

t.test('information_schema', async (t) => {
  t.same(await rows("select table_schema, table_name, table_type from information_schema.tables where table_schema = 'public'"), [['public', 't', 'BASE TABLE']])
  const cols = await rows("select column_name, data_type, ordinal_position from information_schema.columns where table_name = 't' order by ordinal_position")
  t.same(cols.slice(0, 4), [['ts', 'timestamp without time zone', 1], ['sym', 'character varying', 2], ['v', 'double precision', 3], ['i', 'integer', 4]])
  t.same(await rows("select schema_name from information_schema.schemata where schema_name = 'public'"), [['public']])
})

t.test('tables created later appear', async (t) => {
  await client.query('create table later (ts timestamp, x long) timestamp(ts)')
  t.same(await rows("select table_name from information_schema.tables where table_name = 'later'"), [['later']])
})

t.test('Describe reports inferred parameter types', async (t) => {
  // pg sends untyped (OID 0) text parameters; the LIMIT bound and the int comparison are inferred
  t.same(await rows('select i from t where i = $1 limit $2', ['3', '1']), [[3]])
  t.same(await rows('select x from long_sequence(10) limit $1, $2', ['2', '4']), [[3], [4]])
})

t.teardown(async () => {
  await client.end()
  await srv.close()
})
