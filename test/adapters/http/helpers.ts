/**
 * Test helpers: a REST server on 127.0.0.1 with an ephemeral port, a GET client that returns
 * the exact body, and a raw-socket client for byte-level requests.
 */
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { Database } from '../../../lib/index.js'
import { createHttpServer, type HttpServerOptions } from '../../../adapters/http/index.js'

/** A running test server. */
export interface TestServer {
  readonly db: Database
  readonly port: number
  readonly server: http.Server
  close(): Promise<void>
}

/** Starts a server for `db` (a fresh in-memory one by default) on an ephemeral loopback port. */
export async function startServer(options: HttpServerOptions = {}, db?: Database): Promise<TestServer> {
  const database = db ?? (await Database.open())
  const server = createHttpServer(database, options)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    db: database, port, server,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}

/** A response with its body as text. */
export interface Reply {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  readonly body: string
}

/** GETs `path` (already encoded, or encoded here with encodeURI when `encode`). */
export function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET', body?: string | Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** An HTTP Basic `Authorization` header value. */
export function basicAuth(user: string, password: string): string {
  return 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64')
}

/**
 * GET /exec?query=select+1 with `auth` (an `Authorization` value, or none), from `localAddress`,
 * on a fresh connection: what the login-attack tests send.
 */
export function selectOneFrom(port: number, auth: string | undefined, localAddress = '127.0.0.1'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = auth === undefined ? {} : { Authorization: auth }
    const req = http.request({ host: '127.0.0.1', port, path: '/exec?query=select+1', headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** `/exec?query=...` with the query URL-encoded and extra raw parameters appended. */
export function exec(port: number, query: string, extra = ''): Promise<Reply> {
  return get(port, `/exec?query=${encodeURIComponent(query)}${extra}`)
}

/** Sends raw bytes on a fresh socket and resolves with everything received until the server closes (or `ms` pass). */
export function raw(port: number, bytes: string | Buffer, ms = 2000): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    const timer = setTimeout(() => s.destroy(), ms)
    s.on('data', (c: Buffer) => chunks.push(c))
    s.on('error', () => {})
    s.on('close', () => { clearTimeout(timer); resolve(Buffer.concat(chunks).toString('latin1')) })
    s.end(bytes)
  })
}
