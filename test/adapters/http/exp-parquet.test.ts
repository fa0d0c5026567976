import '../../unit/parquet/resolve-hook.js'
import t from 'tap'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { duckCanonical, duckEverySql, duckRows, epochCanonical, fillEvery, tmpDir } from '../../unit/parquet/helpers.js'
import { startServer } from './helpers.js'

const srv = await startServer({ now: () => 1700000000000 })
t.teardown(() => srv.close())
await fillEvery(srv.db, 2000)
const dir = tmpDir(t)

async function exp(query: string, extra = ''): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const r = await fetch(`http://127.0.0.1:${srv.port}/exp?query=${encodeURIComponent(query)}&fmt=parquet${extra}`)
  return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) }
}

t.test('/exp?fmt=parquet streams a file DuckDB reads with the same values', async (t) => {
  const r = await exp('select * from every', '&row_group_size=500&compression_codec=gzip')
  t.equal(r.status, 200)
  t.equal(r.headers.get('content-type'), 'application/vnd.apache.parquet')
  t.equal(r.headers.get('content-disposition'), 'attachment; filename="questdb-query-1700000000000.parquet"')
  t.equal(r.body.subarray(0, 4).toString(), 'PAR1')
  const file = join(dir, 'every.parquet')
  writeFileSync(file, r.body)
  const epoch = (await srv.db.query('select * from every')).rows.map(epochCanonical)
  t.same((await duckRows(duckEverySql(file))).map(duckCanonical), epoch)
  const groups = await duckRows(`SELECT count(DISTINCT row_group_id), min(compression), max(compression) FROM parquet_metadata('${file}')`)
  t.same(groups, [[5n, 'GZIP', 'GZIP']], 'row_group_size and compression_codec are honoured')
})

t.test('filename, limit and an empty result', async (t) => {
  const r = await exp('select x from long_sequence(100)', '&filename=report&limit=10,15')
  t.equal(r.headers.get('content-disposition'), 'attachment; filename="report.parquet"')
  const file = join(dir, 'limit.parquet')
  writeFileSync(file, r.body)
  t.same(await duckRows(`SELECT x FROM read_parquet('${file}')`), [[11n], [12n], [13n], [14n], [15n]])
  const empty = await exp('select x from long_sequence(100) where x < 0')
  writeFileSync(join(dir, 'empty.parquet'), empty.body)
  t.same(await duckRows(`SELECT count(*) FROM read_parquet('${join(dir, 'empty.parquet')}')`), [[0n]], 'a valid file with no rows')
})

t.test('bad options and bad queries are JSON errors before any byte of Parquet', async (t) => {
  const bad = await exp('select 1', '&compression_codec=lz4')
  t.equal(bad.status, 400)
  t.match(JSON.parse(bad.body.toString()), { error: 'invalid compression codec[lz4], expected one of: uncompressed, snappy, gzip, brotli, zstd, lz4_raw' })
  // lz4_raw has no compressor (zstd's depends on an optional package: test/unit/parquet/zstd.test.ts)
  const lz4 = await exp('select 1', '&compression_codec=lz4_raw')
  t.equal(lz4.status, 400)
  t.match(JSON.parse(lz4.body.toString()), { error: /lz4_raw is not supported for writing/ })
  t.match(JSON.parse((await exp('select 1', '&partition_by=DAY')).body.toString()), { error: 'partitionBy is temporarily not supported:DAY' })
  const missing = await exp('select * from nope')
  t.equal(missing.status, 400)
  t.match(JSON.parse(missing.body.toString()), { error: 'table does not exist [table=nope]', position: 14 })
  const csv = await fetch(`http://127.0.0.1:${srv.port}/exp?query=select+1&fmt=PARQUET`)
  t.equal(csv.headers.get('content-type'), 'application/vnd.apache.parquet', 'fmt is case-insensitive')
})
