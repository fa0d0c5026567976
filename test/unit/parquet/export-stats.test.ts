import './resolve-hook.js'
import t from 'tap'
import { join } from 'node:path'
import { Database } from '../../../lib/index.js'
import { duckRows, tmpDir } from './helpers.js'

// the export computes LONG/TIMESTAMP values and SYMBOL statistics itself (not through the library)
t.test('LONG values written from doubles, SYMBOL min/max in UTF-8 byte order, read back by DuckDB', async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ copyRoot: dir, exportRoot: dir })
  t.teardown(() => db.close())
  await db.query('CREATE TABLE s (ts TIMESTAMP, l LONG, sym SYMBOL) TIMESTAMP(ts) PARTITION BY DAY')
  const longs = [-5_000_000_000_123, 9_007_199_254_740_991, -1, 0, 4_294_967_296, -4_294_967_297]
  const syms = ['b', 'a', 'é', '\u{1D11E}', '\uFF5A', 'b']
  await db.query(`INSERT INTO s VALUES ${longs.map((l, i) => `(${1_700_000_000_000_000 + i}, ${l}, '${syms[i]}')`).join(', ')}`)
  const file = join(dir, 's.parquet')
  await db.exportParquet('SELECT * FROM s', file)
  t.same((await duckRows(`SELECT l FROM read_parquet('${file}') ORDER BY ts`)).map((r) => String(r[0])), longs.map(String), 'LONG values')
  const stats = await duckRows(`SELECT path_in_schema, stats_min_value, stats_max_value FROM parquet_metadata('${file}') ORDER BY path_in_schema`)
  t.same(stats.find((r) => r[0] === 'l')?.slice(1), ['-5000000000123', '9007199254740991'])
  // by code point the supplementary character is the largest; UTF-16 order would say U+FF5A
  t.same(stats.find((r) => r[0] === 'sym')?.slice(1), ['a', '\u{1D11E}'])
  t.same(stats.find((r) => r[0] === 'ts')?.slice(1).map(String), ['2023-11-14 22:13:20+00', '2023-11-14 22:13:20.000005+00'])
})
