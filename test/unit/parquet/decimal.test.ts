/**
 * DECIMAL in Parquet: EpochDB writes DECIMAL(p,s) as Parquet's DECIMAL (INT64 for p <= 18, a
 * 16/32-byte FIXED_LEN_BYTE_ARRAY above), reads it back exactly, DuckDB reads the same values and
 * types (up to its own 38 digits), and DuckDB's own DECIMAL files are read as DECIMAL(p,s) without going through a double.
 */
import './resolve-hook.js'
import t from 'tap'
import { join } from 'node:path'
import { Database } from '../../../lib/index.js'
import { duckRows, tmpDir } from './helpers.js'

const dir = tmpDir(t)
const db = await Database.open({ copyRoot: dir, exportRoot: dir })
t.teardown(() => db.close())

const VALUES = [
  ['1', '12.3400', '-0.05', '123456789012345678901234.000000000001'],
  ['2', null, '9999999999999999.90', '-99999999999999999999999999.999999999999'],
  ['3', '-92233720368547.7580', '0.00', null],
  ['4', '99999999999999.9999', '-1.50', '0.000000000001'],
]

t.test('DECIMAL round trip through Parquet, read the same by DuckDB', async (t) => {
  await db.query('CREATE TABLE dec (id INT, p DECIMAL(18,4), q DECIMAL(18,2), w DECIMAL(38,12))')
  await db.query(`INSERT INTO dec VALUES ${VALUES.map((r) => `(${r.map((v, i) => (v === null ? 'NULL' : i === 0 ? v : `'${v}'`)).join(', ')})`).join(', ')}`)
  await db.query("COPY dec TO 'dec' WITH FORMAT PARQUET")
  const file = (await db.query('SELECT * FROM dec ORDER BY id')).rows
  t.same(file, VALUES.map((r) => [Number(r[0]), ...r.slice(1)]), 'db.query rows are the exact texts')
  const path = join(dir, 'dec.parquet')
  const back = await db.query(`SELECT id, p, q, w, typeOf(p), typeOf(w) FROM read_parquet('${path}') ORDER BY id`)
  t.same(back.rows.map((r) => r.slice(0, 4)), file, 'read_parquet gives every digit back')
  t.same(back.rows[0]!.slice(4), ['DECIMAL(18,4)', 'DECIMAL(38,12)'])
  const duck = await duckRows(`SELECT id, p::VARCHAR, q::VARCHAR, w::VARCHAR, typeof(p), typeof(w) FROM read_parquet('${path}') ORDER BY id`)
  t.same(duck.map((r) => r.slice(0, 4)), VALUES.map((r) => [Number(r[0]), ...r.slice(1).map((v) => (v === null ? null : v.replace(/^(-?)0+(?=\d)/, '$1')))]), 'DuckDB reads the same values')
  t.same(duck[0]!.slice(4), ['DECIMAL(18,4)', 'DECIMAL(38,12)'], 'and the same types')
})

t.test('DECIMAL above 38 digits (32-byte FIXED_LEN_BYTE_ARRAY) round-trips exactly; DuckDB, capped at 38, reads a DOUBLE', async (t) => {
  const big = '-1234567890123456789012345678901234567890123456789.0123456789'
  await db.query(`CREATE TABLE wide AS (SELECT cast('${big}' AS DECIMAL(60,10)) z FROM long_sequence(1))`)
  await db.query("COPY wide TO 'wide' WITH FORMAT PARQUET")
  const path = join(dir, 'wide.parquet')
  t.same((await db.query(`SELECT z, typeOf(z) FROM read_parquet('${path}')`)).rows, [[big, 'DECIMAL(60,10)']])
  const duck = await duckRows(`SELECT typeof(z), z FROM read_parquet('${path}')`)
  t.equal(duck[0]![0], 'DOUBLE')
  t.ok(Math.abs((duck[0]![1] as number) / Number(big) - 1) < 1e-12)
})

t.test("DuckDB's DECIMAL files are read exactly as DECIMAL(p,s)", async (t) => {
  const path = join(dir, 'duck-dec.parquet')
  await duckRows(`COPY (SELECT 1 AS id, 12345678901234.5678::DECIMAL(18,4) AS a, 1.25::DECIMAL(4,2) AS b, '-12345678901234567890123.456'::DECIMAL(30,3) AS c
    UNION ALL SELECT 2, NULL, -0.01, NULL) TO '${path}' (FORMAT PARQUET)`)
  const r = await db.query(`SELECT id, a, b, c, typeOf(a), typeOf(b), typeOf(c) FROM read_parquet('${path}') ORDER BY id`)
  t.same(r.rows, [[1, '12345678901234.5678', '1.25', '-12345678901234567890123.456', 'DECIMAL(18,4)', 'DECIMAL(4,2)', 'DECIMAL(30,3)'],
    [2, null, '-0.01', null, 'DECIMAL(18,4)', 'DECIMAL(4,2)', 'DECIMAL(30,3)']])
  const sum = await db.query(`SELECT sum(a), sum(b) FROM read_parquet('${path}')`)
  t.same(sum.rows, [['12345678901234.5678', '1.24']], 'and aggregate exactly')
})

t.test('DECIMAL(p,s) with p <= 9 is INT32 DECIMAL, read back exactly by EpochDB and DuckDB', async (t) => {
  await db.query('CREATE TABLE d9 (id INT, a DECIMAL(9,2), b DECIMAL(5,0), c DECIMAL(1,1))')
  await db.query("INSERT INTO d9 VALUES (1, '9999999.99', '-99999', '0.9'), (2, NULL, '0', NULL), (3, '-9999999.99', '12345', '-0.9')")
  await db.query("COPY d9 TO 'd9' WITH FORMAT PARQUET")
  const path = join(dir, 'd9.parquet')
  const phys = await duckRows(`SELECT path_in_schema, type, stats_min_value, stats_max_value FROM parquet_metadata('${path}') WHERE path_in_schema <> 'id' ORDER BY path_in_schema`)
  t.same(phys, [['a', 'INT32', '-9999999.99', '9999999.99'], ['b', 'INT32', '-99999', '12345'], ['c', 'INT32', '-.9', '.9']])
  const back = await db.query(`SELECT id, a, b, c, typeOf(a), typeOf(c) FROM read_parquet('${path}') ORDER BY id`)
  t.same(back.rows, [[1, '9999999.99', '-99999', '0.9', 'DECIMAL(9,2)', 'DECIMAL(1,1)'], [2, null, '0', null, 'DECIMAL(9,2)', 'DECIMAL(1,1)'], [3, '-9999999.99', '12345', '-0.9', 'DECIMAL(9,2)', 'DECIMAL(1,1)']])
  const duck = await duckRows(`SELECT id, a::VARCHAR, b::VARCHAR, c::VARCHAR FROM read_parquet('${path}') ORDER BY id`)
  t.same(duck, [[1, '9999999.99', '-99999', '.9'], [2, null, '0', null], [3, '-9999999.99', '12345', '-.9']])
})
