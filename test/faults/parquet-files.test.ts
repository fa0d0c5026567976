// Attacks on the Parquet file paths and bytes: traversal out of the import/export roots (.., absolute
// paths, symlinks), and corrupt, truncated or foreign files. Every refusal is a SqlError with a
// SQLSTATE and the position of the path argument; nothing is written outside the export root.
import '../unit/parquet/resolve-hook.js'
import t, { type Test } from 'tap'
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Database, SqlError } from '../../lib/index.js'
import { tmpDir } from '../unit/parquet/helpers.js'

const base = tmpDir(t)
const imp = join(base, 'import')
const exp = join(base, 'export')
const outside = join(base, 'outside')
for (const d of [imp, exp, outside]) mkdirSync(d)
const db = await Database.open({ copyRoot: imp, exportRoot: exp })
t.teardown(() => db.close())
await db.query(`CREATE TABLE t AS (SELECT x, x * 1.5 d, timestamp_sequence('2024-01-01', 60000000) ts FROM long_sequence(3000)) TIMESTAMP(ts) PARTITION BY DAY`)
await db.exportParquet('SELECT * FROM t', join(imp, 'good.parquet'), { rowGroupSize: 1000 })
await db.exportParquet('SELECT * FROM t', join(outside, 'secret.parquet'))
symlinkSync(join(outside, 'secret.parquet'), join(imp, 'link.parquet'))
symlinkSync(outside, join(imp, 'linkdir'))
symlinkSync(outside, join(exp, 'linkdir'))

async function fails(t: Test, sql: string, code: string, message: RegExp, position?: number): Promise<void> {
  try {
    await db.query(sql)
    t.fail(`no error: ${sql}`)
  } catch (err) {
    t.type(err, SqlError, sql)
    t.equal((err as SqlError).code, code, sql)
    t.match((err as SqlError).message, message, sql)
    if (position !== undefined) t.equal((err as SqlError).position, position, sql)
  }
}

t.test('read_parquet stays under cairo.sql.copy.root', async (t) => {
  t.same((await db.query(`SELECT count() FROM read_parquet('good.parquet')`)).rows, [[3000n]])
  t.same((await db.query(`SELECT count() FROM read_parquet('${join(imp, 'good.parquet')}')`)).rows, [[3000n]], 'an absolute path inside the root')
  await fails(t, `SELECT * FROM read_parquet('../outside/secret.parquet')`, '22023', /relative path is not allowed/, 27)
  await fails(t, `SELECT * FROM read_parquet('a/../../outside/secret.parquet')`, '22023', /relative path is not allowed/)
  await fails(t, `SELECT * FROM read_parquet('..\\outside\\secret.parquet')`, '22023', /relative path is not allowed/)
  await fails(t, `SELECT * FROM read_parquet('${join(outside, 'secret.parquet')}')`, '22023', /outside 'cairo.sql.copy.root'/)
  await fails(t, `SELECT * FROM read_parquet('link.parquet')`, '22023', /outside 'cairo.sql.copy.root'/, 27)
  await fails(t, `SELECT * FROM read_parquet('linkdir/secret.parquet')`, '22023', /outside 'cairo.sql.copy.root'/)
  await fails(t, `SELECT * FROM read_parquet('')`, '22023', /path pattern is empty/)
  // a file the user names that is missing is the client's mistake (58P01, REST 400), not a storage fault (58030)
  await fails(t, `SELECT * FROM read_parquet('missing.parquet')`, '58P01', /^error reading parquet file \[2\]: could not open read-only \[file=missing.parquet\]$/, 27)
  await fails(t, `SELECT * FROM read_parquet('good.parquet/x.parquet')`, '42809', /error reading parquet file \[20\]: could not open read-only/, 27)
  mkdirSync(join(imp, 'dir.parquet'))
  await fails(t, `SELECT * FROM read_parquet('dir.parquet')`, '42809', /error reading parquet file \[21\]: could not open read-only \[file=dir.parquet\]/, 27)
  const none = await Database.open()
  t.teardown(() => none.close())
  await t.rejects(none.query(`SELECT * FROM read_parquet('good.parquet')`), { code: '0A000', message: /cairo.sql.copy.root/ })
})

t.test('COPY TO stays under cairo.sql.copy.export.root', async (t) => {
  t.same((await db.query(`COPY t TO 'nested/dir/ok' WITH FORMAT PARQUET`)).columns.map((c) => c.name), ['id'])
  t.same(readdirSync(join(exp, 'nested', 'dir', 'ok')), ['2024-01-01.parquet', '2024-01-02.parquet', '2024-01-03.parquet'], 'a file per partition, directories made inside the root')
  await db.query(`COPY t TO 'nested/one' WITH FORMAT PARQUET PARTITION_BY NONE`)
  t.ok(existsSync(join(exp, 'nested', 'one.parquet')), '.parquet appended to a single file')
  await fails(t, `COPY t TO '../outside/x' WITH FORMAT PARQUET`, '22023', /relative path is not allowed/, 10)
  await fails(t, `COPY t TO '${join(outside, 'x')}' WITH FORMAT PARQUET`, '22023', /outside 'cairo.sql.copy.export.root'/)
  await fails(t, `COPY t TO 'linkdir/x' WITH FORMAT PARQUET`, '22023', /outside 'cairo.sql.copy.export.root'/)
  t.notOk(existsSync(join(outside, 'x.parquet')), 'nothing written outside')
  await fails(t, `COPY t TO 'x'`, '42601', /export format must be specified/)
  await fails(t, `COPY t TO 'x' WITH FORMAT PARQUET row_group_size -1`, '22023', /row_group_size/)
  await fails(t, `COPY t TO 'x' WITH FORMAT PARQUET compression_codec lz4`, '22023', /invalid compression codec\[lz4\]/)
  await fails(t, `COPY t TO 'x' WITH FORMAT PARQUET size_limit 10`, '0A000', /size limit is not yet supported/)
  await fails(t, `COPY t TO 'x' WITH FORMAT PARQUET bogus 1`, '22023', /unrecognised option \[option=bogus\]/, 34)
  const none = await Database.open()
  t.teardown(() => none.close())
  await none.query('CREATE TABLE u (x INT)')
  await t.rejects(none.query(`COPY u TO 'x' WITH FORMAT PARQUET`), { code: '0A000', message: /COPY TO is disabled \['cairo.sql.copy.export.root' is not set\?\]/ })
})

t.test('corrupt, truncated and foreign files give a clear SqlError: 22P04, the user\'s file, not the server\'s data (XX001)', async (t) => {
  const good = readFileSync(join(imp, 'good.parquet'))
  writeFileSync(join(imp, 'empty.parquet'), '')
  writeFileSync(join(imp, 'text.parquet'), 'ts,x\n2024-01-01,1\n')
  writeFileSync(join(imp, 'truncated.parquet'), good.subarray(0, Math.floor(good.length / 2)))
  writeFileSync(join(imp, 'no-footer.parquet'), good.subarray(0, good.length - 4))
  const badLength = Buffer.from(good)
  badLength.writeUInt32LE(0x7fffffff, badLength.length - 8)
  writeFileSync(join(imp, 'bad-length.parquet'), badLength)
  const garbledFooter = Buffer.from(good)
  const metaLength = garbledFooter.readUInt32LE(garbledFooter.length - 8)
  garbledFooter.fill(0xff, garbledFooter.length - 8 - metaLength, garbledFooter.length - 8)
  writeFileSync(join(imp, 'garbled-footer.parquet'), garbledFooter)
  for (const f of ['empty', 'text', 'truncated', 'no-footer', 'bad-length', 'garbled-footer']) {
    await fails(t, `SELECT * FROM read_parquet('${f}.parquet')`, '22P04', new RegExp(`failed to read parquet file: ${f}.parquet: `), 27)
  }
  // damaged data pages: the footer is fine, the bytes of the row groups are not
  const garbledData = Buffer.from(good)
  garbledData.fill(0xa5, 4, Math.floor(garbledData.length / 2))
  writeFileSync(join(imp, 'garbled-data.parquet'), garbledData)
  await fails(t, `SELECT sum(d) FROM read_parquet('garbled-data.parquet')`, '22P04', /failed to read parquet file: garbled-data.parquet: /)
})

t.test('row groups outside a timestamp filter are not read', async (t) => {
  // the last row group's bytes are destroyed: a query whose interval excludes it never notices
  const good = readFileSync(join(imp, 'good.parquet'))
  const { ParquetFile } = await import('../../lib/parquet/reader.js')
  const f = ParquetFile.open(join(imp, 'good.parquet'))
  t.equal(f.rowGroups.length, 3)
  const meta = await (await import('hyparquet')).parquetMetadata(good.buffer.slice(good.byteOffset, good.byteOffset + good.length))
  const last = meta.row_groups[2]!.columns
  const start = Math.min(...last.map((c) => Number(c.meta_data!.dictionary_page_offset ?? c.meta_data!.data_page_offset)))
  const end = Math.max(...last.map((c) => Number(c.meta_data!.data_page_offset) + Number(c.meta_data!.total_compressed_size)))
  const damaged = Buffer.from(good)
  damaged.fill(0x5a, start, end)
  writeFileSync(join(imp, 'last-damaged.parquet'), damaged)
  const firstTs = f.rowGroups[0]!.tsMin!
  const early = await db.query(`SELECT count(), sum(x) FROM read_parquet('last-damaged.parquet') WHERE ts < ${firstTs + 1000 * 60_000_000}`)
  t.same(early.rows, [[1000n, 500500n]], 'pruned by the row groups\' timestamp statistics')
  // runtime bounds (a parameter, a scalar subquery, the clock) prune row groups as literal ones do
  const cut = `SELECT count(), sum(x) FROM read_parquet('last-damaged.parquet') WHERE ts <`
  t.same((await db.query(`${cut} $1`, [firstTs + 1000 * 60_000_000])).rows, [[1000n, 500500n]], 'a parameter bound')
  t.same((await db.query(`${cut} (SELECT dateadd('m', 1000, min(ts)) FROM t)`)).rows, [[1000n, 500500n]], 'a subquery bound')
  t.same((await db.query(`${cut} dateadd('y', -100, now())`)).rows, [[0n, null]], 'a now() bound before every row: no row group read')
  t.same((await db.query(`SELECT count() FROM read_parquet('last-damaged.parquet') WHERE ts > dateadd('y', -1, systimestamp())`)).rows, [[0n]], 'a clock bound after every row')
  await fails(t, `SELECT count(), sum(x) FROM read_parquet('last-damaged.parquet')`, '22P04', /failed to read parquet file/)
  // projection: only the chunks of the columns used are read (x's chunks are intact, d's are not)
  const dOnly = Buffer.from(good)
  for (const g of meta.row_groups) {
    const c = g.columns.find((k) => k.meta_data!.path_in_schema[0] === 'd')!.meta_data!
    dOnly.fill(0x5a, Number(c.dictionary_page_offset ?? c.data_page_offset), Number(c.data_page_offset) + Number(c.total_compressed_size))
  }
  writeFileSync(join(imp, 'd-damaged.parquet'), dOnly)
  t.same((await db.query(`SELECT sum(x) FROM read_parquet('d-damaged.parquet')`)).rows, [[4501500n]], 'column pruning reaches the file')
  await fails(t, `SELECT sum(d) FROM read_parquet('d-damaged.parquet')`, '22P04', /failed to read parquet file/)
})
