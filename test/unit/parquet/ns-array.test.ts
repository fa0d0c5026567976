/**
 * TIMESTAMP_NS and DOUBLE arrays in Parquet: TIMESTAMP_NS is INT64 TIMESTAMP(NANOS, UTC), arrays
 * nested LISTs of DOUBLE; both come back exactly through read_parquet, DuckDB reads the same
 * values, and DuckDB's own lists and nanosecond timestamps are read as DOUBLE[]..[] and TIMESTAMP_NS.
 */
import './resolve-hook.js'
import t from 'tap'
import { join } from 'node:path'
import { Database, SqlError } from '../../../lib/index.js'
import { ParquetFile } from '../../../lib/parquet/reader.js'
import { overlaps } from '../../../lib/parquet/prune.js'
import { duckRows, tmpDir } from './helpers.js'

const dir = tmpDir(t)
const db = await Database.open({ copyRoot: dir, exportRoot: dir })
t.teardown(() => db.close())

await db.query('CREATE TABLE x (id INT, a DOUBLE[], b DOUBLE[][], n TIMESTAMP_NS, ts TIMESTAMP_NS) TIMESTAMP(ts) PARTITION BY DAY')
await db.query(`INSERT INTO x VALUES
  (1, ARRAY[1.0, 2.5, NULL], ARRAY[[1.0, 2.0, 3.0], [4.0, 5.0, -6.5]], '2024-01-01T00:00:00.123456789Z', '2024-01-01T00:00:00.000000001Z'),
  (2, NULL, NULL, NULL, '2024-01-01T00:00:00.000000002Z'),
  (3, ARRAY[]::DOUBLE[], ARRAY[[]]::DOUBLE[][], '1969-12-31T23:59:59.999999999Z', '2024-01-02T00:00:00.000000003Z'),
  (4, ARRAY[-0.0, 1e300], ARRAY[[7.0], [8.0]], '2262-04-11T23:47:16.854775807Z', '2024-01-02T12:00:00.999999999Z')`)
await db.query('INSERT INTO x SELECT 5 + x::INT, ARRAY[x, x * 2], ARRAY[[x], [x + 1]], NULL, dateadd(\'h\', x::INT, \'2024-01-03T00:00:00.000000005Z\'::TIMESTAMP_NS) FROM long_sequence(3000)')
const original = (await db.query('SELECT * FROM x')).rows

t.test('TIMESTAMP_NS and DOUBLE arrays round-trip exactly through read_parquet', async (t) => {
  const r = await db.exportParquet('SELECT * FROM x', join(dir, 'x.parquet'), { rowGroupSize: 1000 })
  t.equal(r.rows, original.length)
  const back = await db.query("SELECT * FROM read_parquet('x.parquet')")
  t.same(back.columns.map((c) => c.type), ['INT', 'DOUBLE[]', 'DOUBLE[][]', 'TIMESTAMP_NS', 'TIMESTAMP_NS'])
  t.equal(back.timestampIndex, 4, 'a TIMESTAMP_NS designated timestamp comes back')
  t.same(back.rows, original)
  const again = await db.query("SELECT id, a[2], b[2, 1], array_sum(b) FROM read_parquet('x.parquet') WHERE id IN (1, 4)")
  t.same(again.rows, [[1, 2.5, 4, 8.5], [4, 1e300, 8, 15]], 'arrays read from Parquet are ordinary arrays')
})

t.test('the file is typed as the brief says, and DuckDB reads the same values', async (t) => {
  const path = join(dir, 'x.parquet')
  const schema = await duckRows(`SELECT name, type, repetition_type, logical_type::VARCHAR FROM parquet_schema('${path}')`)
  const n = schema.find((s) => s[0] === 'n')!
  t.equal(n[1], 'INT64')
  t.match(String(n[3]), /isAdjustedToUTC=1.*NANOS/, 'INT64 TIMESTAMP(NANOS, UTC)')
  t.equal(schema.find((s) => s[0] === 'ts')![2], 'REQUIRED')
  t.same(schema.filter((s) => s[2] === 'REPEATED').length, 3, 'one repeated level for a, two for b')
  const duck = await duckRows(`SELECT id, to_json(a)::VARCHAR, to_json(b)::VARCHAR, epoch_us(n), epoch_us(ts), typeof(a), typeof(b) FROM read_parquet('${path}') ORDER BY ts`)
  t.same(duck[0]!.slice(5), ['DOUBLE[]', 'DOUBLE[][]'])
  // DuckDB has no nanosecond TIMESTAMPTZ: it reads UTC-adjusted NANOS as microseconds (the values
  // before 1970 and at the type's maximum, which DuckDB takes for infinity, are left out)
  const epochUs = (x: unknown): number | null => (x === null ? null : Number((x as bigint) / 1000n))
  const json = (x: unknown): string | null => (x === null ? null : JSON.stringify(x).replace(/-0(?=[,\]])/g, '-0.0'))
  const mine = original.map((r) => [r[0], r[1], r[2], r[0] === 3 || r[0] === 4 ? 'edge' : epochUs(r[3]), epochUs(r[4])])
  const theirs = duck.map((r) => [r[0], r[1] === null ? null : JSON.parse(String(r[1])), r[2] === null ? null : JSON.parse(String(r[2])), r[0] === 3 || r[0] === 4 ? 'edge' : r[3] === null ? null : Number(r[3]), Number(r[4])])
  t.same(theirs.map((r) => r.map((v, k) => (k === 1 || k === 2 ? json(v) : v))), mine.map((r) => r.map((v, k) => (k === 1 || k === 2 ? json(v) : v))))
})

t.test('row groups are pruned by a TIMESTAMP_NS designated timestamp', async (t) => {
  const f = ParquetFile.open(join(dir, 'x.parquet'))
  t.equal(f.rowGroups[0]!.tsMin, 1704067200000000, 'statistics floored to microseconds')
  const want = (await db.query("SELECT count() FROM x WHERE ts IN '2024-01-05'")).rows
  t.same((await db.query("SELECT count() FROM read_parquet('x.parquet') WHERE ts IN '2024-01-05'")).rows, want)
  t.same(want, [[24n]])
  const day = Float64Array.of(Date.UTC(2024, 0, 5) * 1000, Date.UTC(2024, 0, 6) * 1000 - 1)
  const kept = f.rowGroups.filter((g) => overlaps(g, day)).length
  t.ok(kept >= 1 && kept <= 2 && f.rowGroups.length === 4, `one day's row groups are kept (${kept} of ${f.rowGroups.length})`)
})

t.test("DuckDB's lists and nanosecond timestamps are read as DOUBLE arrays and TIMESTAMP_NS", async (t) => {
  const path = join(dir, 'duck-lists.parquet')
  await duckRows(`COPY (SELECT * FROM (VALUES (1, [1.0, 2.0, NULL]::DOUBLE[], [[1.0, 2.0], [3.0, 4.0]]::DOUBLE[][], '2024-01-01 00:00:00.123456789'::TIMESTAMP_NS, [[[1.5]]]::DOUBLE[][][]),
    (2, NULL, NULL, NULL, NULL), (3, []::DOUBLE[], []::DOUBLE[][], '1970-01-01 00:00:00.000000001'::TIMESTAMP_NS, [[[]]]::DOUBLE[][][])) t(id, a, b, ns, c)) TO '${path}' (FORMAT PARQUET, ROW_GROUP_SIZE 2)`)
  const r = await db.query(`SELECT * FROM read_parquet('duck-lists.parquet')`)
  t.same(r.columns.map((c) => c.type), ['INT', 'DOUBLE[]', 'DOUBLE[][]', 'TIMESTAMP_NS', 'DOUBLE[][][]'])
  t.same(r.rows, [
    [1, [1, 2, null], [[1, 2], [3, 4]], 1704067200123456789n, [[[1.5]]]],
    [2, null, null, null, null],
    [3, [], [], 1, []],
  ])
})

t.test('a ragged list is refused with 22P02 naming the column', async (t) => {
  const path = join(dir, 'ragged.parquet')
  await duckRows(`COPY (SELECT [[1.0], [2.0, 3.0]]::DOUBLE[][] AS r) TO '${path}' (FORMAT PARQUET)`)
  const err = await db.query("SELECT * FROM read_parquet('ragged.parquet')").catch((e: unknown) => e)
  t.ok(err instanceof SqlError)
  t.equal((err as SqlError).code, '22P02')
  t.match((err as SqlError).message, /column r/)
})

t.test('a partition with TIMESTAMP_NS and array columns converts to Parquet and back with the same answers', async (t) => {
  const pdb = await Database.open({ path: tmpDir(t, 'epochdb-ns-array-part-') })
  t.teardown(() => pdb.close())
  await pdb.query('CREATE TABLE x (id INT, a DOUBLE[], b DOUBLE[][], n TIMESTAMP_NS, ts TIMESTAMP_NS) TIMESTAMP(ts) PARTITION BY DAY')
  await pdb.query("INSERT INTO x VALUES (1, ARRAY[1.0, NULL], ARRAY[[1.0], [2.0]], '2024-01-01T00:00:00.123456789Z', '2024-01-01T00:00:00.000000001Z')")
  await pdb.query("INSERT INTO x VALUES (2, NULL, ARRAY[[]]::DOUBLE[][], NULL, '2024-01-01T00:00:00.000000002Z'), (3, ARRAY[3.0], NULL, '1969-12-31T23:59:59.999999999Z', '2024-01-02T00:00:00.000000003Z')")
  const before = (await pdb.query('SELECT * FROM x')).rows
  t.equal((await pdb.query("ALTER TABLE x CONVERT PARTITION TO PARQUET LIST '2024-01-01'")).rowCount, 1)
  t.same((await pdb.query('SELECT * FROM x')).rows, before, 'queried from the Parquet partition')
  t.same((await pdb.query("SELECT count() FROM x WHERE ts IN '2024-01-01'")).rows, [[2n]])
  await pdb.query("ALTER TABLE x CONVERT PARTITION TO NATIVE LIST '2024-01-01'")
  t.same((await pdb.query('SELECT * FROM x')).rows, before, 'and back to native')
})
