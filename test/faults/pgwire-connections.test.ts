/**
 * Connection lifecycle under abuse: the connection limit refuses the next client with FATAL 53300
 * "sorry, too many clients already" (node `pg` and psql see it) and recovers when a client leaves;
 * a flood beyond twice the limit is dropped; idle logged-in connections and sockets that never
 * finish logging in are closed after their (short, configured) timeouts, while a running
 * statement and a client that keeps working are not cut. Another client is served throughout.
 */
import { spawn } from 'node:child_process'
import { connect, type Socket } from 'node:net'
import t from 'tap'
import pg from 'pg'
import type { DatabaseError as ErrorMessage } from 'pg-protocol/dist/messages.js'
import { pgConfig, startServer } from '../adapters/pgwire/helpers.js'
import { WireClient, serialize } from '../adapters/pgwire/wire-client.js'

t.setTimeout(90_000)

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
/**
 * `p`, or `fallback` when it has not settled within `ms`; the guard's timer is cleared once the
 * race is decided (a pending timer would keep the test process alive after its last assertion).
 */
function within<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const guard = new Promise<T>((r) => { timer = setTimeout(() => r(fallback), ms) })
  return Promise.race([p, guard]).finally(() => clearTimeout(timer))
}

/** psql -c `sql`: exit code and output. */
function psql(port: number, sql: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'admin', '-d', 'qdb', '-X', '-A', '-t', '-c', sql],
      { env: { ...process.env, PGPASSWORD: 'quest', PGCONNECT_TIMEOUT: '10' } })
    let out = ''
    p.stdout.on('data', (d: Buffer) => { out += d.toString() })
    p.stderr.on('data', (d: Buffer) => { out += d.toString() })
    p.on('close', (code) => resolve({ code, out }))
  })
}

t.test('the connection limit: 53300 for the next client, recovery when one leaves', async (t) => {
  const srv = await startServer({ maxConnections: 3 })
  t.teardown(() => srv.close())
  const clients: pg.Client[] = []
  for (let i = 0; i < 3; i++) {
    const c = new pg.Client(pgConfig(srv.port))
    await c.connect()
    clients.push(c)
  }
  const extra = new pg.Client(pgConfig(srv.port))
  await t.rejects(extra.connect(), { code: '53300', message: 'sorry, too many clients already' }, 'node pg is refused')
  const p = await psql(srv.port, 'select 1')
  t.not(p.code, 0)
  t.match(p.out, /sorry, too many clients already/, 'psql shows why')
  // the clients already in are not disturbed
  t.same((await clients[0]!.query('select 1 as x')).rows, [{ x: 1 }])
  await clients.pop()!.end()
  // recovery: the slot is free again once the server saw the client go
  let back: pg.Client | undefined
  for (let i = 0; i < 50 && back === undefined; i++) {
    const c = new pg.Client(pgConfig(srv.port))
    try { await c.connect(); back = c } catch { await sleep(20) }
  }
  t.ok(back !== undefined, 'a new client gets in after one left')
  t.same((await back!.query('select 2 as x')).rows, [{ x: 2 }])
  t.equal((await psql(srv.port, 'select 3')).out.includes('too many'), true, 'full again')
  await back!.end()
  t.equal((await psql(srv.port, 'select 3')).out.trim(), '3', 'psql gets in too')
  for (const c of clients) await c.end()
})

t.test('a flood of raw sockets: at most twice the limit is kept, the rest dropped; all recover', async (t) => {
  const srv = await startServer({ maxConnections: 4, startupTimeoutMs: 5000 })
  t.teardown(() => srv.close())
  const bystander = new pg.Client(pgConfig(srv.port))
  await bystander.connect()
  const sockets: Socket[] = []
  let closedEarly = 0
  await Promise.all(Array.from({ length: 40 }, () => new Promise<void>((resolve) => {
    const s = connect(srv.port, '127.0.0.1', () => resolve())
    s.on('error', () => resolve())
    s.on('close', () => { closedEarly++ })
    sockets.push(s)
  })))
  // the refused sockets close as the server gets to them: wait for that (polling), bounded well
  // inside the 5 s startup timeout so a socket dropped by that timeout does not count
  const dropDeadline = Date.now() + 2000
  while (closedEarly < 40 - 2 * 4 + 1 && Date.now() < dropDeadline) await sleep(10)
  t.ok(closedEarly >= 40 - 2 * 4 + 1, `sockets beyond twice the limit were dropped (${closedEarly} of 40)`)
  t.same((await bystander.query('select 1 as x')).rows, [{ x: 1 }], 'the logged-in client is served during the flood')
  for (const s of sockets) s.destroy()
  await bystander.end()
  let ok = false
  for (let i = 0; i < 50 && !ok; i++) {
    const c = new pg.Client(pgConfig(srv.port))
    try { await c.connect(); ok = (await c.query('select 1 as x')).rows[0].x === 1; await c.end() } catch { await sleep(20) }
  }
  t.ok(ok, 'clients get in once the flood is gone')
})

t.test('over the limit, a CancelRequest is still served', async (t) => {
  const srv = await startServer({ maxConnections: 1 })
  t.teardown(() => srv.close())
  const c = await WireClient.open(srv.port)
  c.send(serialize.startup({ user: 'admin', database: 'qdb' }))
  await c.until('authenticationCleartextPassword')
  c.send(serialize.password('quest'))
  const k = await c.until('backendKeyData') as unknown as { processID: number; secretKey: number }
  await c.until('readyForQuery')
  c.messages.length = 0
  c.send(serialize.query('select count() from long_sequence(500000000)'))
  await sleep(100)
  const cancel = connect(srv.port, '127.0.0.1')
  await new Promise<void>((r) => cancel.once('connect', () => r()))
  const b = Buffer.alloc(16)
  b.writeInt32BE(16, 0); b.writeInt32BE(80877102, 4); b.writeInt32BE(k.processID, 8); b.writeInt32BE(k.secretKey, 12)
  cancel.write(b)
  const e = await c.until('error', 20_000) as ErrorMessage
  t.equal(e.code, '57014', 'the running statement was cancelled from a connection over the limit')
  cancel.destroy()
  c.end()
})

t.test('idle timeout: an idle logged-in connection is closed with 57P05, a busy one is not', async (t) => {
  const srv = await startServer({ idleTimeoutMs: 300 })
  t.teardown(() => srv.close())
  // node pg: the idle client sees the server's FATAL
  const idle = new pg.Client(pgConfig(srv.port))
  const err = new Promise<Error & { code?: string }>((resolve) => idle.on('error', resolve))
  await idle.connect()
  const e = await within<(Error & { code?: string }) | undefined>(err, 5000, undefined)
  t.equal(e?.code, '57P05', 'closed with 57P05 after the idle timeout')
  // raw: the ErrorResponse, then the close
  const raw = await WireClient.login(srv.port)
  const f = await raw.until('error', 5000) as ErrorMessage
  t.equal(f.code, '57P05')
  t.equal(f.severity, 'FATAL')
  t.ok(await raw.closedByServer(5000))
  // a client that keeps working is never idle, and a statement running past the timeout is not cut
  const busy = new pg.Client(pgConfig(srv.port))
  let busyErr: unknown
  busy.on('error', (x) => { busyErr = x })
  await busy.connect()
  for (let i = 0; i < 8; i++) { await busy.query('select 1'); await sleep(100) }
  const r = await busy.query('select count() c from long_sequence(3000000) where x % 7 = 0')
  t.equal(Number(r.rows[0].c), 428571, 'a long statement finishes')
  t.equal(busyErr, undefined)
  await busy.end()
})

t.test('idle timeout: a client that stops reading its results is closed', async (t) => {
  const srv = await startServer({ idleTimeoutMs: 300 })
  t.teardown(() => srv.close())
  const c = await WireClient.login(srv.port)
  c.socket.pause() // never reads again: the server's output fills up and waits for drain
  c.send(serialize.query("select x, 'some padding to make rows longer' s from long_sequence(3000000)"))
  const deadline = Date.now() + 10_000
  while (srv.server.listening && Date.now() < deadline) {
    const n = await new Promise<number>((r) => srv.server.getConnections((_, k) => r(k)))
    if (n === 0) break
    await sleep(100)
  }
  const n = await new Promise<number>((r) => srv.server.getConnections((_, k) => r(k)))
  t.equal(n, 0, 'the server closed the stalled connection')
  c.end()
})

t.test('login timeout: silent, half-startup and no-password sockets are closed; others are served', async (t) => {
  const srv = await startServer({ startupTimeoutMs: 300 })
  t.teardown(() => srv.close())
  const bystander = new pg.Client(pgConfig(srv.port))
  await bystander.connect()
  const silent = await WireClient.open(srv.port)
  const half = await WireClient.open(srv.port)
  half.send(serialize.startup({ user: 'admin', database: 'qdb' }).subarray(0, 10))
  const noPassword = await WireClient.open(srv.port)
  noPassword.send(serialize.startup({ user: 'admin', database: 'qdb' }))
  await noPassword.until('authenticationCleartextPassword')
  t.same((await bystander.query('select 1 as x')).rows, [{ x: 1 }])
  t.ok(await silent.closedByServer(5000), 'a socket that sends nothing')
  t.ok(await half.closedByServer(5000), 'a socket that sends half a startup packet')
  t.ok(await noPassword.closedByServer(5000), 'a client that never sends its password')
  const e = noPassword.messages.find((m) => m.name === 'error') as ErrorMessage | undefined
  t.equal(e?.code, '08006')
  t.match(e?.message, /authentication due to timeout/)
  t.same((await bystander.query('select 2 as x')).rows, [{ x: 2 }], 'the logged-in client is not cut by the login timeout')
  await bystander.end()
})
