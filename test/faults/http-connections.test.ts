/**
 * Connection exhaustion and slow clients against the REST server: idle sockets beyond
 * `http.net.connection.limit` are refused with a 503 JSON error (and the server recovers when
 * they leave), slowloris heads and trickled uploads are cut by their timeouts, idle keep-alive
 * and silent connections are closed. Limits and timeouts are small so each attack is cheap.
 */
import net from 'node:net'
import t, { type Test } from 'tap'
import { type TestServer, exec, startServer } from '../adapters/http/helpers.js'
import type { HttpServerOptions } from '../../adapters/http/index.js'

async function server(t: Test, options: HttpServerOptions): Promise<TestServer> {
  const s = await startServer(options)
  t.teardown(() => s.close())
  return s
}

/** Resolves when `cond` holds, polling; rejects after `ms` (a bound, not a timing assertion). */
async function until(cond: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not reached in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}

function connections(s: TestServer): Promise<number> {
  return new Promise((resolve, reject) => s.server.getConnections((e, n) => (e ? reject(e) : resolve(n))))
}

/** A raw client: what it received and whether/when the server closed it. */
interface RawClient {
  readonly socket: net.Socket
  data(): string
  readonly closed: Promise<number>
}

function connect(port: number): Promise<RawClient> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    const t0 = Date.now()
    let data = ''
    socket.on('data', (c: Buffer) => { data += c.toString('latin1') })
    socket.on('error', () => {})
    const closed = new Promise<number>((r) => socket.on('close', () => r(Date.now() - t0)))
    socket.on('connect', () => resolve({ socket, data: () => data, closed }))
  })
}

/**
 * `p`, or `fallback` when it has not settled within `ms`. The guard's timer is cleared as soon as
 * the race is decided: a pending timer keeps the process alive, and this file's guards (up to
 * 10 s) would otherwise hold the test process open after its last assertion.
 */
function within<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const guard = new Promise<T>((r) => { timer = setTimeout(() => r(fallback), ms) })
  return Promise.race([p, guard]).finally(() => clearTimeout(timer))
}

/** Writes `text` a few bytes at a time every `everyMs` until the socket closes. */
function trickle(c: RawClient, text: string, bytes: number, everyMs: number): void {
  let at = 0
  const timer = setInterval(() => {
    if (c.socket.destroyed || at >= text.length) { clearInterval(timer); return }
    c.socket.write(text.slice(at, at + bytes))
    at += bytes
  }, everyMs)
  void c.closed.then(() => clearInterval(timer))
}

t.test('idle sockets beyond the limit: the extra one gets 503, and the server recovers when they leave', async (t) => {
  const s = await server(t, { maxConnections: 4 })
  const idle = await Promise.all([0, 1, 2, 3].map(() => connect(s.port)))
  await until(async () => (await connections(s)) === 4)
  const extra = await exec(s.port, 'select 1')
  t.equal(extra.status, 503, 'the fifth connection is refused')
  t.equal(extra.headers.connection, 'close')
  t.match(JSON.parse(extra.body), { query: '', error: /too many connections \[limit=4\]/, position: 0 })
  for (const c of idle) c.socket.destroy()
  await until(async () => (await connections(s)) === 0)
  t.equal((await exec(s.port, 'select 1')).status, 200, 'a normal request works once they have closed')
})

t.test('beyond twice the limit a connection is closed at once; a silent one over the limit is dropped soon', async (t) => {
  const s = await server(t, { maxConnections: 2 })
  const held = await Promise.all([0, 1, 2, 3].map(() => connect(s.port)))
  const dropped = await connect(s.port)
  t.ok(await within(dropped.closed.then(() => true), 3000, false), 'the fifth socket is closed without waiting')
  t.equal(dropped.data(), '', 'with nothing sent')
  const silent = await within(held[3]!.closed.then(() => true), 5000, false)
  t.ok(silent, 'a refused socket that sends no request is closed within the grace period')
  for (const c of held) c.socket.destroy()
})

t.test('slowloris: a head sent one byte per 500 ms is cut by the header timeout with a 408', async (t) => {
  const s = await server(t, { headersTimeout: 1500 })
  const c = await connect(s.port)
  trickle(c, 'GET /exec?query=select+1 HTTP/1.1\r\nHost: localhost\r\nX-Slow: ' + 'a'.repeat(200), 1, 500)
  await new Promise((r) => setTimeout(r, 300))
  t.equal((await exec(s.port, 'select 1')).status, 200, 'others are served meanwhile')
  const ms = await within(c.closed, 8000, -1)
  t.ok(ms > 0, `the connection was closed (after ${ms} ms, header timeout 1500 ms)`)
  t.match(c.data(), /^HTTP\/1\.1 408 .*\r\n[\s\S]*"error":"request not received in time/, '408 with a JSON error')
  c.socket.destroy()
})

t.test('a connection that never sends a byte is closed by the header timeout', async (t) => {
  const s = await server(t, { headersTimeout: 1000 })
  const c = await connect(s.port)
  const ms = await within(c.closed, 6000, -1)
  t.ok(ms > 0, `closed after ${ms} ms`)
  c.socket.destroy()
})

t.test('an idle keep-alive connection is closed after the keep-alive timeout', async (t) => {
  const s = await server(t, { keepAliveTimeout: 500 })
  const c = await connect(s.port)
  c.socket.write('GET /exec?query=select+1 HTTP/1.1\r\nHost: localhost\r\n\r\n')
  const ms = await within(c.closed, 5000, -1)
  t.ok(ms > 0, `closed after ${ms} ms`)
  t.match(c.data(), /^HTTP\/1\.1 200 /, 'after its answer')
})

const BOUNDARY = 'xyzzy'
function slowUpload(port: number): Promise<RawClient> {
  return connect(port).then((c) => {
    const head = `POST /imp?name=slow HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: 1000000\r\n\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="data"; filename="slow.csv"\r\n\r\nx\r\n`
    c.socket.write(head)
    trickle(c, '1\r\n'.repeat(100_000), 30, 200)
    return c
  })
}

t.test('a slow /imp upload is bounded by the request timeout (408)', async (t) => {
  const s = await server(t, { requestTimeout: 2000 })
  const c = await slowUpload(s.port)
  await new Promise((r) => setTimeout(r, 300))
  t.equal((await exec(s.port, 'select 1')).status, 200, 'others are served meanwhile')
  const ms = await within(c.closed, 10_000, -1)
  t.ok(ms > 0, `the upload was cut (after ${ms} ms, request timeout 2000 ms)`)
  t.match(c.data(), /^HTTP\/1\.1 408 /)
  await until(async () => (await connections(s)) <= 1)
})

t.test('a stalled upload is closed by the idle timeout', async (t) => {
  const s = await server(t, { idleTimeout: 1000, requestTimeout: 0 })
  const c = await connect(s.port)
  c.socket.write(`POST /imp?name=stalled HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: 1000\r\n\r\n--${BOUNDARY}\r\n`)
  const ms = await within(c.closed, 6000, -1)
  t.ok(ms > 0, `closed after ${ms} ms`)
})
