/**
 * A node:http server around the handler, set up as QuestDB's: a 64 KB request head, keep-alive
 * 5 s, a connection limit answered with 503, header / request / idle timeouts, and malformed,
 * oversized or timed-out requests answered with a JSON error before the socket closes.
 */
import http from 'node:http'
import https from 'node:https'
import type { SecureContextOptions } from 'node:tls'
import type { Socket } from 'node:net'
import type { Database } from '../../lib/index.js'
import { AddressSlots } from '../../lib/internal.js'
import { createHttpHandler } from './handler.js'
import { DEFAULT_MAX_QUERY_LENGTH, type HttpHandlerOptions } from './options.js'
import { errorBody, sendJson } from './response.js'

/** Options of {@link createHttpServer}: the handler's, plus socket settings. */
export interface HttpServerOptions extends HttpHandlerOptions {
  /** idle time between requests on a keep-alive connection before it closes, in ms (`http.keep-alive.timeout`, default 5000) */
  readonly keepAliveTimeout?: number
  /**
   * simultaneous connections served (`http.net.connection.limit`, default 64; 0 = unlimited).
   * Connections beyond it get `503` with a JSON error and `Connection: close` to their first
   * request; beyond twice the limit they are closed as soon as they are accepted.
   */
  readonly maxConnections?: number
  /**
   * connections one client address may hold at once (`epochdb.http.net.connection.limit.per.address`;
   * default 0 = no limit of its own). The next ones from that address get `503` with a JSON error
   * and `Connection: close` to their first request, as over `maxConnections`.
   */
  readonly maxConnectionsPerAddress?: number
  /** a connection with no bytes in either direction for this long is closed, in ms (`http.net.connection.timeout`, default 300000; 0 = never) */
  readonly idleTimeout?: number
  /** time to receive a request's head, from its first byte (or the connection), in ms (`http.request.header.timeout`, default 10000) */
  readonly headersTimeout?: number
  /** time to receive a whole request, head and body (an /imp upload), in ms (`http.request.timeout`, default 300000; 0 = no limit) */
  readonly requestTimeout?: number
  /** answers requests the REST handler does not own (default: 404) */
  readonly fallback?: (req: http.IncomingMessage, res: http.ServerResponse) => void
  /** key and certificate: serve HTTPS instead of HTTP (`http.tls.*`) */
  readonly tls?: SecureContextOptions
}

/** QuestDB's `http.net.connection.limit` default. */
export const DEFAULT_CONNECTION_LIMIT = 64
/** QuestDB's `http.net.connection.timeout` default, in milliseconds. */
export const DEFAULT_IDLE_TIMEOUT = 300_000
/** Default time to receive a request head, in milliseconds. */
export const DEFAULT_HEADERS_TIMEOUT = 10_000
/** Default time to receive a whole request (node's default), in milliseconds. */
export const DEFAULT_REQUEST_TIMEOUT = 300_000
/** How long a connection over the limit may take to send the request its 503 answers. */
const REFUSED_GRACE_MS = 2000

/**
 * A `http.Server` serving the REST endpoints of `db` (not yet listening).
 *
 * @example
 * ```ts
 * const server = createHttpServer(db, { maxConnections: 256 })
 * server.listen(9000, '127.0.0.1')
 * ```
 */
export function createHttpServer(db: Database, options: HttpServerOptions = {}): http.Server {
  const max = options.maxQueryLength ?? DEFAULT_MAX_QUERY_LENGTH
  const limit = nonNegative('maxConnections', options.maxConnections ?? DEFAULT_CONNECTION_LIMIT)
  const requestTimeout = nonNegative('requestTimeout', options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT)
  const headers = nonNegative('headersTimeout', options.headersTimeout ?? DEFAULT_HEADERS_TIMEOUT)
  const headersTimeout = requestTimeout > 0 ? Math.min(headers, requestTimeout) : headers
  const shortest = Math.min(...[headersTimeout, requestTimeout].filter((ms) => ms > 0), 4000)
  const handler = createHttpHandler(db, options)
  /** sockets answered 503 at their first request, with the reason */
  const refused = new WeakMap<Socket, string>()
  const served = new Set<Socket>()
  const perAddress = new AddressSlots(nonNegative('maxConnectionsPerAddress', options.maxConnectionsPerAddress ?? 0))
  const settings = {
    maxHeaderSize: max + 16 * 1024,
    keepAliveTimeout: nonNegative('keepAliveTimeout', options.keepAliveTimeout ?? 5000),
    headersTimeout, requestTimeout,
    // node checks the two timeouts above only this often (30 s by default)
    connectionsCheckingInterval: Math.max(50, Math.floor(shortest / 4)),
  }
  const serve = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const refusal = refused.get(req.socket)
    if (refusal !== undefined) {
      res.setHeader('Connection', 'close')
      sendJson(res, 503, errorBody('', refusal, 0))
      return
    }
    const fallback = options.fallback
    void handler(req, res, fallback === undefined ? undefined : () => fallback(req, res))
  }
  const server: http.Server = options.tls === undefined ? http.createServer(settings, serve) : https.createServer({ ...settings, ...options.tls }, serve)
  server.timeout = nonNegative('idleTimeout', options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT)
  if (limit > 0) server.maxConnections = 2 * limit
  if (limit > 0 || perAddress.limit > 0) {
    const refuse = (socket: Socket, why: string): void => {
      refused.set(socket, why)
      socket.setTimeout(REFUSED_GRACE_MS)
    }
    // with TLS, requests arrive on the TLS socket, counted once its handshake is done
    server.on(options.tls === undefined ? 'connection' : 'secureConnection', (socket: Socket) => {
      const release = perAddress.take(socket.remoteAddress)
      if (release === undefined) {
        refuse(socket, `too many connections from this address [limit=${perAddress.limit}] (epochdb.http.net.connection.limit.per.address); retry later`)
        return
      }
      if (limit > 0 && served.size >= limit) {
        release()
        refuse(socket, `too many connections [limit=${limit}]; retry later`)
        return
      }
      served.add(socket)
      socket.once('close', () => { served.delete(socket); release() })
    })
  }
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: http.ServerResponse })._httpMessage
    if (!socket.writable || (inFlight !== undefined && inFlight.headersSent)) { socket.destroy(); return }
    const [status, message] = err.code === 'HPE_HEADER_OVERFLOW' ? ['431 Headers too large', 'request head is too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? ['408 Request Timeout', `request not received in time [headers=${headersTimeout}ms, request=${requestTimeout}ms]`]
      : ['400 Bad request', 'malformed request']
    const body = `{"query":"","error":${JSON.stringify(message)},"position":0}`
    socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
    // half-closed, a client that keeps sending would hold the socket: close it after a grace
    setTimeout(() => socket.destroy(), REFUSED_GRACE_MS).unref()
  })
  return server
}

function nonNegative(name: string, v: number): number {
  if (!Number.isFinite(v) || v < 0) throw new Error(`${name} must be a non-negative number of milliseconds or connections, got ${v}`)
  return v
}
