import './resolve-hook.js'
import t from 'tap'
import { join } from 'node:path'
import { Database } from '../../../lib/index.js'
import { ParquetFile } from '../../../lib/parquet/reader.js'
import { duckCanonical, duckEverySql, duckRows, epochCanonical, fillEvery, tmpDir } from './helpers.js'

const dir = tmpDir(t)
const db = await Database.open({ copyRoot: dir, exportRoot: dir })
t.teardown(() => db.close())
await fillEvery(db, 3000)
// LONG256 text differs in leading zeros between producers (rnd_long256 vs the parser): compare values
const l256 = (rows: unknown[][]): unknown[][] => rows.map((r) => r.map((v, k) => (k === 14 && typeof v === 'string' ? BigInt(v) : v)))
const original = (await db.query('SELECT * FROM every')).rows

for (const codec of ['snappy', 'gzip', 'brotli', 'uncompressed'] as const) {
  t.test(`every type survives EpochDB -> Parquet (${codec}) -> EpochDB, and DuckDB reads the same values`, async (t) => {
    const file = `every-${codec}.parquet`
    const r = await db.exportParquet('SELECT * FROM every', join(dir, file), { compressionCodec: codec, rowGroupSize: 1000 })
    t.equal(r.rows, original.length)
    // types come back exactly (the footer's epochdb entry), SYMBOL as VARCHAR as QuestDB's read_parquet
    const back = await db.query(`SELECT * FROM read_parquet('${file}')`)
    t.same(back.columns.map((c) => c.type), ['BOOLEAN', 'BYTE', 'SHORT', 'CHAR', 'INT', 'LONG', 'FLOAT', 'DOUBLE', 'DATE', 'STRING', 'VARCHAR', 'VARCHAR', 'UUID', 'IPv4', 'LONG256', 'BINARY', 'TIMESTAMP'])
    t.equal(back.timestampIndex, 16, 'the designated timestamp comes back')
    t.same(l256(back.rows), l256(original))
    // INSERT ... SELECT * FROM read_parquet into a table of the original shape
    await db.query(`CREATE TABLE copy_${codec} (LIKE every)`)
    await db.query(`INSERT INTO copy_${codec} SELECT * FROM read_parquet('${file}')`)
    t.same(l256((await db.query(`SELECT * FROM copy_${codec}`)).rows), l256(original))
    // an independent reader
    const duck = (await duckRows(duckEverySql(join(dir, file)))).map(duckCanonical)
    t.same(duck, original.map(epochCanonical))
  })
}

t.test('the file says what QuestDB-minded readers look for', async (t) => {
  const f = ParquetFile.open(join(dir, 'every-snappy.parquet'), { symbols: 'SYMBOL' })
  t.equal(f.columns[11]!.type, 'SYMBOL', 'SYMBOL is kept for engine-internal reads')
  t.equal(f.rowGroups.length, 4, 'row groups of the requested size')
  t.ok(f.rowGroups.every((g) => g.tsMin !== undefined && g.tsMax !== undefined && g.tsMin <= g.tsMax), 'min/max statistics on the timestamp')
  const meta = await duckRows(`SELECT path_in_schema, encodings, stats_min_value IS NOT NULL, compression FROM parquet_metadata('${join(dir, 'every-snappy.parquet')}') WHERE row_group_id = 0`)
  const byName = new Map(meta.map((m) => [String(m[0]), m]))
  t.match(String(byName.get('sy')![1]), /DICTIONARY/, 'SYMBOL is dictionary-encoded')
  t.equal(byName.get('d')![2], true, 'statistics are written')
  t.equal(byName.get('ts')![3], 'SNAPPY')
  const schema = await duckRows(`SELECT name, logical_type::VARCHAR, repetition_type FROM parquet_schema('${join(dir, 'every-snappy.parquet')}') WHERE name = 'ts'`)
  t.match(String(schema[0]![1]), /isAdjustedToUTC=1.*MICROS|MICROS.*isAdjustedToUTC=1/i, 'TIMESTAMP is INT64 micros, UTC-adjusted')
  t.equal(schema[0]![2], 'REQUIRED', 'the designated timestamp is REQUIRED (as QuestDB)')
})

t.test('files written by DuckDB are read with inferred types', async (t) => {
  const file = join(dir, 'duck.parquet')
  await duckRows(`COPY (SELECT i::INTEGER AS i, i::BIGINT * 1000000000000 AS l, i / 4.0 AS d, 'n' || i AS s, TIMESTAMP '2024-01-01' + INTERVAL (i) SECOND AS ts,
    DATE '2024-01-01' + i::INTEGER AS day, i % 2 = 0 AS even, CASE WHEN i % 3 = 0 THEN NULL ELSE i END AS maybe, uuid() AS u
    FROM range(5000) t(i)) TO '${file}' (FORMAT PARQUET, COMPRESSION ZSTD, ROW_GROUP_SIZE 2048)`)
  const r = await db.query(`SELECT * FROM read_parquet('duck.parquet') LIMIT 4`)
  t.same(r.columns.map((c) => [c.name, c.type]), [['i', 'INT'], ['l', 'LONG'], ['d', 'DOUBLE'], ['s', 'VARCHAR'], ['ts', 'TIMESTAMP'], ['day', 'DATE'], ['even', 'BOOLEAN'], ['maybe', 'LONG'], ['u', 'UUID']])
  t.same(r.rows.map((x) => x.slice(0, 8)), [
    [0, 0n, 0, 'n0', 1704067200000000n, new Date('2024-01-01'), true, null],
    [1, 1000000000000n, 0.25, 'n1', 1704067201000000n, new Date('2024-01-02'), false, 1n],
    [2, 2000000000000n, 0.5, 'n2', 1704067202000000n, new Date('2024-01-03'), true, 2n],
    [3, 3000000000000n, 0.75, 'n3', 1704067203000000n, new Date('2024-01-04'), false, null],
  ])
  const agg = await db.query(`SELECT count(), sum(i), count(maybe) FROM read_parquet('duck.parquet')`)
  t.same(agg.rows, [[5000n, 12497500n, 3333n]])
})
