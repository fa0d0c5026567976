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

t.test('PostgreSQL syntax in catalog queries', async (t) => {
  t.same(await rows("select relname from pg_catalog.pg_class where relname = E'\\x74'"), [], "E'' strings: \\x74 is not unescaped to t")
  t.same(await rows("select relname from pg_catalog.pg_class where relname = E't'"), [['t']], "E'' strings")
  t.same(await rows("select typname from pg_type where oid = ANY(ARRAY[16, 23]) order by 1"), [['bool'], ['int4']], '= ANY(ARRAY[...])')
  t.same(await rows("select count(*) from pg_type where typname <> ALL('{bool,int4}')"), [['31']], "<> ALL('{...}') (33 types)")
  t.same(await rows("select 'pg_class'::regclass, c.oid::oid, c.relname::name from pg_class c"), [[1259, 16385, 't']], '::regclass, ::oid, ::name')
  t.same(await rows('select (pg_catalog.current_schemas(true))[1], (current_schemas(false))[1] from pg_namespace limit 1'), [['pg_catalog', 'public']], 'current_schemas()[n]')
  t.same(await rows(`select a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod),
      (select pg_get_expr(d.adbin, d.adrelid) from pg_catalog.pg_attrdef d where d.adrelid = a.attrelid and d.adnum = a.attnum) as "default"
    from pg_catalog.pg_attribute a where a.attnum in (1, 10) and pg_catalog.pg_table_is_visible(a.attrelid) order by a.attnum`),
  [['ts', 'timestamp without time zone', null], ['c', 'character(1)', null]], 'format_type; a subquery over pg_attrdef (always empty) is NULL')
})

t.test('queries over always-empty catalogs the engine cannot parse answer their columns', async (t) => {
  const r = await client.query(`SELECT a.attname, (information_schema._pg_expandarray(i.indkey)).n AS KEY_SEQ, ci.relname AS "PK_NAME"
    FROM pg_catalog.pg_class ct JOIN pg_catalog.pg_attribute a ON (ct.oid = a.attrelid) JOIN pg_catalog.pg_index i ON (a.attrelid = i.indrelid)
    JOIN pg_catalog.pg_class ci ON (ci.oid = i.indexrelid) WHERE i.indisprimary`)
  t.same(r.fields.map((f) => f.name), ['attname', 'key_seq', 'PK_NAME'])
  t.equal(r.rowCount, 0)
  await t.rejects(client.query('select (x).n from pg_catalog.pg_class'), /unexpected/, 'a catalog it can fill still fails with the engine error')
})

t.test('tables created later appear', async (t) => {
  await client.query('create table later (ts timestamp, x long) timestamp(ts)')
  t.same(await rows("select table_name from information_schema.tables where table_name = 'later'"), [['later']])
})

t.test('views: relkind v (psql \\dv), table_type VIEW, their columns', async (t) => {
  await client.query('create view tv as (select ts, v as price from t)')
  t.teardown(async () => { await client.query('drop view tv') })
  t.same(await rows("select relkind from pg_catalog.pg_class where relname = 'tv'"), [['v']])
  t.same(await rows("select table_type from information_schema.tables where table_name = 'tv'"), [['VIEW']])
  t.same(await rows("select column_name, data_type from information_schema.columns where table_name = 'tv' order by ordinal_position"),
    [['ts', 'timestamp without time zone'], ['price', 'double precision']])
  // the command tags
  t.equal((await client.query('create or replace view tv as (select ts from t)')).command, 'CREATE')
})

t.test('materialized views: relkind m (QuestDB\'s PgClassFunctionFactory), their columns', async (t) => {
  await client.query('create table mvb (ts timestamp, v double) timestamp(ts) partition by day wal')
  await client.query('create materialized view mvb_1h as (select ts, avg(v) as avg_v from mvb sample by 1h)')
  t.teardown(async () => { await client.query('drop materialized view mvb_1h'); await client.query('drop table mvb') })
  t.same(await rows("select relname, relkind from pg_catalog.pg_class where relname like 'mvb%' order by relname"), [['mvb', 'r'], ['mvb_1h', 'm']])
  t.same(await rows("select a.attname from pg_catalog.pg_attribute a join pg_catalog.pg_class c on c.oid = a.attrelid where c.relname = 'mvb_1h' order by a.attnum"),
    [['ts'], ['avg_v']])
  t.same(await rows("select column_name, data_type from information_schema.columns where table_name = 'mvb_1h' order by ordinal_position"),
    [['ts', 'timestamp without time zone'], ['avg_v', 'double precision']])
  // QuestDB 9 (InformationSchemaTablesFunctionFactory, its test of a table, a view and a materialized view):
  // its own table_type, and not insertable
  t.same(await rows("select table_name, table_type, is_insertable_into from information_schema.tables where table_name like 'mvb%' order by table_name"),
    [['mvb', 'BASE TABLE', true], ['mvb_1h', 'MATERIALIZED VIEW', false]])
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
