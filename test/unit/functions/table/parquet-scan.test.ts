// parquet_scan('f'): QuestDB's alias of read_parquet (ParquetScanFunctionFactory), the name
// QuestDB's own sqllogictest files use. Same rows, same pushdown, same root and traversal checks,
// and the SAMPLE BY ... FROM-TO FILL over `timestamp(col)` those files run.
import '../../parquet/resolve-hook.js'
import t from 'tap'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { Database, SqlError } from '../../../../lib/index.js'
import { tmpDir } from '../../parquet/helpers.js'

const base = tmpDir(t)
const imp = join(base, 'import')
mkdirSync(join(imp, 'data'), { recursive: true })
const db = await Database.open({ copyRoot: imp })
t.teardown(() => db.close())
await db.query(`CREATE TABLE t AS (SELECT x, x * 0.01 lat, timestamp_sequence('2024-12-02T18:00:00', 250000) created FROM long_sequence(40)) TIMESTAMP(created) PARTITION BY DAY`)
// as a file without a designated timestamp, as DuckDB or pandas would write it
await db.exportParquet('SELECT x, lat, created FROM t', join(imp, 'data', 'plain.parquet'))

t.test('parquet_scan gives the rows read_parquet gives', async (t) => {
  const a = await db.query(`SELECT * FROM read_parquet('data/plain.parquet') WHERE x > 30`)
  const b = await db.query(`SELECT * FROM parquet_scan('data/plain.parquet') WHERE x > 30`)
  t.same(b.columns, a.columns)
  t.same(b.rows, a.rows)
  t.equal(b.rows.length, 10)
})

t.test('parquet_scan refuses a path out of the root, as read_parquet does', async (t) => {
  const e = await db.query(`SELECT * FROM parquet_scan('../x.parquet')`).then(() => undefined, (x: unknown) => x)
  t.type(e, SqlError)
  t.equal((e as SqlError).code, '22023')
  t.equal((e as SqlError).position, 27)
})

t.test('SAMPLE BY FROM-TO FILL over timestamp(col) of a parquet_scan, with approx_percentile', async (t) => {
  const r = await db.query(`SELECT created, approx_percentile(lat, 0.9, 3) p, count() n FROM parquet_scan('data/plain.parquet') timestamp(created)
    WHERE x > 4 SAMPLE BY 1s FROM '2024-12-02T17:59:59' TO '2024-12-02T18:00:12' FILL(0)`)
  t.equal(r.rows.length, 13)
  // x = 1..4 fall in 18:00:00 and are filtered out; x = 5..40 fill 18:00:01..18:00:09, 4 a second
  t.same(r.rows.map(row => row[2]), [0n, 0n, 4n, 4n, 4n, 4n, 4n, 4n, 4n, 4n, 4n, 0n, 0n])
  t.equal(r.rows[0]![1], 0, 'a filled bucket gives 0')
  // bucket 18:00:01 holds x = 5..8 (lat 0.05..0.08): k = ceil(0.9 * 4) = 4 → 0.08 in [2^-4, 2^-3), sub-bucket floor(0.08 * 2^14)
  const lowest = 2 ** -5 // 0.05 is in [2^-5, 2^-4)
  t.equal(r.rows[2]![1], (Math.floor(0.08 * 2 ** 14) + 1) * 2 ** -14 - lowest / 1024)
})
