// A large result keeps being produced while the client reads the previous output: the server
// queues up to about a megabyte ahead of the socket (WRITE_AHEAD) rather than stopping at every
// 256 KB flush until the socket empties, and no more than that when the client stops reading.
import t from 'tap'
import type { Socket } from 'node:net'
import { startServer } from './helpers.js'
import { WireClient, serialize } from './wire-client.js'

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

t.test('a client that stops reading: the server runs ahead a bounded amount, then waits', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  let serverSide: Socket | undefined
  srv.server.on('connection', (s: Socket) => { serverSide = s })
  const c = await WireClient.login(srv.port)
  c.socket.pause()
  c.send(serialize.query("select x, 'some padding to make rows longer' s from long_sequence(5000000)"))
  // wait until the server's queue stops growing
  let last = -1
  let stable = 0
  const deadline = Date.now() + 30_000
  while (stable < 5 && Date.now() < deadline) {
    await sleep(100)
    const n = serverSide?.writableLength ?? 0
    if (n > 0 && n === last) stable++
    else stable = 0
    last = n
  }
  t.ok(last > 700 * 1024, `queued ${last} bytes: more than one flush (256 KB and the rows past it) ahead`)
  t.ok(last <= 1024 * 1024 + 512 * 1024 + 64 * 1024, `queued ${last} bytes: bounded`)
  c.end()
})
