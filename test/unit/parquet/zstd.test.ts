/**
 * zstd export (lib/parquet/zstd.ts): with the optional package `@hpcc-js/wasm-zstd` installed the
 * file is ZSTD-compressed and reads back (ours and DuckDB's reader); without it the export is
 * refused with 0A000 naming the package, and no file is left behind. Which branch runs depends on
 * whether the package is installed; each asserts its own outcome.
 */
import './resolve-hook.js'
import t from 'tap'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Database, SqlError } from '../../../lib/index.js'
import { ZSTD_PACKAGE } from '../../../lib/parquet/zstd.js'
import { duckRows, tmpDir } from './helpers.js'

const installed = await import(ZSTD_PACKAGE as string).then(() => true, () => false)

t.test(`compression_codec=zstd (${ZSTD_PACKAGE} ${installed ? 'installed' : 'absent'})`, async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ copyRoot: dir, exportRoot: dir })
  t.teardown(() => db.close())
  await db.query("CREATE TABLE z AS (SELECT timestamp_sequence('2024-01-01', 1000000L) ts, x * 0.5 d, 'k' || (x % 10) s FROM long_sequence(20000)) TIMESTAMP(ts)")
  const r = await db.query('COPY z TO \'z\' WITH FORMAT PARQUET compression_codec zstd compression_level 5').catch((e: unknown) => e)
  if (!installed) {
    t.ok(r instanceof SqlError)
    t.equal((r as SqlError).code, '0A000')
    t.match((r as SqlError).message, new RegExp(`needs the optional package ${ZSTD_PACKAGE}`))
    t.notOk(existsSync(join(dir, 'z.parquet')), 'no file is written')
    return
  }
  t.notOk(r instanceof Error, 'the export succeeds')
  t.same((await db.query("SELECT count(), sum(d), count(DISTINCT s) FROM read_parquet('z.parquet')")).rows, [[20000n, 100005000, 10n]])
  t.same(await duckRows(`SELECT count(*), sum(d), count(DISTINCT s) FROM read_parquet('${join(dir, 'z.parquet')}')`), [[20000n, 100005000, 10n]])
  t.same(await duckRows(`SELECT DISTINCT compression FROM parquet_metadata('${join(dir, 'z.parquet')}')`), [['ZSTD']])
})
