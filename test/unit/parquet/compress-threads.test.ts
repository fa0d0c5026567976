/**
 * The export's compression threads (lib/parquet/worker-pool.ts): a file written with its pages
 * compressed by two workers, while the writer encodes the next row groups, is byte for byte the
 * file the writer writes compressing on its own thread: every codec, nulls, SYMBOL and
 * dictionary pages, the hyparquet-writer path (VARCHAR, a bloom filter) in the same row groups,
 * several pages per chunk and a last short group. The workers really compressed the chunks.
 */
import './resolve-hook.js'
import t from 'tap'
import { Database } from '../../../lib/index.js'
import { writeParquet } from '../../../lib/parquet/export.js'
import { COMPRESS_STATS } from '../../../lib/parquet/worker-pool.js'
import type { ParquetWriteOptions } from '../../../lib/parquet/writer.js'

const db = await Database.open()
t.teardown(() => db.close())
await db.query(`CREATE TABLE f (ts TIMESTAMP, d DOUBLE, fl FLOAT, i INT, l LONG, n TIMESTAMP_NS, sy SYMBOL, v VARCHAR, c DOUBLE) TIMESTAMP(ts) PARTITION BY DAY`)
await db.query(`INSERT INTO f SELECT timestamp_sequence('2024-01-01', 1000000L), CASE WHEN x % 3 = 0 THEN NULL ELSE x * 1.5 - 700 END,
  CASE WHEN x % 5 = 0 THEN NULL ELSE x / 4.0 END::FLOAT, CASE WHEN x % 7 = 0 THEN NULL ELSE (x * 7919) % 20001 - 10000 END::INT,
  x * 1000000000000L - 5000000000000000L, dateadd('n', x::INT, '2024-01-01T00:00:00.000000001Z'::TIMESTAMP_NS),
  CASE WHEN x % 9 = 0 THEN NULL ELSE 'k' || (x % 37) END, CASE WHEN x % 4 = 0 THEN NULL ELSE 'v' || x END, rnd_double() FROM long_sequence(23456)`)

/** The file `options` give, compressed on `threads` threads (0: the writer's own). */
async function file(options: ParquetWriteOptions, threads: number): Promise<Buffer> {
  const ex = await db.execute(db.parse('SELECT * FROM f')[0]!, [])
  const parts: Uint8Array[] = []
  const rows = await writeParquet(ex, { write: (b) => { parts.push(b.slice()) } }, options, { compressThreads: threads })
  t.equal(rows, 23456)
  return Buffer.concat(parts)
}

const cases: [string, ParquetWriteOptions][] = [
  ['snappy', { compressionCodec: 'snappy', rowGroupSize: 5000, dataPageSize: 8192 }],
  ['snappy, one page per chunk', { compressionCodec: 'snappy', rowGroupSize: 10000 }],
  ['gzip', { compressionCodec: 'gzip', rowGroupSize: 4000, dataPageSize: 4096, compressionLevel: 6 }],
  ['brotli', { compressionCodec: 'brotli', rowGroupSize: 7000 }],
  ['zstd', { compressionCodec: 'zstd', rowGroupSize: 5000, compressionLevel: 5 }],
  ['uncompressed', { compressionCodec: 'uncompressed', rowGroupSize: 5000 }],
  ['snappy with a bloom filter', { compressionCodec: 'snappy', rowGroupSize: 6000, bloomFilterColumns: ['d'] }],
]
for (const [name, options] of cases) {
  t.test(`${name}: two compression threads write the single-threaded writer's bytes`, async (t) => {
    const before = COMPRESS_STATS.chunks
    const alone = await file(options, 0)
    t.equal(COMPRESS_STATS.chunks, before, 'compressThreads 0 compresses on the writer thread')
    const threaded = await file(options, 2)
    t.ok(alone.length > 1000, `a ${alone.length}-byte file`)
    t.ok(alone.equals(threaded), 'identical bytes')
    if (options.compressionCodec !== 'uncompressed') t.ok(COMPRESS_STATS.chunks - before >= 5, `the workers compressed ${COMPRESS_STATS.chunks - before} chunks`)
    else t.equal(COMPRESS_STATS.chunks, before, 'nothing to compress: no worker')
  })
}

t.test('a SYMBOL column whose table is too large to copy to the workers: encoded here, compressed there, same bytes', async (t) => {
  await db.query(`CREATE TABLE big (ts TIMESTAMP, s SYMBOL) TIMESTAMP(ts) PARTITION BY DAY`)
  await db.query(`INSERT INTO big SELECT timestamp_sequence('2024-01-01', 1000L), 'sym' || x FROM long_sequence(70000)`)
  const write = async (threads: number): Promise<Buffer> => {
    const ex = await db.execute(db.parse('SELECT * FROM big')[0]!, [])
    const parts: Uint8Array[] = []
    await writeParquet(ex, { write: (b) => { parts.push(b.slice()) } }, { rowGroupSize: 30000 }, { compressThreads: threads })
    return Buffer.concat(parts)
  }
  const before = COMPRESS_STATS.chunks
  const alone = await write(0)
  const threaded = await write(2)
  t.ok(alone.equals(threaded), `identical bytes (${alone.length})`)
  t.ok(COMPRESS_STATS.chunks - before >= 6, 'both columns of the three row groups were compressed by the workers')
})

t.test('the threaded file reads back', async (t) => {
  const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-pq-threads-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'x.parquet'), await file({ compressionCodec: 'snappy', rowGroupSize: 5000 }, 2))
  const r = await Database.open({ copyRoot: dir })
  t.teardown(() => r.close())
  t.same((await r.query(`SELECT * FROM read_parquet('x.parquet')`)).rows, (await db.query('SELECT ts, d, fl, i, l, n, sy, v, c FROM f')).rows)
})
