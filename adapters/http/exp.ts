/**
 * GET /exp: exports a query's result as CSV (or Parquet with `fmt=parquet`, see exp-parquet.ts),
 * streamed batch by batch with back-pressure.
 * `limit=n` sends the first n rows, `limit=a,b` rows a..b-1 (0-based; QuestDB's skip = a).
 */
import type { Execution } from '../../lib/index.js'
import { type RequestContext, KNOWN_PARAMS, checkParams } from './context.js'
import { HttpError, describe, statusOf } from './http-error.js'
import { isTrue, parseLimit } from './request.js'
import { CSV_TYPE, ChunkWriter, errorBody, sendJson } from './response.js'
import { csvQuote } from './csv/csv-values.js'
import { type CsvCell, csvColumn } from './csv/csv-rows.js'
import { parseOne, returnsRows } from './statement.js'
import { requestTimeout } from './timeout-param.js'
import { PARQUET_PARAMS, sendParquet } from './exp-parquet.js'
import type { ParquetWriteOptions } from '../../lib/index.js'
import { parseParquetOptions } from '../../lib/internal.js'

/** The Parquet options among `/exp`'s parameters (QuestDB's names). */
function parquetOptions(p: ReadonlyMap<string, string>): ParquetWriteOptions {
  const raw = PARQUET_PARAMS.filter((n) => n !== 'rmode' && p.has(n)).map((name) => ({ name, value: p.get(name)!, pos: 0 }))
  try {
    return parseParquetOptions(raw)
  } catch (err) {
    throw new HttpError(400, describe(err).message)
  }
}

/** Answers one /exp request; resolves to the number of rows sent. */
export async function handleExp(ctx: RequestContext): Promise<number> {
  const p = ctx.target.params
  const query = p.get('query') ?? ''
  let ex: Execution
  let delimiter: string
  let parquet: ParquetWriteOptions | undefined
  try {
    checkParams(ctx, KNOWN_PARAMS.exp)
    if (ctx.target.badUtf8.has('query')) throw new HttpError(400, 'Bad UTF8 encoding in query text')
    const fmt = (p.get('fmt') ?? 'csv').toLowerCase()
    if (fmt !== 'csv' && fmt !== 'parquet') throw new HttpError(400, `unrecognised format [format=${fmt}]`)
    if (fmt === 'parquet') parquet = parquetOptions(p)
    delimiter = p.get('delimiter') ?? ','
    if (delimiter.length !== 1) throw new HttpError(400, 'delimiter must be a single character')
    const options = { session: ctx.session, signal: ctx.signal, timeout: requestTimeout(ctx), receivedAt: Date.now() }
    const stmt = query.length === 0 ? undefined : await parseOne(ctx.db, query, options)
    if (stmt === undefined) throw new HttpError(400, 'No query text')
    if (!returnsRows(ctx.db, stmt)) throw new HttpError(400, '/exp endpoint only accepts SELECT')
    ex = await ctx.db.execute(stmt, [], options)
  } catch (err) {
    const { message, position } = describe(err)
    sendJson(ctx.res, statusOf(err), errorBody(query, message, position ?? 0))
    return 0
  }
  const { lo, hi } = parseLimit(p.get('limit'))
  const skip = lo ?? 0
  const stop = Math.min(hi ?? Number.MAX_SAFE_INTEGER, skip + ctx.options.maxResponseRows)
  const name = p.get('filename') ?? `questdb-query-${ctx.options.now()}`
  if (parquet !== undefined) {
    try {
      return await sendParquet(ctx.res, ex, name, parquet, skip, stop)
    } catch (err) {
      const { message, position } = describe(err)
      sendJson(ctx.res, statusOf(err), errorBody(query, message, position ?? 0))
      return 0
    }
  }
  const w = new ChunkWriter(ctx.res, 200, {
    'Content-Type': CSV_TYPE,
    'Content-Disposition': `attachment; filename="${name.replace(/["\\\r\n]/g, '_')}.csv"`,
  })
  if (!isTrue(p.get('nm'))) w.push(ex.columns.map((c) => csvQuote(c.name)).join(delimiter) + '\r\n')
  let row = 0
  let sent = 0
  const out = w.out
  const columns = ex.columns.map((_, c) => csvColumn(ex.types[c]!, out))
  const sep = Buffer.from(delimiter, 'utf8')
  try {
    for await (const batch of ex.batches) {
      if (row + batch.length > skip && row < stop) {
        const cells: CsvCell[] = columns.map((bind, c) => bind(batch.vectors[c]!))
        const n = cells.length
        const from = Math.max(0, skip - row)
        const to = Math.min(batch.length, stop - row)
        for (let i = from; i < to; i++) {
          for (let c = 0; c < n; c++) {
            if (c > 0) out.bytes(sep)
            cells[c]!(i)
          }
          out.byte(13)
          out.byte(10)
          sent++
          if (w.full) await w.flush()
        }
      }
      row += batch.length
      if (row >= stop || w.closed) break
    }
  } catch (err) {
    if (w.closed) return sent
    if (!w.started) {
      w.discard()
      const { message, position } = describe(err)
      sendJson(ctx.res, statusOf(err), errorBody(query, message, position ?? 0))
      return 0
    }
    // as QuestDB: an error after bytes were sent drops the connection
    ctx.res.destroy()
    return sent
  }
  w.end()
  return sent
}
