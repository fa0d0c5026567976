/**
 * A node:http server around the handler, set up as QuestDB's: a 64 KB request head, keep-alive
 * 5 s, and malformed or oversized requests answered with a JSON error before the socket closes.
 */
import http from 'node:http'
import https from 'node:https'
import type { SecureContextOptions } from 'node:tls'
import type { Socket } from 'node:net'
import type { Database } from '../../lib/index.js'
import { createHttpHandler } from './handler.js'
import { DEFAULT_MAX_QUERY_LENGTH, type HttpHandlerOptions } from './options.js'

/** Options of {@link createHttpServer}: the handler's, plus socket settings. */
export interface HttpServerOptions extends HttpHandlerOptions {
  /** keep-alive timeout in milliseconds (`http.keep-alive.timeout`, default 5000) */
  readonly keepAliveTimeout?: number
  /** answers requests the REST handler does not own (default: 404) */
  readonly fallback?: (req: http.IncomingMessage, res: http.ServerResponse) => void
  /** key and certificate: serve HTTPS instead of HTTP (`http.tls.*`) */
  readonly tls?: SecureContextOptions
}

/**
 * A `http.Server` serving the REST endpoints of `db` (not yet listening).
 *
 * @example
 * ```ts
 * const server = createHttpServer(db)
 * server.listen(9000, '127.0.0.1')
 * ```
 */
export function createHttpServer(db: Database, options: HttpServerOptions = {}): http.Server {
  const max = options.maxQueryLength ?? DEFAULT_MAX_QUERY_LENGTH
  const handler = createHttpHandler(db, options)
  const settings = { maxHeaderSize: max + 16 * 1024, keepAliveTimeout: options.keepAliveTimeout ?? 5000 }
  const serve = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const fallback = options.fallback
    void handler(req, res, fallback === undefined ? undefined : () => fallback(req, res))
  }
  const server: http.Server = options.tls === undefined ? http.createServer(settings, serve) : https.createServer({ ...settings, ...options.tls }, serve)
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) { socket.destroy(); return }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW'
    const body = `{"query":"","error":${JSON.stringify(tooLarge ? 'request head is too large' : 'malformed request')},"position":0}`
    const status = tooLarge ? '431 Headers too large' : '400 Bad request'
    socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
  })
  return server
}
