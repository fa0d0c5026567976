/**
 * EpochDB's servers for the benchmarks, in a child process so the server has its own event
 * loop: `node --import tsx test/bench/tsbs/server-child.ts [data dir] [--tsbs hosts,days]`
 * (no directory: in memory). Serves pgwire and REST (/exec, statements up to 4 MB) on ephemeral
 * loopback ports, prints `{"pgwire":N,"http":M}` as its first stdout line; SIGTERM closes.
 * With `--tsbs hosts,days` it first loads the TSBS cpu-only rows of that shape into table `cpu`
 * (the `--wire` engine of `run.ts`).
 */
import type { AddressInfo, Server } from 'node:net'
import { Database } from '../../../lib/index.js'
import { createPgwireServer } from '../../../adapters/pgwire/index.js'
import { createHttpServer } from '../../../adapters/http/index.js'
import { loadEpoch } from './load-epoch.js'

const argv = process.argv.slice(2)
const tsbsAt = argv.indexOf('--tsbs')
const tsbs = tsbsAt < 0 ? undefined : argv.splice(tsbsAt, 2)[1]!.split(',').map(Number)
const dir = argv[0]
const db = await Database.open(dir === undefined ? {} : { path: dir })
if (tsbs !== undefined) await loadEpoch(db, { hosts: tsbs[0]!, days: tsbs[1]! })
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
