/**
 * The export's own PLAIN / dictionary pages (lib/parquet/plain-chunk.ts): nulls in every
 * fixed-width type, SYMBOL columns over several batches and source dictionaries, several pages per
 * chunk, each codec; DuckDB reads the same values and the same min / max / null count, and the
 * file's pages are the ones this encoder writes (PLAIN values, a dictionary page for SYMBOL).
 */
import './resolve-hook.js'
import t from 'tap'
import { join } from 'node:path'
import { Database } from '../../../lib/index.js'
import { duckRows, tmpDir } from './helpers.js'

const dir = tmpDir(t)
const db = await Database.open({ copyRoot: dir, exportRoot: dir })
t.teardown(() => db.close())
await db.query(`CREATE TABLE f (ts TIMESTAMP, d DOUBLE, fl FLOAT, i INT, l LONG, dt DATE, n TIMESTAMP_NS, sy SYMBOL, s2 SYMBOL) TIMESTAMP(ts) PARTITION BY DAY`)
// several INSERTs: several batches, nulls at every 3rd/5th/7th row, negative and huge values
await db.query(`INSERT INTO f SELECT timestamp_sequence('2024-01-01', 1000000L), CASE WHEN x % 3 = 0 THEN NULL ELSE x * 1.5 - 700 END,
  CASE WHEN x % 5 = 0 THEN NULL ELSE x / 4.0 END::FLOAT, CASE WHEN x % 7 = 0 THEN NULL ELSE (x * 7919) % 20001 - 10000 END::INT,
  CASE WHEN x % 11 = 0 THEN NULL ELSE x * 1000000000000L - 5000000000000000L END, CASE WHEN x % 13 = 0 THEN NULL ELSE cast(x * 86400000L AS DATE) END,
  CASE WHEN x % 4 = 0 THEN NULL ELSE dateadd('n', x::INT, '2024-01-01T00:00:00.000000001Z'::TIMESTAMP_NS) END,
  CASE WHEN x % 9 = 0 THEN NULL ELSE 'k' || (x % 37) END, 'only' FROM long_sequence(5000)`)
await db.query(`INSERT INTO f VALUES ('2024-02-01', -0.0, 0.0, -2147483647, 9223372036854775807, NULL, '2262-04-11T23:47:16.854775807Z', 'é', NULL),
  ('2024-02-02', 1.7976931348623157e308, -3.4e38, 2147483647, -9223372036854775807, '1970-01-01', '1677-09-21T00:12:43.145224193Z', '\u{1D11E}', 'other')`)
const original = (await db.query('SELECT * FROM f')).rows
const cols = ['d', 'fl', 'i', 'l', 'dt', 'n', 'sy', 's2']

for (const codec of ['snappy', 'uncompressed', 'gzip'] as const) {
  t.test(`own pages (${codec}, small pages) round-trip and DuckDB reads them alike`, async (t) => {
    const path = join(dir, `f-${codec}.parquet`)
    await db.exportParquet('SELECT * FROM f', path, { compressionCodec: codec, rowGroupSize: 2000, dataPageSize: 4096 })
    t.same((await db.query(`SELECT * FROM read_parquet('f-${codec}.parquet')`)).rows, original.map((r) => r), 'read_parquet gives every value back')
    const duck = await duckRows(`SELECT epoch_us(ts)::VARCHAR, d, fl, i, l::VARCHAR, epoch_ms(dt)::VARCHAR, epoch_us(n)::VARCHAR, sy, s2 FROM read_parquet('${path}') ORDER BY ts`)
    const mine = original.map((r) => [String(r[0]), r[1], r[2] === null ? null : Math.fround(r[2] as number), r[3], r[4] === null ? null : String(r[4]),
      r[5] === null ? null : String((r[5] as Date).getTime()), r[6] === null ? null : String((r[6] as bigint) / 1000n - ((r[6] as bigint) < 0n && (r[6] as bigint) % 1000n !== 0n ? 1n : 0n)), r[7], r[8]])
    // DuckDB turns the largest TIMESTAMP_NS into infinity: that one value is compared by the reader above only
    const fix = (rows: unknown[][]): unknown[][] => rows.map((r) => r.map((v, k) => (k === 6 && (v === 'infinity' || v === '9223372036854775') ? 'max' : k === 2 && typeof v === 'number' ? Math.fround(v) : v)))
    t.same(fix(duck.slice(0, -2)), fix(mine.slice(0, -2)), 'DuckDB reads the same values')
    t.same(duck.at(-1)!.slice(1, 6), mine.at(-1)!.slice(1, 6))
    const meta = await duckRows(`SELECT path_in_schema, encodings, stats_min_value, stats_max_value, stats_null_count, dictionary_page_offset IS NOT NULL, row_group_id
      FROM parquet_metadata('${path}') WHERE row_group_id = 0 ORDER BY path_in_schema`)
    const by = new Map(meta.map((m) => [String(m[0]), m]))
    t.match(String(by.get('d')![1]), /PLAIN/)
    t.equal(by.get('sy')![5], true, 'SYMBOL has a dictionary page')
    const first = original.slice(0, 2000)
    const stat = (k: number): string[] => {
      const xs = first.map((r) => r[k] as number | null).filter((x): x is number => x !== null)
      return [String(Math.min(...xs)), String(Math.max(...xs)), String(first.length - xs.length)]
    }
    t.same(by.get('i')!.slice(2, 5).map(String), stat(3), 'INT min/max/null count')
    t.same(by.get('d')!.slice(2, 5).map((x) => String(Number(x))), stat(1), 'DOUBLE min/max/null count')
    t.same(by.get('sy')!.slice(2, 5).map(String), ['k0', 'k9', String(Math.floor(2000 / 9))], 'SYMBOL min/max/null count')
    t.same(by.get('s2')!.slice(2, 5).map(String), ['only', 'only', '0'])
    for (const c of cols) t.ok(by.has(c), `column ${c} has a chunk`)
    // many pages per chunk: DuckDB counts data pages through the metadata's page offsets
    const pages = await duckRows(`SELECT total_compressed_size FROM parquet_metadata('${path}') WHERE path_in_schema = 'l' AND row_group_id = 0`)
    t.ok(Number(pages[0]![0]) > 4096, 'the INT64 chunk spans several 4 KiB pages')
  })
}

t.test('the last row group: extreme values, the largest symbol by code point, statistics', async (t) => {
  const path = join(dir, 'f-snappy.parquet')
  const last = await duckRows(`SELECT path_in_schema, stats_min_value, stats_max_value FROM parquet_metadata('${path}')
    WHERE row_group_id = (SELECT max(row_group_id) FROM parquet_metadata('${path}')) ORDER BY path_in_schema`)
  const by = new Map(last.map((m) => [String(m[0]), m.slice(1).map(String)]))
  t.same(by.get('i'), ['-2147483647', '2147483647'])
  t.same(by.get('l'), ['-9223372036854775807', '9223372036854775807'])
  t.same(by.get('sy'), ['k0', '\u{1D11E}'], 'é sorts above k, the supplementary character above both')
  t.same(by.get('d'), ['-0.0', '1.7976931348623157e+308'])
})
