/**
 * `createHttpHandler`: QuestDB's REST endpoints as one `(req, res, next?)` function that
 * mounts on node:http, Express (also under a prefix) and Koa (see `koa.ts`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Database } from '../../lib/index.js'
import { authenticate, isLockedOut, isRefused, principalOf, sendLockedOut, sendRefused, sendUnauthorized } from './auth.js'
import type { RequestContext, RequestSignal } from './context.js'
import { crossSiteRefusal, hostRefusal } from './cross-site.js'
import { handleChk, handlePing, handleSettings, handleValidate } from './endpoints.js'
import { handleExec } from './exec.js'
import { handleExp } from './exp.js'
import { HttpError, describe, statusOf } from './http-error.js'
import { handleImp } from './imp/imp-endpoint.js'
import { handleWrite } from './ilp-write.js'
import { type HttpHandlerOptions, type ResolvedOptions, resolveOptions } from './options.js'
import { parseTarget } from './request.js'
import { TEXT_TYPE, errorBody, sendBody, sendJson } from './response.js'
import { type Route, ROUTES } from './routes.js'

/**
 * A request handler: resolves once the response is complete (or handed to `next`). Requests
 * for paths it does not serve go to `next()`, or get a 404 when there is no `next`.
 */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => Promise<void>

/**
 * Creates the REST handler for `db`.
 *
 * @example
 * ```ts
 * import http from 'node:http'
 * import { Database } from 'epochdb'
 * import { createHttpHandler } from 'epochdb/http'
 * const db = await Database.open()
 * http.createServer(createHttpHandler(db)).listen(9000)
 * // Express: app.use('/questdb', createHttpHandler(db))
 * ```
 */
export function createHttpHandler(db: Database, options: HttpHandlerOptions = {}): HttpHandler {
  const o = resolveOptions(options)
  return async (req, res, next) => {
    const started = performance.now()
    const url = req.url ?? '/'
    const q = url.indexOf('?')
    let route = ROUTES.get(q < 0 ? url : url.slice(0, q))
    if (route?.endpoint === 'write' && o.lineProtocol.enabled === false) route = undefined
    if (route === undefined) {
      if (next !== undefined) { next(); return }
      sendBody(res, 404, TEXT_TYPE, 'Not Found\r\n')
      log(o, req, url, res.statusCode, started, 0)
      return
    }
    let rows = 0
    try {
      rows = await serve(db, o, route, req, res, url)
    } catch (err) {
      const { message, position } = describe(err)
      if (!res.headersSent) sendJson(res, statusOf(err), errorBody('', message, position))
      else res.destroy()
    }
    log(o, req, url, res.statusCode, started, rows)
  }
}

async function serve(db: Database, o: ResolvedOptions, route: Route, req: IncomingMessage, res: ServerResponse, url: string): Promise<number> {
  if (Buffer.byteLength(url) > o.maxQueryLength) {
    res.setHeader('Connection', 'close')
    sendJson(res, 414, errorBody('', `request target is too long [length=${Buffer.byteLength(url)}, max=${o.maxQueryLength}]`, 0))
    return 0
  }
  // HEAD /ping: the health check of InfluxDB clients (QuestDB answers `curl -I /ping` with 204)
  if (req.method !== route.method && !(req.method === 'HEAD' && route.endpoint === 'ping')) {
    sendBody(res, 405, TEXT_TYPE, `Method ${req.method ?? ''} not supported\r\n`)
    return 0
  }
  if (!route.open) {
    // before credentials: a browser sends cached Basic credentials with a cross-site <img> too
    const refused = hostRefusal(req, o.allowedHosts) ?? crossSiteRefusal(req, o.allowedOrigins)
    if (refused !== undefined) { sendJson(res, 403, errorBody('', refused, 0)); return 0 }
  }
  if (route.method === 'GET' && hasBody(req)) throw new HttpError(400, 'GET request method cannot have content')
  const target = parseTarget(url)
  if (route.endpoint === 'ping') { handlePing(res, o.lineProtocol.pingVersion); return 0 }
  if (route.endpoint === 'settings') { handleSettings(res, o, db); return 0 }
  const a0 = process.hrtime.bigint()
  const principal = await authenticate(req, o, db)
  if (principal === null) { sendUnauthorized(res); return 0 }
  if (isLockedOut(principal)) { sendLockedOut(res, principal); return 0 }
  if (isRefused(principal)) { sendRefused(res, principal); return 0 }
  // 42501 `Access denied for <user> [HTTP]`: answered 403 with the JSON error by the caller
  if (db.aclEnabled) db.checkEndpoint(principal, 'HTTP')
  const signal: RequestSignal = { cancelled: false }
  res.once('close', () => { if (!res.writableFinished) signal.cancelled = true })
  const ctx: RequestContext = { db, req, res, target, options: o, session: db.session(principal), signal, authNanos: Number(process.hrtime.bigint() - a0) }
  if (route.endpoint === 'exec') o.sessions.apply(req, res, target.params.get('session'), principal)
  switch (route.endpoint) {
    case 'exec': return handleExec(ctx)
    case 'exp': return handleExp(ctx)
    case 'imp': return handleImp(ctx)
    case 'chk': await handleChk(ctx); return 0
    case 'validate': await handleValidate(ctx); return 0
    case 'write': return handleWrite(ctx, o.lineProtocol)
  }
}

function hasBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length']
  return (len !== undefined && len !== '0') || req.headers['transfer-encoding'] !== undefined
}

function log(o: ResolvedOptions, req: IncomingMessage, url: string, status: number, started: number, rows: number): void {
  if (o.onRequest === undefined) return
  const q = url.indexOf('?')
  const p = principalOf(req)
  o.onRequest({ method: req.method ?? '', path: q < 0 ? url : url.slice(0, q), status, ms: Math.round((performance.now() - started) * 100) / 100, rows, ...(p === undefined ? {} : { user: p.name, ...(p.displayName === undefined ? {} : { name: p.displayName }) }) })
}
