/**
 * POST /write and /api/v2/write: InfluxDB Line Protocol over HTTP, as QuestDB serves it. The
 * body is parsed as it streams in (gzip inflated when `Content-Encoding: gzip`); the request is
 * one transaction, all lines or none; success is `204` with no body, a failure QuestDB's JSON
 * error `{"code","message","line","errorId"}` with its status (400 bad data, 403 permissions,
 * 413 too large, 415 bad gzip, 421 read-only, 500 server).
 */
import { randomBytes } from 'node:crypto'
import { createGunzip } from 'node:zlib'
import type { Readable } from 'node:stream'
import type { ServerResponse } from 'node:http'
import { IlpError, type LineWriterOptions, type TimeUnit } from '../../lib/index.js'
import type { RequestContext } from './context.js'
import { JSON_TYPE } from './response.js'
import { jsonString } from './json/json-string.js'

/** Options of ILP over HTTP (`lineProtocol` of the handler's options). */
export interface LineHttpOptions extends LineWriterOptions {
  /** serve /write and /api/v2/write (`line.http.enabled`, default true) */
  readonly enabled?: boolean
  /** the largest request body, in bytes; larger answers 413 (`epochdb.line.http.max.request.size`, default 64 MiB) */
  readonly maxRequestBytes?: number
  /** the `X-Influxdb-Version` /ping answers (`line.http.ping.version`, default v2.7.4) */
  readonly pingVersion?: string
  /** the ILP transports /settings reports (`ilp.proto.transports`; default `http` when enabled) */
  readonly transports?: readonly string[]
}

/** Default cap of one ILP/HTTP request body. */
export const DEFAULT_MAX_REQUEST_BYTES = 64 * 1024 * 1024

const PRECISIONS: Readonly<Record<string, TimeUnit>> = { n: 'n', ns: 'n', u: 'u', us: 'u', ms: 'ms', s: 's', m: 'm', h: 'h' }

/** Fixed per process, as QuestDB's error ids: `<12 hex>-<counter>`. */
const ERROR_ID_PREFIX = randomBytes(6).toString('hex')
let errorCounter = 0

/** Serves one ILP/HTTP request; returns the rows written. */
export async function handleWrite(ctx: RequestContext, o: LineHttpOptions): Promise<number> {
  const { req, res } = ctx
  const p = ctx.target.params.get('precision')
  const precision = p === undefined ? 'n' : PRECISIONS[p]
  if (precision === undefined) return fail(ctx, new IlpError(400, 'not supported', 'unsupported precision'))
  if (ctx.options.readOnly) return fail(ctx, new IlpError(421, 'internal error', 'this instance cannot receive writes'), 'not accepting writes')
  const max = o.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > max) return fail(ctx, tooLarge(max))
  const w = ctx.db.lineWriter({ ...o, precision, session: ctx.session })
  const failure = await readBody(req, /^\s*gzip\s*$/i.test(String(req.headers['content-encoding'] ?? '')), max, (chunk) => w.write(chunk))
  if (failure !== undefined) return fail(ctx, failure)
  try {
    const rows = await w.end()
    res.writeHead(204)
    res.end()
    return rows
  } catch (e) {
    if (e instanceof IlpError) return fail(ctx, e)
    throw e
  }
}

/**
 * Reads the body to its end, handing each chunk to `write` until one fails; the rest is read
 * and dropped (so the connection stays usable), unless it runs past four times the cap, when
 * the answer goes out and the connection closes.
 */
function readBody(req: Readable, gzip: boolean, max: number, write: (chunk: Buffer) => void): Promise<IlpError | undefined> {
  return new Promise((resolve, reject) => {
    let failure: IlpError | undefined
    let received = 0
    const body: Readable = gzip ? req.pipe(createGunzip()) : req
    body.on('data', (chunk: Buffer) => {
      received += chunk.length
      if (failure !== undefined) {
        if (received > 4 * max) { req.pause(); resolve(failure) }
        return
      }
      if (received > max) { failure = tooLarge(max); return }
      try { write(chunk) } catch (e) { if (e instanceof IlpError) failure = e; else { failure = new IlpError(500, 'internal error', String(e)); reject(e) } }
    })
    body.on('end', () => resolve(failure))
    body.on('error', (e: NodeJS.ErrnoException) => {
      if (gzip && e.code?.startsWith('Z_') === true) { req.resume(); resolve(failure ?? new IlpError(415, 'not supported', 'gzip decompression error')) } else reject(e)
    })
    req.on('aborted', () => resolve(failure ?? new IlpError(400, 'invalid', 'request aborted')))
  })
}

function tooLarge(max: number): IlpError {
  return new IlpError(413, 'request too large', `request body is too large [max=${max} bytes] (epochdb.line.http.max.request.size); send smaller batches (auto_flush_rows)`)
}

/**
 * Answers with QuestDB's JSON error. When the body was not read to its end, the connection is
 * closed after the answer, so no client reuses a connection with a half-read body.
 */
function fail(ctx: RequestContext, e: IlpError, code: string = e.ilpCode): number {
  const line = e.line === undefined ? '' : `,"line":${e.line}`
  const body = `{"code":${jsonString(code)},"message":${jsonString(e.message)}${line},"errorId":"${ERROR_ID_PREFIX}-${++errorCounter}"}`
  send(ctx.res, e.status, body, !ctx.req.complete)
  if (!ctx.req.complete) ctx.req.resume()
  return 0
}

function send(res: ServerResponse, status: number, body: string, close: boolean): void {
  if (res.headersSent) { res.end(); return }
  res.writeHead(status, { 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(body), ...(close ? { Connection: 'close' } : {}) })
  res.end(body)
}
