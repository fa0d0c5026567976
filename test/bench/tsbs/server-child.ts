/**
 * EpochDB's servers for the INSERT-batch benchmark (`inserts.ts`), in a child process so the
 * server has its own event loop: `node --import tsx test/bench/tsbs/server-child.ts [data dir]`
 * (no directory: in memory). Serves pgwire and REST (/exec, statements up to 4 MB) on ephemeral
 * loopback ports, prints `{"pgwire":N,"http":M}` as its first stdout line; SIGTERM closes.
 */
import type { AddressInfo, Server } from 'node:net'
import { Database } from '../../../lib/index.js'
import { createPgwireServer } from '../../../adapters/pgwire/index.js'
import { createHttpServer } from '../../../adapters/http/index.js'

const dir = process.argv[2]
const db = await Database.open(dir === undefined ? {} : { path: dir })
const pgwire = createPgwireServer(db) as unknown as Server
const http = createHttpServer(db, { maxQueryLength: 4 * 2 ** 20 })
await new Promise<void>((resolve) => pgwire.listen(0, '127.0.0.1', resolve))
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
process.stdout.write(JSON.stringify({ pgwire: (pgwire.address() as AddressInfo).port, http: (http.address() as AddressInfo).port }) + '\n')
const stop = async (): Promise<void> => {
  http.closeAllConnections()
  await new Promise<void>((resolve) => http.close(() => resolve()))
  pgwire.close()
  await db.close()
  process.exit(0)
}
process.on('SIGTERM', () => void stop())
process.on('SIGINT', () => void stop())
