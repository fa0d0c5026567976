/**
 * Test helpers: a database with a small table of every type, and a pgwire server on an
 * ephemeral loopback port that the test closes at the end.
 */
import type { AddressInfo, Server, Socket } from 'node:net'
import pg from 'pg'
import { Database } from '../../../lib/index.js'
import { createPgwireServer } from '../../../adapters/pgwire/index.js'
import type { PgwireOptions } from '../../../adapters/pgwire/index.js'

/** A running server. */
export interface TestServer {
  readonly db: Database
  readonly server: Server
  readonly port: number
  close(): Promise<void>
}

/** The `t` table: one row of every type, one row of nulls. */
export async function seed(db: Database): Promise<void> {
  await db.query('create table t (ts timestamp, sym symbol, v double, i int, l long, b boolean, s string, d date, u uuid, c char, ip ipv4, f float, sh short) timestamp(ts)')
  await db.query("insert into t values ('2024-01-01T00:00:00.000001Z', 'a', 1.5, 3, 9007199254740993, true, 'héllo', '2024-01-02', '11111111-2222-3333-4444-555555555555', 'x', '1.2.3.4', 2.5, 7)")
  await db.query("insert into t (ts) values ('2024-01-03T00:00:00Z')")
}

/** Starts a server on 127.0.0.1 port 0 over a fresh seeded database. */
export async function startServer(options: PgwireOptions = {}, db?: Database): Promise<TestServer> {
  const database = db ?? await Database.open()
  if (db === undefined) await seed(database)
  const server = createPgwireServer(database, options)
  const sockets = new Set<Socket>()
  server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)) })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    db: database, server, port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve())
      for (const s of sockets) s.destroy()
    }),
  }
}

/** Connection settings for node `pg`. */
export function pgConfig(port: number): { host: string; port: number; user: string; password: string; database: string } {
  return { host: '127.0.0.1', port, user: 'admin', password: 'quest', database: 'qdb' }
}

/** What one login-and-statement attempt ended in: the rows, or the error's code, message and severity. */
export interface Attempt {
  readonly rows?: unknown[][]
  readonly code?: string
  readonly message?: string
  readonly severity?: string
}

/** Connects with `pg` as `user`, runs `sql` (rows as arrays), and disconnects; never throws. */
export async function attempt(port: number, user: string, password: string, sql = 'select current_user()'): Promise<Attempt> {
  const c = new pg.Client({ host: '127.0.0.1', port, user, password, database: 'qdb', connectionTimeoutMillis: 10_000 })
  c.on('error', () => undefined)
  try {
    await c.connect()
    const r = await c.query({ text: sql, rowMode: 'array' })
    return { rows: r.rows as unknown[][] }
  } catch (e) {
    const err = e as { code?: string; message: string; severity?: string }
    return { code: err.code, message: err.message, severity: err.severity }
  } finally {
    await c.end().catch(() => undefined)
  }
}
