/**
 * After the (sliced) parse, a huge statement's binding does not freeze the server either: a long
 * IN list of literals is converted when it runs, in slices that yield (plan/literal-list.ts), and
 * an INSERT ... VALUES converts its rows in slices (exec/statements/dml.ts). So work queued behind
 * the statement runs while it binds, and a cancel or timeout stops it there.
 *
 * The statements are built as trees (one parsed item repeated) so the test measures binding, not
 * the parser: a 300,000-item list takes a few milliseconds to build and tens to hundreds of
 * milliseconds to bind.
 */
import t from 'tap'
import { Database, type Statement } from '../../lib/index.js'
import { getScalar } from '../../lib/types/vector.js'
import { failure, pgClient, sleep, startServers } from './exec-helpers.js'

const ITEMS = 300_000
const ROWS = 100_000

/** `select count() from long_sequence(10) where x in (0, 1, 2, ...)` with `n` items, as a tree. */
function inList(db: Database, n: number): Statement {
  const stmt = db.parse('select count() from long_sequence(10) where x in (0)')[0]!
  return JSON.parse(JSON.stringify(stmt), (k, v: unknown) =>
    k === 'list' && Array.isArray(v) ? Array.from({ length: n }, (_, i) => ({ ...v[0], text: String(i) })) : v) as Statement
}

/** A `rows`-row INSERT ... VALUES into `bulk`, as a tree. */
function bulkInsert(db: Database, rows: number): Statement {
  const stmt = db.parse("insert into bulk values ('2024-01-01T00:00:00.000000Z', 7, 'row')")[0]!
  return JSON.parse(JSON.stringify(stmt), (k, v: unknown) => k === 'rows' && Array.isArray(v) ? Array.from({ length: rows }, () => v[0]) : v) as Statement
}

/** The first column of `stmt`'s rows. */
async function firstColumn(db: Database, stmt: Statement): Promise<unknown[]> {
  const out: unknown[] = []
  for await (const b of (await db.execute(stmt, [], {})).batches) for (let i = 0; i < b.length; i++) out.push(getScalar(b.vectors[0]!, i))
  return out
}

/** Runs `stmt` to the end; the number of event-loop turns (setImmediate callbacks) taken meanwhile. */
async function turnsWhile(db: Database, stmt: Statement, signal?: { cancelled: boolean }): Promise<{ turns: number; rows: number }> {
  let turns = 0
  let running = true
  const tick = (): void => { if (!running) return; turns++; if (signal !== undefined) signal.cancelled = true; setImmediate(tick) }
  setImmediate(tick)
  try {
    const ex = await db.execute(stmt, [], signal === undefined ? {} : { signal })
    let rows = 0
    for await (const b of ex.batches) rows += b.length
    return { turns, rows: ex.affected >= 0 ? ex.affected : rows }
  } finally {
    running = false
  }
}

const db = await Database.open()
t.teardown(() => db.close())
await db.query('create table bulk (ts timestamp, x long, s string) timestamp(ts) partition by day')

t.test(`a ${ITEMS.toLocaleString('en')}-item IN list binds in slices`, async (t) => {
  const r = await turnsWhile(db, inList(db, ITEMS))
  t.equal(r.rows, 1, 'the query answers')
  t.ok(r.turns > 0, `the event loop turned ${r.turns} times while it bound and ran`)
  t.same(await firstColumn(db, inList(db, ITEMS)), [10], 'every x of 1..10 is in the list')
  const not = inList(db, ITEMS) as unknown as { where: { not: boolean } }
  not.where.not = true
  t.same(await firstColumn(db, not as unknown as Statement), [0], 'NOT IN: none')
})

t.test('a cancel lands while a long IN list binds', async (t) => {
  const signal = { cancelled: false }
  const err = await failure(turnsWhile(db, inList(db, ITEMS), signal))
  t.equal(err?.code, '57014', `cancelled while converting the list (${err?.message})`)
})

t.test('the statement timeout ends a long IN list while it binds', async (t) => {
  const started = Date.now()
  const err = await failure(db.query('select 1').then(() => db.execute(inList(db, ITEMS), [], { timeout: 5 })).then(async (ex) => { for await (const _ of ex.batches); }))
  t.equal(err?.code, '57014', `timed out (${err?.message})`)
  t.ok(Date.now() - started < 5000, `after ${Date.now() - started} ms`)
})

t.test(`a ${ROWS.toLocaleString('en')}-row INSERT ... VALUES converts its rows in slices; a cancel leaves the table as it was`, async (t) => {
  const r = await turnsWhile(db, bulkInsert(db, ROWS))
  t.equal(r.rows, ROWS, 'every row inserted')
  t.ok(r.turns > 0, `the event loop turned ${r.turns} times while it converted`)
  const before = (await db.query('select count() from bulk')).rows[0]![0]
  const err = await failure(turnsWhile(db, bulkInsert(db, ROWS), { cancelled: false }))
  t.equal(err?.code, '57014', `cancelled while converting the rows (${err?.message})`)
  t.same((await db.query('select count() from bulk')).rows[0]![0], before, 'nothing was inserted')
})

t.test('pgwire: another client is served while a prepared 30,000-row INSERT binds again', { timeout: 120_000 }, async (t) => {
  const srv = await startServers()
  t.teardown(() => srv.close())
  await srv.db.query('create table bulk (ts timestamp, x long, s string) timestamp(ts) partition by day')
  const attacker = await pgClient(srv.pgPort)
  const other = await pgClient(srv.pgPort)
  t.teardown(async () => { await attacker.end().catch(() => {}); await other.end().catch(() => {}) })
  const text = 'insert into bulk values ' + Array.from({ length: 30_000 }, (_, i) => `('2024-01-01T00:00:00.000000Z', ${i}, 'row ${i}')`).join(', ')
  // the first run parses (in slices); the second reuses the parsed statement and only binds and runs
  await attacker.query({ name: 'bulk', text, values: [] })
  const running = attacker.query({ name: 'bulk', text, values: [] })
  const due = Date.now() + 5
  await sleep(5)
  await other.query('select 1')
  const late = Date.now() - due
  t.ok(late < 1000, `select 1 answered ${late} ms after it was due`)
  t.equal((await running).rowCount, 30_000, 'the INSERT still succeeds')
  t.same((await srv.db.query('select count() from bulk')).rows[0], [60_000])
})
