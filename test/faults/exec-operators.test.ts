/**
 * Operators whose work is not proportional to their input batches: SAMPLE BY ... FILL over a
 * wide FROM/TO range (one data row, millions of filled rows) and a window over many mid-sized
 * partitions. Each must yield while it builds its output: another client's `select 1` is
 * answered meanwhile, and CancelRequest and statement_timeout stop it.
 */
import t from 'tap'
import { failure, pgClient, servedThenCancelled, startServers } from './exec-helpers.js'

const srv = await startServers()
t.teardown(() => srv.close())
await srv.db.query('create table one (ts timestamp, v double) timestamp(ts) partition by day')
await srv.db.query("insert into one values ('2020-01-01T00:00:00Z', 1), ('2020-03-01T00:00:00Z', 2)")

/** About 5M filled rows from two data rows (every second of 58 days). */
const WIDE_FILL = "select count() from (select ts, avg(v) from one sample by 1s from '2020-01-01' to '2020-02-28' fill(linear))"
/** 2M rows in 1,000 partitions of 2,000 rows: a sort per partition. */
const MANY_PARTITIONS = 'select count(), max(s) from (select x, sum(x) over (partition by x % 1000 order by x desc) s from long_sequence(2000000))'

t.test('SAMPLE BY FILL over a wide range: others are served, CancelRequest ends it', { timeout: 120_000 }, async (t) => {
  await servedThenCancelled(t, srv.pgPort, WIDE_FILL, 300, 3000)
})

t.test('SAMPLE BY FILL over a wide range ends at statement_timeout', { timeout: 120_000 }, async (t) => {
  const c = await pgClient(srv.pgPort)
  t.teardown(() => c.end().catch(() => {}))
  await c.query('set statement_timeout = 300')
  const started = Date.now()
  const err = await failure(c.query(WIDE_FILL))
  t.equal(err?.code, '57014', `57014 (${err?.message})`)
  t.ok(Date.now() - started < 3000, `after ${Date.now() - started} ms`)
})

t.test('a window over 1,000 partitions ends at statement_timeout', { timeout: 120_000 }, async (t) => {
  const c = await pgClient(srv.pgPort)
  t.teardown(() => c.end().catch(() => {}))
  await c.query('set statement_timeout = 300')
  const started = Date.now()
  const err = await failure(c.query(MANY_PARTITIONS))
  t.equal(err?.code, '57014', `57014 (${err?.message})`)
  t.ok(Date.now() - started < 3000, `after ${Date.now() - started} ms`)
})
