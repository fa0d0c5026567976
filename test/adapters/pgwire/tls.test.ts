/**
 * TLS on the adapter (certificate generated at test time with openssl): SSLRequest answered `S`
 * and the socket upgraded, GSSENCRequest `N`, the require-TLS mode refusing a plaintext
 * StartupMessage with one ErrorResponse 28000, and bytes pipelined behind SSLRequest refused
 * (they would otherwise be read as if they had come over TLS).
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect as netConnect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect as tlsConnect } from 'node:tls'
import { promisify } from 'node:util'
import t from 'tap'
import pg from 'pg'
import { pgConfig, startServer } from './helpers.js'
import { WireClient, serialize } from './wire-client.js'

const dir = mkdtempSync(join(tmpdir(), 'epochdb-tls-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
await promisify(execFile)('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1',
  '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { timeout: 30_000 })
const tls = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }

const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f])
const GSSENC_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x30])

/** Sends `b` and resolves with the next bytes received (or empty when the socket closes). */
function ask(s: Socket, b: Buffer): Promise<Buffer> {
  return new Promise((resolve) => {
    const done = (d: Buffer): void => { s.off('data', done); s.off('close', closed); resolve(d) }
    const closed = (): void => done(Buffer.alloc(0))
    s.on('data', done)
    s.on('close', closed)
    s.write(b)
  })
}

t.test('required TLS: a plaintext StartupMessage gets one ErrorResponse 28000 and the connection closes', async (t) => {
  const srv = await startServer({ tls })
  t.teardown(() => srv.close())
  const c = await WireClient.open(srv.port)
  c.send(serialize.startup({ user: 'admin', database: 'qdb' }))
  t.ok(await c.closedByServer(), 'closed by the server')
  t.same(c.messages.map((m) => m.name), ['error'], 'nothing but the error')
  t.match(c.messages[0], { code: '28000', message: 'SSL connection is required', severity: 'FATAL' })
  const e = await new pg.Client(pgConfig(srv.port)).connect().catch((x: unknown) => x) as { code: string }
  t.equal(e.code, '28000', 'pg without ssl')
  const ok = new pg.Client({ ...pgConfig(srv.port), ssl: { rejectUnauthorized: false } })
  await ok.connect()
  t.same((await ok.query('select 1 as x')).rows, [{ x: 1 }], 'pg with ssl')
  await ok.end()
})

t.test('GSSENCRequest N, then SSLRequest S and a TLS handshake; SSLRequest again inside TLS is refused', async (t) => {
  const srv = await startServer({ tls })
  t.teardown(() => srv.close())
  const raw = netConnect(srv.port, '127.0.0.1')
  await new Promise((r) => raw.once('connect', r))
  t.equal((await ask(raw, GSSENC_REQUEST)).toString(), 'N')
  t.equal((await ask(raw, SSL_REQUEST)).toString(), 'S')
  const s = tlsConnect({ socket: raw, rejectUnauthorized: false })
  await new Promise((r) => s.once('secureConnect', r))
  t.ok(s.encrypted)
  const auth = await ask(s, serialize.startup({ user: 'admin', database: 'qdb' }))
  t.equal(auth[0], 0x52, 'AuthenticationRequest over TLS')
  s.destroy()
  const again = netConnect(srv.port, '127.0.0.1')
  await new Promise((r) => again.once('connect', r))
  await ask(again, SSL_REQUEST)
  const s2 = tlsConnect({ socket: again, rejectUnauthorized: false })
  await new Promise((r) => s2.once('secureConnect', r))
  const reply = await ask(s2, SSL_REQUEST)
  t.equal(reply[0], 0x45, 'an ErrorResponse, not a second upgrade')
  t.match(reply.toString('latin1'), /08P01/)
  s2.destroy()
})

t.test('bytes pipelined behind SSLRequest are refused with 08P01 in plaintext', async (t) => {
  const srv = await startServer({ tls })
  t.teardown(() => srv.close())
  const c = await WireClient.open(srv.port)
  c.send(Buffer.concat([SSL_REQUEST, serialize.startup({ user: 'admin', database: 'qdb' })]))
  t.ok(await c.closedByServer())
  t.match(c.messages, [{ name: 'error', code: '08P01', message: 'received unencrypted data after SSL request' }])
})

t.test('tlsRequired false: plaintext and TLS logins both work; without tls, SSLRequest gets N', async (t) => {
  const both = await startServer({ tls, tlsRequired: false })
  t.teardown(() => both.close())
  for (const ssl of [false, true]) {
    const c = new pg.Client({ ...pgConfig(both.port), ...(ssl ? { ssl: { rejectUnauthorized: false } } : {}) })
    await c.connect()
    t.same((await c.query('select 1 as x')).rows, [{ x: 1 }], `ssl=${ssl}`)
    await c.end()
  }
  const plain = await startServer()
  t.teardown(() => plain.close())
  const raw = netConnect(plain.port, '127.0.0.1')
  await new Promise((r) => raw.once('connect', r))
  t.equal((await ask(raw, SSL_REQUEST)).toString(), 'N')
  raw.destroy()
})
