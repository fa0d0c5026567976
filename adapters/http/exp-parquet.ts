/**
 * GET /exp?fmt=parquet: the query's result as one Parquet file (QuestDB 9), streamed row group by
 * row group with back-pressure. Parameters as QuestDB names them: `compression_codec`,
 * `compression_level`, `row_group_size`, `data_page_size`, `statistics_enabled`,
 * `parquet_version`, `raw_array_encoding`, `bloom_filter_columns`, `bloom_filter_fpp`,
 * `partition_by` (refused unless NONE, as QuestDB), `filename`, `limit`, `rmode` (ignored).
 */
import type { ServerResponse } from 'node:http'
import type { Execution, ParquetWriteOptions } from '../../lib/index.js'
import { writeParquet } from '../../lib/internal.js'
import type { Batch } from '../../lib/index.js'

/** The query parameters that configure a Parquet export. */
export const PARQUET_PARAMS = [
  'partition_by', 'compression_codec', 'compression_level', 'row_group_size', 'data_page_size', 'statistics_enabled',
  'parquet_version', 'raw_array_encoding', 'bloom_filter_columns', 'bloom_filter_fpp', 'rmode',
] as const

/** The Parquet response's MIME type. */
export const PARQUET_TYPE = 'application/vnd.apache.parquet'

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => { res.off('drain', done); res.off('close', done); resolve() }
    res.on('drain', done)
    res.on('close', done)
  })
}

async function* window(batches: AsyncIterable<Batch>, skip: number, stop: number): AsyncGenerator<Batch> {
  let row = 0
  for await (const b of batches) {
    const from = Math.max(0, skip - row)
    const to = Math.min(b.length, stop - row)
    row += b.length
    if (to > from) yield from === 0 && to === b.length ? b : { length: to - from, vectors: b.vectors.map((v) => sliceOf(v, from, to)) }
    if (row >= stop) break
  }
}

function sliceOf<V extends Batch['vectors'][number]>(v: V, from: number, to: number): V {
  if (v.isConst || v.data === null) return { ...v, length: to - from }
  const d = v.data
  return { ...v, length: to - from, data: Array.isArray(d) ? d.slice(from, to) : (d as Float64Array).subarray(from, to) }
}

/**
 * Streams `ex` as Parquet into `res`. Resolves to the rows sent; throws (before any byte went out)
 * for the caller to answer with a JSON error, or destroys the connection when the failure comes
 * after the headers (as QuestDB does).
 */
export async function sendParquet(res: ServerResponse, ex: Execution, filename: string, options: ParquetWriteOptions, skip: number, stop: number): Promise<number> {
  const headers = { 'Content-Type': PARQUET_TYPE, 'Content-Disposition': `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}.parquet"` }
  const source: Execution = skip === 0 && stop === Number.MAX_SAFE_INTEGER ? ex : { ...ex, batches: window(ex.batches, skip, stop) }
  try {
    const rows = await writeParquet(source, {
      write: async (bytes) => {
        if (res.destroyed) throw new Error('client closed the connection')
        if (!res.headersSent) res.writeHead(200, { ...headers, 'Transfer-Encoding': 'chunked' })
        if (!res.write(bytes)) await drained(res)
      },
    }, options)
    if (!res.headersSent) res.writeHead(200, headers)
    res.end()
    return rows
  } catch (err) {
    if (!res.headersSent) throw err
    res.destroy()
    return 0
  }
}
