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
import { createRequire } from 'node:module'

/** PostgreSQL 15.20's `numeric_send` of each text (psql: select numeric_send('2.500'::numeric)). */
const PG15_NUMERIC_SEND: readonly (readonly [string, string])[] = [
  ['2.500', '000200000000000300021388'], ['-0.125', '0001ffff4000000304e2'], ['0.050', '0001ffff0000000301f4'],
  ['10000.000', '00010001000000030001'], ['12345678901234567890.5000000000', '000600040000000a04d2162e23340d801ed21388'],
  ['0.0001000000', '0001ffff0000000a0001'], ['-99999999999999.9999', '00050003400000040063270f270f270f270f'], ['0.0000', '0000000000000004'],
]

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

t.test('binary numeric is byte for byte what PostgreSQL 15 sends', async (t) => {
  for (const [text, hex] of PG15_NUMERIC_SEND) t.equal(numericBinary(text).toString('hex'), hex, text)
})

t.test("pg with binary: true reads numeric exactly as it reads PostgreSQL's own bytes", async (t) => {
  // pg-protocol (1.16) decodes every DataRow field as UTF-8 text and pg turns it back into bytes
  // (node-postgres issue #3495), so any byte >= 0x80 becomes EF BF BD; and pg-types reads the
  // weight unsigned. Both are client-side: the same query against PostgreSQL gives the same
  // values, which is what this asserts (NaN for 0.05, 2.51 for 2.5, 10000 exact).
  const parseNumeric = (createRequire(import.meta.url)('pg-types') as { getTypeParser(oid: number, f: string): (b: Buffer) => unknown }).getTypeParser(1700, 'binary')
  const asPgSeesIt = (hex: string): unknown => parseNumeric(Buffer.from(Buffer.from(hex, 'hex').toString('utf8')))
  const db2 = await Database.open()
  await db2.query('create table nb (id int, v decimal(30,10))')
  const values = ['2.5', '-0.125', '0.05', '10000', '0.0001']
  await db2.query(`insert into nb values ${values.map((v, i) => `(${i}, ${v}m)`).join(', ')}`)
  const srv2 = await startServer({}, db2)
  const client = new pg.Client(pgConfig(srv2.port))
  await client.connect()
  t.teardown(async () => { await client.end(); await srv2.close() })
  const r = await client.query({ text: 'select v from nb where id >= $1 order by id', values: [0], binary: true } as pg.QueryConfig)
  t.equal(r.fields[0]!.format, 'binary')
  const expected = values.map((v) => asPgSeesIt(numericBinary(Number(v).toFixed(10)).toString('hex')))
  t.same(r.rows.map((x: { v: unknown }) => x.v), expected, 'what pg decodes from EpochDB = what it decodes from PostgreSQL bytes')
  t.equal(r.rows[3].v, 10000, 'a value whose bytes are all below 0x80 survives pg binary mode')
  t.equal(asPgSeesIt(PG15_NUMERIC_SEND[3]![1]), 10000)
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
