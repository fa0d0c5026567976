/**
 * The EpochDB side of the pgwire benchmark, run as a child process of `test/bench/pgwire.ts` so
 * that the server has an event loop (and a process RSS) of its own:
 * `node --import tsx test/bench/pgwire-server.ts <data dir>`.
 *
 * Opens a durable database in the data directory, serves the PostgreSQL wire protocol on an
 * ephemeral loopback port (user admin / quest, database qdb) and prints `{"port":N}` as its
 * first stdout line. SIGTERM or SIGINT closes the connections and the database, then exits.
 */
import type { AddressInfo, Socket } from 'node:net'
import { Database } from '../../lib/index.js'
import { createPgwireServer } from '../../adapters/pgwire/index.js'

const dir = process.argv[2]
if (dir === undefined) {
  console.error('usage: pgwire-server.ts <data dir>')
  process.exit(2)
}
const db = await Database.open({ path: dir })
const server = createPgwireServer(db)
const sockets = new Set<Socket>()
server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)) })
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port }) + '\n')

let stopping = false
async function stop(): Promise<void> {
  if (stopping) return
  stopping = true
  for (const s of sockets) s.destroy()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await db.close()
  process.exit(0)
}
process.on('SIGTERM', () => void stop())
process.on('SIGINT', () => void stop())
