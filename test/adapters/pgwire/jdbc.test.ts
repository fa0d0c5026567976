/**
 * pgJDBC (Debian libpostgresql-jdbc-java) against the adapter: a tiny Java client
 * (jdbc/JdbcProbe.java) is compiled with javac into a temp dir at test time and run against a
 * server on an ephemeral loopback port. Covers typed parameters, timestamps, fetch-size
 * streaming (Execute with a row limit → PortalSuspended) and DatabaseMetaData: getTables,
 * getColumns, getPrimaryKeys, getSchemas, getIndexInfo and getImportedKeys over the seeded table
 * of every type.
 * Skips with a message when javac or the driver jar is missing.
 */
import t from 'tap'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { startServer } from './helpers.js'

const run = promisify(execFile)
const JAR = ['/usr/share/java/postgresql.jar', '/usr/share/java/postgresql-jdbc4.jar'].find((p) => existsSync(p))
const source = join(dirname(fileURLToPath(import.meta.url)), 'jdbc', 'JdbcProbe.java')
const hasJavac = await run('javac', ['-version']).then(() => true, () => false)

if (JAR === undefined || !hasJavac) {
  t.plan(0, `pgJDBC test skipped: ${JAR === undefined ? 'libpostgresql-jdbc-java not installed' : 'javac not found'}`)
} else {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-jdbc-'))
  const srv = await startServer()
  t.teardown(async () => {
    await srv.close()
    rmSync(dir, { recursive: true, force: true })
  })
  await run('javac', ['-d', dir, '-cp', JAR, source], { timeout: 60_000 })
  const { stdout } = await run('java', ['-cp', `${dir}:${JAR}`, 'JdbcProbe', String(srv.port)], { timeout: 60_000 })
  const out = Object.fromEntries(stdout.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))
  t.equal(out['param'], '3,héllo', 'PreparedStatement with setInt')
  t.equal(out['ts'], '2024-01-03 00:00:00.0', 'setTimestamp / getTimestamp')
  t.equal(out['fetch'], '100000,5000050000', 'setFetchSize streams every row once')
  t.match(out['product'], /^PostgreSQL /, 'DatabaseMetaData product')
  t.equal(out['tables'], 't;', 'DatabaseMetaData.getTables')
  t.equal(out['tablesAll'], 'public,t,TABLE;', 'getTables with no filters')
  // name, java.sql.Types code, type name, size, nullable (1 = columnNullable), position, IS_NULLABLE
  t.same(out['columns']!.split(';').filter((x) => x !== ''), [
    'ts,93,timestamp,29,1,1,YES', 'sym,12,varchar,2147483647,1,2,YES', 'v,8,float8,17,1,3,YES', 'i,4,int4,10,1,4,YES',
    'l,-5,int8,19,1,5,YES', 'b,-7,bool,1,1,6,YES', 's,12,varchar,2147483647,1,7,YES', 'd,93,timestamp,29,1,8,YES',
    'u,1111,uuid,2147483647,1,9,YES', 'c,1,bpchar,1,1,10,YES', 'ip,12,varchar,2147483647,1,11,YES', 'f,7,float4,8,1,12,YES', 'sh,5,int2,5,1,13,YES',
  ], 'getColumns: every column with its JDBC type (pg_get_expr, format_type, row_number() OVER in the catalog query)')
  t.equal(out['columnsPattern'], 'public,sym;public,s;public,sh;', 'getColumns with a column pattern and no schema')
  t.equal(out['pkColumns'], 'TABLE_CAT,TABLE_SCHEM,TABLE_NAME,COLUMN_NAME,KEY_SEQ,PK_NAME', 'getPrimaryKeys answers its columns')
  t.equal(out['pk'], '', 'and no key: EpochDB tables have none')
  t.equal(out['schemas'], 'information_schema;pg_catalog;public;', 'getSchemas')
  t.equal(out['schemasPattern'], 'public;', 'getSchemas with a pattern')
  t.match(out['indexColumns'], /^TABLE_CAT,TABLE_SCHEM,TABLE_NAME,NON_UNIQUE,INDEX_QUALIFIER,INDEX_NAME,TYPE,ORDINAL_POSITION,COLUMN_NAME,ASC_OR_DESC,/, 'getIndexInfo answers its columns')
  t.equal(out['index'], '', 'and no index')
  t.equal(out['importedKeys'], '', 'getImportedKeys: no foreign keys')
}
