// Attacks on read_parquet through a file's declared sizes: a small file whose footer claims a
// row group of two billion rows, or a column chunk of a terabyte, must not make the reader
// allocate for them; it refuses the file with 22P04 naming it, quickly. A page header past the
// page size limit is refused the same way before anything is decompressed.
import '../unit/parquet/resolve-hook.js'
import t, { type Test } from 'tap'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type FileMetaData, parquetMetadata } from 'hyparquet'
import { Database, SqlError } from '../../lib/index.js'
import { MAX_PAGE_BYTES, checkPage } from '../../lib/parquet/chunk-bytes.js'
import { tmpDir } from '../unit/parquet/helpers.js'

// a subpath the resolve hook maps: imported once the hook is registered
const { writeMetadata } = await import('hyparquet-writer/src/metadata.js')
const { ByteWriter } = await import('hyparquet-writer')

const dir = tmpDir(t, 'epochdb-parquet-sizes-')
const db = await Database.open({ copyRoot: dir, exportRoot: dir })
t.teardown(() => db.close())
await db.query('CREATE TABLE g AS (SELECT x::INT i, x * 0.5 d FROM long_sequence(5000))')
await db.query("COPY g TO 'good' WITH FORMAT PARQUET row_group_size 1000")
const good = readFileSync(join(dir, 'good.parquet'))
const footerLength = good.readUInt32LE(good.length - 8)
const body = good.subarray(0, good.length - 8 - footerLength)

/** The good file with its footer rewritten by `edit`. */
function withFooter(name: string, edit: (md: FileMetaData) => void): void {
  const md = parquetMetadata(good.buffer.slice(good.byteOffset, good.byteOffset + good.length) as ArrayBuffer)
  edit(md)
  const w = new ByteWriter()
  writeMetadata(w, md)
  w.appendUint32(0x31524150)
  writeFileSync(join(dir, `${name}.parquet`), Buffer.concat([body, Buffer.from(w.getBytes())]))
}

async function refused(t: Test, file: string, why: RegExp): Promise<void> {
  const started = Date.now()
  for (const sql of [`SELECT sum(d), sum(i) FROM read_parquet('${file}.parquet')`, `SELECT * FROM read_parquet('${file}.parquet')`]) {
    const err = await db.query(sql).then(() => undefined, (e: unknown) => e)
    t.ok(err instanceof SqlError, `${file}: refused`)
    t.equal((err as SqlError).code, '22P04', 'the user\'s file is damaged: a client error')
    t.match((err as SqlError).message, new RegExp(`failed to read parquet file: ${file}\\.parquet: .*${why.source}`))
  }
  t.ok(Date.now() - started < 20_000, 'without freezing')
}

t.test('a row group claiming two billion rows is refused before anything is allocated', async (t) => {
  withFooter('rows', (md) => { md.row_groups[0]!.num_rows = 2_000_000_000n })
  await refused(t, 'rows', /row group of 2000000000 rows/)
  const before = process.memoryUsage().rss
  withFooter('rows-more', (md) => { md.row_groups[1]!.num_rows = 100_000_000n; md.num_rows = 104_000_000n })
  await refused(t, 'rows-more', /row group of 100000000 rows/)
  t.ok(process.memoryUsage().rss - before < 256 * 1024 * 1024, 'memory did not grow by the claimed rows')
})

t.test('a column chunk claiming bytes the file does not have is refused', async (t) => {
  withFooter('chunk', (md) => { md.row_groups[0]!.columns[1]!.meta_data!.total_compressed_size = 1n << 40n })
  await refused(t, 'chunk', /outside the file/)
  withFooter('offset', (md) => { md.row_groups[0]!.columns[1]!.meta_data!.data_page_offset = BigInt(good.length * 4) })
  await refused(t, 'offset', /outside the file/)
})

t.test('a page header past the page size limit is refused', async (t) => {
  const page = (u: number, c: number) => ({ type: 'DATA_PAGE_V2', uncompressed_page_size: u, compressed_page_size: c }) as never
  t.doesNotThrow(() => checkPage(page(1 << 20, 1 << 19), 'f'))
  t.throws(() => checkPage(page(MAX_PAGE_BYTES + 1, 10), 'f'), { code: 'XX001', message: /page of .* beyond the 256 MiB limit/ })
  t.throws(() => checkPage(page(10, -1), 'f'), { code: 'XX001' })
})
