/**
 * DECIMAL over pgwire as `numeric` (OID 1700): text and binary results, parameters, and the
 * compat suite's DECIMAL case (INSERT with cast($n AS DECIMAL(18,3)) and a NUMERIC parameter)
 * with `pg`, `postgres` and psycopg2 (Python's Decimal).
 */
import t from 'tap'
import pg from 'pg'
import postgres from 'postgres'
import { execFile } from 'node:child_process'
import { Database } from '../../../lib/index.js'
import { pgConfig, startServer } from './helpers.js'
import { numericBinary, numericFromBinary, numericParamValue } from '../../../adapters/pgwire/encode-numeric.js'
import { PYTHON, missingModules } from './python.js'

const db = await Database.open()
await db.query('create table decimals (id int, temperature decimal(18, 3), wide decimal(30, 10), timestamp timestamp)')
await db.query("insert into decimals values (1, 2.5m, 12345678901234567890.5m, '2023-10-01T10:00:00.100000Z'), (2, -0.125m, null, '2024-10-01T10:00:00.100000Z'), (3, null, null, '2025-01-01')")
const srv = await startServer({}, db)
t.teardown(() => srv.close())

t.test('binary numeric round-trips exact text', async (t) => {
  for (const s of ['0', '2.500', '-0.125', '12345678901234567890.5000000000', '10000', '0.0001', '-99999999.99']) {
    t.equal(numericFromBinary(numericBinary(s)), s, s)
  }
  // PostgreSQL's own bytes for 12.34 (ndigits 2, weight 0, +, dscale 2: 12, 3400)
  t.same([...numericBinary('12.34')], [0, 2, 0, 0, 0, 0, 0, 2, 0, 12, 13, 72])
  // binary numeric parameters: numbers while a double is exact, else the exact text
  t.equal(numericParamValue('12.34'), 12.34)
  t.equal(numericParamValue('12345678901234567890.5'), '12345678901234567890.5')
})

t.test('pg: numeric OID, text exact', async (t) => {
  const client = new pg.Client(pgConfig(srv.port))
  await client.connect()
  t.teardown(() => client.end())
  const r = await client.query('select id, temperature, wide from decimals order by id')
  t.same(r.fields.map((f) => f.dataTypeID), [23, 1700, 1700])
  t.same(r.rows.map((x) => [x.temperature, x.wide]), [['2.500', '12345678901234567890.5000000000'], ['-0.125', null], [null, null]])
  // the compat suite's case: a NUMERIC parameter cast to DECIMAL(18,3)
  await client.query('insert into decimals (id, temperature, timestamp) values ($1, cast($2 AS DECIMAL(18, 3)), $3)', [4, '3.5', '2026-01-01T00:00:00Z'])
  const back = await client.query('select temperature from decimals where id = 4')
  t.equal(back.rows[0].temperature, '3.500')
  const err = await client.query('select cast(1000 as decimal(4,2))').catch((e: { code: string }) => e)
  t.equal((err as { code: string }).code, '22003')
})

t.test('postgres: text and binary numeric as exact strings', async (t) => {
  const sql = postgres({ ...pgConfig(srv.port), username: 'admin', max: 1 })
  t.teardown(() => sql.end())
  const rows = await sql`select temperature, wide from decimals where id = ${1}`
  t.equal(rows[0]!['temperature'], '2.500')
  t.equal(rows[0]!['wide'], '12345678901234567890.5000000000')
})

t.test('psycopg2: Decimal values, cursor description numeric', async (t) => {
  const missing = await missingModules(['psycopg2'])
  if (missing !== undefined) { t.fail(`psycopg2 missing: ${missing}`); return }
  const script = `
import psycopg2, decimal, json
c = psycopg2.connect(host='127.0.0.1', port=${srv.port}, user='admin', password='quest', dbname='qdb')
cur = c.cursor()
cur.execute('select temperature, wide from decimals where id = 1')
row = cur.fetchone()
print(json.dumps([type(row[0]).__name__, str(row[0]), str(row[1]), cur.description[0].type_code]))
cur.execute('select temperature from decimals where temperature = %s', (decimal.Decimal('-0.125'),))
print(json.dumps([str(r[0]) for r in cur.fetchall()]))
`
  const out = await new Promise<string>((resolve, reject) => execFile(PYTHON, ['-c', script], { timeout: 60_000 }, (e, so, se) => (e ? reject(new Error(se || String(e))) : resolve(so))))
  const [first, second] = out.trim().split('\n').map((l) => JSON.parse(l))
  t.same(first, ['Decimal', '2.500', '12345678901234567890.5000000000', 1700])
  t.same(second, ['-0.125'])
})
