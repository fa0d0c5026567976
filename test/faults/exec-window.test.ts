/**
 * A window over millions of rows does not hold the event loop for a whole pass: its expressions
 * are evaluated slice by slice and its kernels (partition and peer boundaries, frame bounds,
 * sums, extremes, ranks, picks) run in steps that yield (exec/steps.ts). Another client is
 * served meanwhile, and CancelRequest and statement_timeout stop the query inside a call.
 */
import t from 'tap'
import { Database } from '../../lib/index.js'
import { failure, pgClient, servedThenCancelled, startServers } from './exec-helpers.js'

/** Two calls sharing one sort over 2M rows: most of the work is the calls' passes. */
const TWO_CALLS = 'select count(), max(a), max(b) from (select sum(x) over (order by x rows between 10 preceding and current row) a, ' +
  'first_value(x) over (order by x rows between 10 preceding and current row) b from long_sequence(2000000))'

t.test('the passes of one window call yield to the event loop', { timeout: 180_000 }, async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  // the memory the statement holds tells where it is: each call reserves its result before it
  // computes, so the level before the last is the one held while the first call computes
  const turnsAt = new Map<number, number>()
  const levels: number[] = []
  let running = true
  const tick = (): void => {
    if (!running) return
    const used = db.queryMemory.used
    if (levels[levels.length - 1] !== used) levels.push(used)
    turnsAt.set(used, (turnsAt.get(used) ?? 0) + 1)
    setImmediate(tick)
  }
  setImmediate(tick)
  const r = await db.query(TWO_CALLS).finally(() => { running = false })
  t.same(r.rows[0]!.map(Number), [2_000_000, 2_000_000 * 11 - 55, 1_999_990], 'the query answers')
  const top = Math.max(...levels)
  const firstCall = Math.max(...levels.filter((l) => l < top && l > 0))
  const turns = turnsAt.get(firstCall) ?? 0
  t.ok(turns >= 2, `the event loop turned ${turns} times while the first call computed (levels seen: ${levels.length})`)
})

const srv = await startServers()
t.teardown(() => srv.close())

t.test('pgwire: another client is served during a big window query; CancelRequest ends it', { timeout: 180_000 }, async (t) => {
  await servedThenCancelled(t, srv.pgPort, TWO_CALLS, 500)
})

t.test('statement_timeout ends a big window query', { timeout: 180_000 }, async (t) => {
  const attacker = await pgClient(srv.pgPort)
  t.teardown(() => attacker.end().catch(() => {}))
  await attacker.query('set statement_timeout = 800')
  const started = Date.now()
  const err = await failure(attacker.query(TWO_CALLS))
  t.equal(err?.code, '57014', `ended with 57014 (${err?.message})`)
  t.ok(Date.now() - started < 3000, `after ${Date.now() - started} ms`)
})
