/**
 * What a statement waits for before it runs (lib/storage/durable/commit-wait.ts): a query sees
 * its own session's writes, even those not acknowledged yet (pgwire's deferred, pipelined
 * writes), and every acknowledged write of anyone; it does not wait for other sessions' writes
 * still committing — so a large commit does not hold up other readers — and never sees part of
 * one. A write statement other than INSERT ... VALUES still runs after every write staged before it.
 */
import t from 'tap'
import { Database } from '../../../lib/index.js'
import { afterReopen, tmpDir } from './helpers.js'

const T0 = Date.UTC(2024, 0, 1) * 1000
const at = (i: number): string => new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString()

t.test('a session reads its own deferred writes; other sessions see them once acknowledged', async (t) => {
  const dir = tmpDir(t, 'epochdb-ryw-')
  const db = await Database.open({ path: dir })
  await db.query('create table d (ts timestamp, v long) timestamp(ts)')
  const a = db.session()
  const b = db.session()
  for (let i = 0; i < 3; i++) await db.query(`insert into d values ('${at(i)}', ${i})`, [], { session: a, deferSync: true })
  // b's query is answered without waiting for a's unacknowledged writes, and sees none of them
  t.same((await db.query('select count() from d', [], { session: b })).rows, [[0]])
  t.equal(db.hasUnsyncedWrites, true, 'b did not commit them')
  // a's next statement (a query) commits and sees them: read your writes
  t.same((await db.query('select count(), sum(v) from d', [], { session: a })).rows, [[3, 3]])
  t.same((await db.query('select count() from d', [], { session: b })).rows, [[3]], 'acknowledged writes are seen by every session')
  // again after a deferred write that others made meanwhile: a waits for its own, whatever else is staged
  await db.query(`insert into d values ('${at(5)}', 5)`, [], { session: a, deferSync: true })
  await db.query(`insert into d values ('${at(6)}', 6)`, [], { session: b, deferSync: true })
  t.same((await db.query('select sum(v) from d where v >= 5', [], { session: a })).rows, [[11]], 'a sees its own write (and the group it was committed with)')
  await db.sync()
  await db.close()
  t.same(await afterReopen(dir, 'select count(), sum(v) from d'), [[[5, 14]]])
})

t.test('a query from another session is answered while a large append commits, and sees none of it', async (t) => {
  const dir = tmpDir(t, 'epochdb-ryw-big-')
  // no checkpoint during the test
  const db = await Database.open({ path: dir, checkpointBytes: 1 << 30 })
  await db.query('create table t (ts timestamp, v double) timestamp(ts) partition by day')
  await db.append('t', { ts: [T0], v: [1] })
  const rows = 1_000_000
  const ts = new Float64Array(rows)
  const v = new Float64Array(rows).fill(1)
  for (let i = 0; i < rows; i++) ts[i] = T0 + (i + 1) * 1000
  const events: string[] = []
  const append = db.append('t', { ts, v }).then(() => { events.push('append acknowledged') })
  // the append is staged (converted and logged), its commit under way
  while (!db.hasUnsyncedWrites) await new Promise((r) => setImmediate(r))
  const answer = await db.query('select count(), sum(v) from t', [], { session: db.session() })
  events.push('query answered')
  await append
  t.same(events, ['query answered', 'append acknowledged'], 'the query did not wait for the other writer\'s commit')
  t.same(answer.rows, [[1n, 1]], 'and saw none of it')
  t.same((await db.query('select count(), sum(v) from t', [], { session: db.session() })).rows, [[BigInt(rows + 1), rows + 1]], 'once acknowledged, all of it')
  await db.close()
})

t.test('a write statement that reads (INSERT ... SELECT) still runs after the writes staged before it', async (t) => {
  const dir = tmpDir(t, 'epochdb-ryw-ins-')
  const db = await Database.open({ path: dir })
  await db.query('create table s (ts timestamp, v long) timestamp(ts)')
  await db.query('create table c (ts timestamp, v long) timestamp(ts)')
  await db.query(`insert into s values ('${at(0)}', 7)`, [], { session: db.session(), deferSync: true })
  await db.query('insert into c select * from s', [], { session: db.session() })
  t.same((await db.query('select v from c')).rows, [[7]])
  await db.close()
})
