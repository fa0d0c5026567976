/**
 * GET /exec (alias /api/v1/sql/execute): runs one statement and answers QuestDB's JSON,
 * streaming the dataset batch by batch with back-pressure.
 */
import type { Execution } from '../../lib/index.js'
import { type RequestContext, KNOWN_PARAMS, checkParams } from './context.js'
import { HttpError, describe, statusOf } from './http-error.js'
import { isTrue, parseLimit } from './request.js'
import { ChunkWriter, JSON_TYPE, errorBody, sendJson } from './response.js'
import { jsonString } from './json/json-string.js'
import { type JsonCell, jsonColumn } from './json/json-rows.js'
import { parseCols, selectColumns } from './cols-param.js'
import { isWrite, parseOne } from './statement.js'
import { requestTimeout } from './timeout-param.js'

/** Flags of one /exec request. */
interface ExecRequest {
  readonly query: string
  readonly skip: number
  readonly stop: number
  readonly count: boolean
  readonly noMeta: boolean
  readonly timings: boolean
  readonly explain: boolean
  readonly quoteLargeNum: boolean
  readonly cols: string[] | undefined
}

/** Answers one /exec request; resolves to the number of rows sent. */
export async function handleExec(ctx: RequestContext): Promise<number> {
  const p = ctx.target.params
  const query = p.get('query') ?? ''
  try {
    checkParams(ctx, KNOWN_PARAMS.exec)
    if (ctx.target.badUtf8.has('query')) throw new HttpError(400, 'Bad UTF8 encoding in query text')
    const t0 = process.hrtime.bigint()
    const options = { session: ctx.session, signal: ctx.signal, timeout: requestTimeout(ctx), receivedAt: Date.now() }
    const stmt = await parseOne(ctx.db, query, options)
    if (stmt === undefined) {
      const key = Number(p.get('version') ?? '1') >= 2 ? 'notice' : 'error'
      sendJson(ctx.res, 200, `{"${key}":"empty query","query":${jsonString(query)},"position":"0"}`)
      return 0
    }
    if (ctx.options.readOnly && isWrite(ctx.db, stmt)) throw new HttpError(403, 'Write permission denied')
    const r = execRequest(query, ctx)
    const ex = await ctx.db.execute(stmt, [], options)
    const compiler = process.hrtime.bigint() - t0
    if (ex.command !== 'select') {
      sendJson(ctx.res, 200, confirmation(ex))
      return 0
    }
    const indices = selectColumns(ex.columns, r.cols)
    return await streamRows(ctx, r, ex, indices, compiler)
  } catch (err) {
    const { message, position } = describe(err)
    sendJson(ctx.res, statusOf(err), errorBody(query, message, position))
    return 0
  }
}

function execRequest(query: string, ctx: RequestContext): ExecRequest {
  const p = ctx.target.params
  const { lo, hi } = parseLimit(p.get('limit'))
  const skip = lo === undefined ? 0 : Math.max(0, lo - 1)
  const stop = Math.min(hi ?? Number.MAX_SAFE_INTEGER, skip + ctx.options.maxResponseRows)
  const cols = p.get('cols')
  return {
    query, skip, stop,
    count: isTrue(p.get('count')),
    noMeta: isTrue(p.get('nm')),
    timings: isTrue(p.get('timings')),
    explain: isTrue(p.get('explain')),
    quoteLargeNum: isTrue(p.get('quoteLargeNum')) || p.get('src') === 'con',
    cols: cols === undefined ? undefined : parseCols(cols),
  }
}

/** The body for a statement without rows. */
function confirmation(ex: Execution): string {
  switch (ex.command) {
    case 'insert': return '{"dml":"OK"}'
    case 'update': return `{"dml":"OK","updated":${ex.affected}}`
    default: return '{"ddl":"OK"}'
  }
}

function prefix(r: ExecRequest, ex: Execution, indices: readonly number[]): string {
  if (r.noMeta) return '{"dataset":['
  const cols = indices.map((i) => `{"name":${jsonString(ex.columns[i]!.name)},"type":${jsonString(ex.columns[i]!.type)}}`).join(',')
  return `{"query":${jsonString(r.query)},"columns":[${cols}],"timestamp":${ex.timestampIndex},"dataset":[`
}

async function streamRows(ctx: RequestContext, r: ExecRequest, ex: Execution, indices: readonly number[], compiler: bigint): Promise<number> {
  const w = new ChunkWriter(ctx.res, 200, { 'Content-Type': JSON_TYPE })
  w.push(prefix(r, ex, indices))
  const t1 = process.hrtime.bigint()
  let row = 0
  let sent = 0
  let countStart = 0n
  const out = w.out
  const columns = indices.map((c) => jsonColumn(ex.types[c]!, out, r.quoteLargeNum))
  try {
    for await (const batch of ex.batches) {
      if (row + batch.length > r.skip && row < r.stop) {
        const cells: JsonCell[] = indices.map((c, k) => columns[k]!(batch.vectors[c]!))
        const from = Math.max(0, r.skip - row)
        const to = Math.min(batch.length, r.stop - row)
        const n = cells.length
        for (let i = from; i < to; i++) {
          if (sent > 0) out.byte(44) // ,
          out.byte(91) // [
          for (let c = 0; c < n; c++) {
            if (c > 0) out.byte(44)
            cells[c]!(i)
          }
          out.byte(93) // ]
          sent++
          if (w.full) await w.flush()
        }
      }
      row += batch.length
      if (w.closed) break
      if (row >= r.stop) {
        if (!r.count) break
        if (countStart === 0n) countStart = process.hrtime.bigint()
      }
    }
  } catch (err) {
    if (w.closed) return sent
    const { message, position } = describe(err)
    if (!w.started) {
      w.discard()
      sendJson(ctx.res, statusOf(err), errorBody(r.query, message, position))
      return 0
    }
    w.push(`],"count":${sent === 0 ? 0 : r.skip + sent},"error":${jsonString(message)}, "errorPos":${position ?? 0}}`)
    w.end()
    return sent
  }
  const t2 = process.hrtime.bigint()
  const count = r.count ? row : sent === 0 ? 0 : r.skip + sent
  let tail = `],"count":${count}`
  if (r.timings) {
    const counting = countStart === 0n ? 0n : t2 - countStart
    tail += `,"timings":{"authentication":${ctx.authNanos},"compiler":${compiler},"execute":${t2 - t1 - counting},"count":${counting}}`
  }
  if (r.explain) tail += ',"explain":{"jitCompiled":false}'
  w.push(tail + '}')
  w.end()
  return sent
}
