/**
 * The server side of the access-control benchmark (`test/bench/acl-pgbench.ts`), a child process:
 * `node --import tsx test/bench/acl-pgbench-server.ts off|on`. An in-memory database with table `t`
 * (one row) served over pgwire on an ephemeral loopback port; with `on`, access control is on and
 * user `bench` (password `bench`) holds PGWIRE and SELECT ON ALL TABLES, logging in through the
 * engine's users. Prints `{"port":N}` first; then a line `cpu` on stdin answers `{"cpuUs":N}`, the
 * process's CPU time so far (user + system, µs); SIGTERM ends it.
 */
import { createInterface } from 'node:readline'
import type { AddressInfo, Socket } from 'node:net'
import { Database } from '../../lib/index.js'
import { createPgwireServer } from '../../adapters/pgwire/index.js'

const on = process.argv[2] === 'on'
const db = await Database.open(on ? { acl: { enabled: true } } : {})
await db.query('create table t (ts timestamp, sym symbol, v double) timestamp(ts) partition by day')
await db.query("insert into t values ('2024-01-01', 'a', 1.5)")
if (on) {
  await db.query("create user bench with password 'bench'")
  await db.query('grant pgwire to bench')
  await db.query('grant select on all tables to bench')
}
const server = createPgwireServer(db, on ? { authenticate: (c) => db.authenticate(c.user, c.password) } : {})
const sockets = new Set<Socket>()
server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)) })
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port }) + '\n')
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() !== 'cpu') return
  const u = process.cpuUsage()
  process.stdout.write(JSON.stringify({ cpuUs: u.user + u.system }) + '\n')
})
process.on('SIGTERM', () => {
  for (const s of sockets) s.destroy()
  server.close(() => void db.close().then(() => process.exit(0)))
})
