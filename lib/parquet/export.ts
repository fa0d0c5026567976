/**
 * A query's result as Parquet: to any byte sink (the REST adapter's response) or to a file,
 * written beside its final name and renamed into place when complete, so a reader never sees a
 * half-written file and a failed export leaves none.
 */
import { open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { Execution } from '../result.js'
import { type ByteSink, ParquetBatchWriter, type ParquetWriteOptions, type WriterThreads } from './writer.js'

/**
 * Streams `ex`'s batches into `sink` as one Parquet file; resolves to the rows written.
 * `threads` overrides the number of compression threads (tests).
 */
export async function writeParquet(ex: Execution, sink: ByteSink, options: ParquetWriteOptions = {}, threads: WriterThreads = {}): Promise<number> {
  const columns = ex.columns.map((c, i) => ({ name: c.name, type: ex.types[i]! }))
  const w = await ParquetBatchWriter.open(columns, ex.timestampIndex, sink, options, threads)
  for await (const b of ex.batches) await w.push(b)
  await w.finish()
  return w.rows
}

/** What a file export wrote. */
export interface ParquetExportResult {
  readonly rows: number
  readonly bytes: number
  readonly path: string
}

/** Writes `ex` to the Parquet file `path` (replacing it), through a temporary file in the same directory. */
export async function writeParquetFile(ex: Execution, path: string, options: ParquetWriteOptions = {}): Promise<ParquetExportResult> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`)
  const fh = await open(tmp, 'w')
  let bytes = 0
  try {
    const rows = await writeParquet(ex, { write: async (b) => {
      for (let at = 0; at < b.length;) at += (await fh.write(b, at, b.length - at)).bytesWritten
      bytes += b.length
    } }, options)
    await fh.sync()
    await fh.close()
    await rename(tmp, path)
    return { rows, bytes, path }
  } catch (err) {
    await fh.close().catch(() => undefined)
    await rm(tmp, { force: true })
    throw err
  }
}
