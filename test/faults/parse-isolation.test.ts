/**
 * A huge statement does not freeze the server while it parses: the lexer and the Earley parser
 * run in slices and yield to the event loop (`Database.parseAsync`), so another client's
 * `select 1` is answered while a 30,000-row INSERT parses, and CancelRequest, statement_timeout
 * and a closing database stop the parse.
 */
import t from 'tap'
import { Database } from '../../lib/index.js'
import { failure, lateness, pgClient, sleep, startServers } from './exec-helpers.js'

const srv = await startServers()
t.teardown(() => srv.close())
await srv.db.query('create table bulk (ts timestamp, x long, s string) timestamp(ts) partition by day')

/**
 * A 30,000-row INSERT VALUES (about 1.4 MB): seconds to parse in one go on the test machine.
 * Each row holds an expression (`i + 0`), which the fast path for lists of literals
 * (lib/sql/fast-lists.ts) leaves to the grammar, so the statement is still slow to parse and a
 * cancel or timeout can land while it parses.
 */
const BULK = 'insert into bulk values ' + Array.from({ length: 30_000 }, (_, i) => `('2024-01-01T00:00:00.000000Z', ${i} + 0, 'row ${i}')`).join(', ')
/** A 30,000-item IN list (169 KB). */
const IN_LIST = `select count() from long_sequence(10) where x in (${Array.from({ length: 30_000 }, (_, i) => i * 1000).join(',')})`

for (const [name, sql, check] of [
  ['30,000-row INSERT (simple protocol)', BULK, (r: { rowCount: number | null }) => r.rowCount === 30_000],
  ['30,000-item IN list (extended protocol)', IN_LIST, (r: { rows: unknown[] }) => r.rows.length === 1],
] as const) {
  t.test(`${name}: another client is served while it parses`, { timeout: 60_000 }, async (t) => {
    const attacker = await pgClient(srv.pgPort)
    const other = await pgClient(srv.pgPort)
    t.teardown(async () => { await attacker.end().catch(() => {}); await other.end().catch(() => {}) })
    const started = Date.now()
    const running = name.includes('extended') ? attacker.query({ text: sql, values: [] as unknown[], name: 'big' }) : attacker.query(sql)
    const late = await lateness(other, 100)
    t.ok(late < 1000, `select 1 answered ${late} ms after it was due`)
    const r = await running
    t.ok(check(r as never), `the big statement still succeeds (${Date.now() - started} ms)`)
  })
}

t.test('CancelRequest stops a statement while it parses', { timeout: 60_000 }, async (t) => {
  const attacker = await pgClient(srv.pgPort)
  t.teardown(() => attacker.end().catch(() => {}))
  const before = (await srv.db.query('select count() from bulk')).rows[0]![0]
  const running = failure(attacker.query(BULK))
  await sleep(150)
  const c = (await import('pg')).default
  const canceller = new c.Client({ host: '127.0.0.1', port: srv.pgPort, user: 'admin', password: 'quest', database: 'qdb' })
  const sent = Date.now()
  const active = (attacker as unknown as { activeQuery: unknown }).activeQuery
  ;(canceller as unknown as { cancel(client: unknown, query: unknown): void }).cancel(attacker, active)
  const err = await running
  t.equal(err?.code, '57014', `ended with 57014 (${err?.message})`)
  t.ok(Date.now() - sent < 1000, `${Date.now() - sent} ms after the CancelRequest`)
  t.same((await srv.db.query('select count() from bulk')).rows[0]![0], before, 'nothing was inserted')
})

t.test('statement_timeout ends a statement while it parses', { timeout: 60_000 }, async (t) => {
  const attacker = await pgClient(srv.pgPort)
  t.teardown(() => attacker.end().catch(() => {}))
  await attacker.query('set statement_timeout = 100')
  const started = Date.now()
  const err = await failure(attacker.query(BULK))
  t.equal(err?.code, '57014', `ended with 57014 (${err?.message})`)
  t.match(err?.message, /statement timeout/)
  t.ok(Date.now() - started < 1500, `after ${Date.now() - started} ms`)
})

t.test('Database.query: the timeout counts the parse; close({ cancel }) stops a parse with 57P01', { timeout: 60_000 }, async (t) => {
  const db = await Database.open()
  await db.query('create table bulk (ts timestamp, x long, s string) timestamp(ts) partition by day')
  const e1 = await failure(db.query(BULK, [], { timeout: 50 }))
  t.equal(e1?.code, '57014', 'timeout during the parse')
  const running = failure(db.query(BULK))
  await sleep(100)
  await db.close({ cancel: true })
  const e2 = await running
  t.equal(e2?.code, '57P01', `closing the database ends the parse (${e2?.message})`)
})

t.test('REST: a 50 KB GET /exec IN list parses while select 1 is served', { timeout: 60_000 }, async (t) => {
  // GET /exec is bounded to 64 KiB of request target: 25,000 one-digit items fit
  const sql = `select count() from long_sequence(10) where x in (${Array.from({ length: 25_000 }, (_, i) => i % 10).join(',')})`
  const url = `http://127.0.0.1:${srv.httpPort}/exec?query=${encodeURIComponent(sql).replace(/%2C/g, ',')}`
  t.ok(url.length < 65_000, `request target ${url.length} bytes`)
  const other = await pgClient(srv.pgPort)
  t.teardown(() => other.end())
  const running = fetch(url).then((r) => r.json() as Promise<{ dataset?: unknown[][] }>)
  const late = await lateness(other, 20)
  t.ok(late < 1000, `select 1 answered ${late} ms after it was due`)
  t.same((await running).dataset, [[9]], "x in 0..9 of 1..10")
})
