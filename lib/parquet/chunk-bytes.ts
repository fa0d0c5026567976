/**
 * The bounds a column chunk read from a file must respect before anything is allocated for it,
 * so a small hostile file cannot make the reader allocate gigabytes: the chunk's byte range lies
 * inside the file, a page's declared sizes stay under {@link MAX_PAGE_BYTES}, and a row group's
 * row count under {@link MAX_GROUP_ROWS} unless the file is large enough to hold such a group.
 */
import { fstatSync, readSync } from 'node:fs'
import type { PageHeader } from 'hyparquet'
import { SqlError, SqlState } from '../errors.js'

/** Largest page (compressed or not) the reader decodes: Parquet writers make pages of about 1 MiB. */
export const MAX_PAGE_BYTES = 256 * 1024 * 1024
/** Row groups up to this many rows are always read; larger ones only from a file of at least a byte per 64 rows. */
export const MAX_GROUP_ROWS = 1 << 24

function corrupt(label: string, why: string): SqlError {
  return new SqlError(SqlState.DATA_CORRUPTED, `failed to read parquet file: ${label}: ${why}`, -1)
}

/** The `length` bytes at `start` of the open file `fd`, after checking they lie inside it. */
export function readChunkBytes(fd: number, start: number, length: number, label: string): Buffer {
  const size = fstatSync(fd).size
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(length) || start < 0 || length < 0 || start + length > size) {
    throw corrupt(label, `column chunk [${start}, +${length}) outside the file's ${size} bytes`)
  }
  const buf = Buffer.allocUnsafe(length)
  let got = 0
  while (got < length) { const n = readSync(fd, buf, got, length - got, start + got); if (n === 0) break; got += n }
  if (got < length) throw corrupt(label, 'column chunk past the end of the file')
  return buf
}

/** Refuses a page header whose sizes are negative or past {@link MAX_PAGE_BYTES}. */
export function checkPage(h: PageHeader, label: string): void {
  const c = h.compressed_page_size
  const u = h.uncompressed_page_size
  if (!(c >= 0 && c <= MAX_PAGE_BYTES && u >= 0 && u <= MAX_PAGE_BYTES)) {
    throw corrupt(label, `page of ${u} bytes (${c} compressed) beyond the ${MAX_PAGE_BYTES / 1048576} MiB limit`)
  }
}

/** Refuses a row group whose row count a file of `fileBytes` cannot plausibly hold. */
export function checkGroupRows(rows: number, fileBytes: number, label: string): void {
  if (!Number.isSafeInteger(rows) || rows < 0 || (rows > MAX_GROUP_ROWS && rows > fileBytes * 64) || rows > 2 ** 31 - 1) {
    throw corrupt(label, `row group of ${rows} rows in a file of ${fileBytes} bytes`)
  }
}
