/**
 * Bad input: random and mutated protocol messages (seeded, so failures reproduce), startup
 * garbage, oversized messages, silent connections (timed out) and connect/disconnect storms.
 * Afterwards a normal client must still be served and no connection may be left registered.
 */
import t from 'tap'
import { readdirSync } from 'node:fs'
import { connect } from 'node:net'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import pg from 'pg'
import { createPgwireHandler } from '../../../adapters/pgwire/index.js'
import { pgConfig, startServer } from './helpers.js'
import { WireClient, serialize } from './wire-client.js'

const srv = await startServer({ startupTimeoutMs: 300, maxMessageSize: 1024 * 1024 })

/** xorshift32, seeded */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1
  return () => {
    x ^= x << 13; x >>>= 0
    x ^= x >>> 17
    x ^= x << 5; x >>>= 0
    return x / 0x100000000
  }
}

const VALID: Buffer[] = [
  serialize.query('select 1'),
  serialize.parse({ name: 'a', text: 'select $1', types: [23] }),
  serialize.bind({ statement: 'a', values: ['1'] }),
  serialize.describe({ type: 'P' }),
  serialize.execute({ rows: 1 }),
  serialize.close({ type: 'S', name: 'a' }),
  serialize.sync(),
  serialize.flush(),
]

/** Sends `payload` after logging in and waits until the server answers or closes. */
async function fire(payload: Buffer): Promise<void> {
  const c = await WireClient.login(srv.port)
  c.send(payload)
  c.send(serialize.sync())
  await Promise.race([c.until('readyForQuery', 500).catch(() => undefined), c.closedByServer(500)])
  c.end()
}

async function normalClientWorks(t: { same: (a: unknown, b: unknown) => unknown }): Promise<void> {
  const client = new pg.Client(pgConfig(srv.port))
  await client.connect()
  t.same((await client.query('select i from t where i = $1', [3])).rows, [{ i: 3 }])
  await client.end()
}

t.test('random and mutated messages after login', async (t) => {
  const r = rng(20240101)
  const payloads: Buffer[] = []
  for (let n = 0; n < 200; n++) {
    let payload: Buffer
    if (n % 3 === 0) {
      payload = Buffer.from(Array.from({ length: 1 + Math.floor(r() * 64) }, () => Math.floor(r() * 256)))
    } else {
      payload = Buffer.from(VALID[Math.floor(r() * VALID.length)]!)
      const flips = 1 + Math.floor(r() * 4)
      for (let k = 0; k < flips; k++) payload[Math.floor(r() * payload.length)] = Math.floor(r() * 256)
      if (r() < 0.3) payload = payload.subarray(0, Math.floor(r() * payload.length))
    }
    payloads.push(payload)
  }
  for (let n = 0; n < payloads.length; n += 25) await Promise.all(payloads.slice(n, n + 25).map(fire))
  await normalClientWorks(t)
})

t.test('startup garbage, truncated startup, oversized message', async (t) => {
  for (const junk of [Buffer.from('GET / HTTP/1.1\r\n\r\n'), Buffer.from([0, 0, 0, 8, 0, 0, 0, 0]), Buffer.from([0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4]), Buffer.from([0, 0, 0, 9, 0, 3, 0, 0, 0x41])]) {
    const c = await WireClient.open(srv.port)
    c.send(junk)
    t.ok(await c.closedByServer(3000), `closed after ${junk.toString('hex')}`)
  }
  const big = await WireClient.login(srv.port)
  const header = Buffer.from([0x51, 0x7f, 0, 0, 0]) // Query of ~2 GiB announced
  big.send(header)
  const e = await big.until('error')
  t.equal((e as unknown as { code: string }).code, '54000')
  t.ok(await big.closedByServer())
  await normalClientWorks(t)
})

t.test('silent connections time out', async (t) => {
  const c = await WireClient.open(srv.port)
  t.ok(await c.closedByServer(3000))
})

/** Open file descriptors of this process (the server's sockets among them). */
function openFds(): number {
  return readdirSync('/proc/self/fd').length
}

/** Heap in use after a full collection. */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc')
  ;(runInNewContext('gc') as () => void)()
  return process.memoryUsage().heapUsed
}

t.test('connect/disconnect storm leaves nothing registered, and file descriptors and heap flat', async (t) => {
  const handler = createPgwireHandler(srv.db)
  srv.server.removeAllListeners('connection')
  srv.server.on('connection', handler)
  const storm = async (cycles: number): Promise<void> => {
    for (let n = 0; n < cycles; n++) {
      const s = connect(srv.port, '127.0.0.1')
      await new Promise<void>((resolve) => { s.once('connect', resolve); s.once('error', () => resolve()) })
      if (n % 3 === 0) s.write(serialize.startup({ user: 'admin' }))
      else if (n % 3 === 1) s.write(Buffer.from('GET / HTTP/1.1\r\n\r\n'))
      s.destroy()
    }
    for (let n = 0; n < 100 && handler.connections() > 0; n++) await new Promise((r) => setTimeout(r, 20))
  }
  await storm(200) // warm up: first-use allocations are not a leak
  const fds = openFds()
  const heap = heapAfterGc()
  await storm(2000)
  t.equal(handler.connections(), 0, 'no connection left registered after 2,000 cycles')
  t.ok(openFds() <= fds + 2, `file descriptors flat: ${fds} before, ${openFds()} after`)
  const grown = heapAfterGc() - heap
  t.ok(grown < 4 * 2 ** 20, `heap flat: grew ${(grown / 2 ** 20).toFixed(2)} MB over 2,000 cycles`)
  const c = new pg.Client(pgConfig(srv.port))
  for (let n = 0; n < 20; n++) {
    const k = new pg.Client(pgConfig(srv.port))
    await k.connect()
    await k.end()
  }
  await c.connect()
  t.equal(handler.connections(), 1)
  await c.end()
  for (let n = 0; n < 50 && handler.connections() > 0; n++) await new Promise((r) => setTimeout(r, 20))
  t.equal(handler.connections(), 0)
})

t.test('close', async () => {
  await srv.close()
})
