/**
 * Per-address connection limits: one client address cannot take every connection slot of REST
 * or pgwire. Over its share, pgwire answers FATAL 53300 to the startup message and REST answers
 * 503 with `Connection: close`; another address (127.0.0.2 here) is still served, and a slot
 * comes back when a connection closes. Also: the standalone server's keys and defaults.
 */
import t from 'tap'
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import pg from 'pg'
import { Database } from '../../lib/index.js'
import { createHttpServer } from '../../adapters/http/index.js'
import { createPgwireServer } from '../../adapters/pgwire/index.js'
import { loadConfig } from '../../adapters/http/server/config.js'

const db = await Database.open()
t.teardown(() => db.close())

/** A `pg` client whose socket comes from `from` (a loopback address of its own). */
function pgFrom(port: number, from: string): pg.Client {
  const stream = (): net.Socket => {
    const s = new net.Socket()
    const connect = s.connect.bind(s) as (o: net.TcpNetConnectOpts) => net.Socket
    ;(s as unknown as { connect: (port: number, host: string) => net.Socket }).connect = (p, h) => connect({ port: p, host: h, localAddress: from })
    return s
  }
  const c = new pg.Client({ host: '127.0.0.1', port, user: 'admin', password: 'quest', database: 'qdb', stream } as pg.ClientConfig)
  c.on('error', () => {})
  return c
}

t.test('pgwire: a third connection from one address is refused, others are served', async (t) => {
  const server = createPgwireServer(db, { maxConnections: 10, maxConnectionsPerAddress: 2 })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  t.teardown(() => { server.close() })
  const port = (server.address() as AddressInfo).port
  const a = pgFrom(port, '127.0.0.1')
  const b = pgFrom(port, '127.0.0.1')
  await a.connect()
  await b.connect()
  const c = pgFrom(port, '127.0.0.1')
  const err = await c.connect().then(() => undefined, (e: { code?: string; message: string }) => e)
  t.equal(err?.code, '53300', err?.message ?? 'connected')
  t.match(err?.message, /too many connections from this address \[limit=2\]/)
  const other = pgFrom(port, '127.0.0.2')
  await other.connect()
  t.same((await other.query('select 1 x')).rows, [{ x: 1 }], 'another address is served')
  await a.end()
  await new Promise((r) => setTimeout(r, 100))
  const d = pgFrom(port, '127.0.0.1')
  await d.connect()
  t.same((await d.query('select 2 x')).rows, [{ x: 2 }], 'a slot comes back when a connection closes')
  await Promise.all([b.end(), other.end(), d.end()])
})

/** GET /exec?query=select+1 on a kept-alive socket from `from`: status and body. */
function getFrom(port: number, from: string, agent: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/exec?query=select+1', localAddress: from, agent }, (res) => {
      let body = ''
      res.on('data', (c: Buffer) => { body += c.toString() })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    }).on('error', reject)
  })
}

t.test('REST: a third connection from one address gets 503, others are served', async (t) => {
  const server = createHttpServer(db, { maxConnections: 10, maxConnectionsPerAddress: 2 })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  t.teardown(() => { server.closeAllConnections(); server.close() })
  const port = (server.address() as AddressInfo).port
  // three agents with one kept-alive socket each: three connections from 127.0.0.1
  const agents = [0, 1, 2, 3].map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }))
  t.teardown(() => agents.forEach((a) => a.destroy()))
  t.equal((await getFrom(port, '127.0.0.1', agents[0]!)).status, 200)
  t.equal((await getFrom(port, '127.0.0.1', agents[1]!)).status, 200)
  const third = await getFrom(port, '127.0.0.1', agents[2]!)
  t.equal(third.status, 503)
  t.match(third.body, /too many connections from this address \[limit=2\]/)
  t.equal((await getFrom(port, '127.0.0.2', agents[3]!)).status, 200, 'another address is served')
  agents[0]!.destroy()
  await new Promise((r) => setTimeout(r, 100))
  t.equal((await getFrom(port, '127.0.0.1', new http.Agent())).status, 200, 'a slot comes back when a connection closes')
})

t.test('server keys and defaults', async (t) => {
  const d = loadConfig(undefined, {}, () => {})
  t.same([d.httpConnectionLimitPerAddress, d.pgMaxConnectionsPerAddress], [32, 32])
  const c = loadConfig('epochdb.http.net.connection.limit.per.address=4\nepochdb.pg.net.connection.limit.per.address=0\n', {}, () => {})
  t.same([c.httpConnectionLimitPerAddress, c.pgMaxConnectionsPerAddress], [4, 0])
})
