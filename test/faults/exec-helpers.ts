/**
 * Shared pieces of the execution fault tests: one in-process server with REST and pgwire over
 * one database, a `pg` client factory, and the attacks, sized so that a build whose operators do
 * not yield blocks for seconds (the test then fails on its latency bound instead of hanging).
 */
import type { AddressInfo, Socket } from 'node:net'
import type { Server } from 'node:http'
import type { Test } from 'tap'
import pg from 'pg'
import { Database, type DatabaseOptions } from '../../lib/index.js'
import { createHttpServer } from '../../adapters/http/index.js'
import { createPgwireServer } from '../../adapters/pgwire/index.js'

/** Queries that hold a non-yielding engine for seconds. */
export const ATTACKS = {
  /** 64M pairs from one outer batch */
  crossJoin: 'select count(*) from long_sequence(8000) a cross join long_sequence(8000) b',
  /** every probe row matches every build row */
  singleKeyJoin: 'select count(*) from (select 1 k from long_sequence(10000)) a join (select 1 k from long_sequence(10000)) b on a.k = b.k',
  /** exponential for a backtracking engine (seconds at 26), instant for RE2 */
  regexBomb: "select (rpad('a', 26, 'a') || '!') ~ '(a+)+$'",
  /** a window sort and frame over 2M rows */
  window: 'select count(*), max(s) from (select x, sum(x) over (order by x desc) s from long_sequence(2000000))',
} as const

/** A running REST + pgwire server. */
export interface FaultServer {
  readonly db: Database
  readonly httpPort: number
  readonly pgPort: number
  close(): Promise<void>
}

/** Starts REST and pgwire on loopback ephemeral ports over one in-memory database. */
export async function startServers(options: DatabaseOptions = {}): Promise<FaultServer> {
  const db = await Database.open(options)
  const http: Server = createHttpServer(db, {})
  const pgs = createPgwireServer(db, {})
  const sockets = new Set<Socket>()
  for (const s of [http, pgs]) s.on('connection', (c: Socket) => { sockets.add(c); c.on('close', () => sockets.delete(c)) })
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r))
  await new Promise<void>((r) => pgs.listen(0, '127.0.0.1', r))
  return {
    db,
    httpPort: (http.address() as AddressInfo).port,
    pgPort: (pgs.address() as AddressInfo).port,
    close: async () => {
      for (const c of sockets) c.destroy()
      await Promise.all([new Promise((r) => http.close(r)), new Promise((r) => pgs.close(r))])
      await db.close()
    },
  }
}

/** A connected `pg` client. */
export async function pgClient(port: number, extra: Partial<pg.ClientConfig> = {}): Promise<pg.Client> {
  const c = new pg.Client({ host: '127.0.0.1', port, user: 'admin', password: 'quest', database: 'qdb', ...extra })
  await c.connect()
  return c
}

/** Milliseconds `f` takes. */
export async function timed(f: () => Promise<unknown>): Promise<number> {
  const t = Date.now()
  await f()
  return Date.now() - t
}

/** The error `p` rejects with (or undefined when it resolves). */
export async function failure(p: Promise<unknown>): Promise<{ code?: string; message: string } | undefined> {
  try { await p; return undefined } catch (e) { return e as { code?: string; message: string } }
}

/**
 * Sends a CancelRequest for `victim`'s running query on a connection of its own, as `pg`'s
 * Client.cancel does (not in @types/pg).
 */
export function cancelRequest(port: number, victim: pg.Client): void {
  const c = new pg.Client({ host: '127.0.0.1', port, user: 'admin', password: 'quest', database: 'qdb' })
  const active = (victim as unknown as { activeQuery: pg.Query }).activeQuery
  ;(c as unknown as { cancel(client: pg.Client, query: pg.Query): void }).cancel(victim, active)
}

/**
 * Milliseconds after it was due that `select 1` on `other` was answered, sent `wait` ms from now.
 * The server runs in the test's process: a blocked event loop delays the timer too, so the
 * lateness counts from when select 1 was due, not from when it was sent.
 */
export async function lateness(other: { query(sql: string): Promise<unknown> }, wait: number): Promise<number> {
  const due = Date.now() + wait
  await sleep(wait)
  await other.query('select 1')
  return Date.now() - due
}

/** Resolves after `ms`. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/**
 * The isolation check of the execution fault tests: `sql` runs on one connection while another
 * connection's `select 1`, due `wait` ms later, must be answered within 2 s of being due; then a
 * CancelRequest must end `sql` with 57014 within `cancelWithinMs`.
 */
export async function servedThenCancelled(t: Test, port: number, sql: string, wait: number, cancelWithinMs = 2000): Promise<void> {
  const attacker = await pgClient(port)
  const other = await pgClient(port)
  t.teardown(async () => { await attacker.end().catch(() => {}); await other.end().catch(() => {}) })
  const running = failure(attacker.query(sql))
  const late = await lateness(other, wait)
  t.ok(late < 2000, `select 1 answered ${late} ms after it was due`)
  const sent = Date.now()
  cancelRequest(port, attacker)
  const err = await running
  t.equal(err?.code, '57014', `ended with 57014 (${err?.message})`)
  t.ok(Date.now() - sent < cancelWithinMs, `${Date.now() - sent} ms after the CancelRequest`)
}
