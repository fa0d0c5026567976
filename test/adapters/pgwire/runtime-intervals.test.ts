/**
 * `WHERE ts > $1` over pgwire: a bound parameter narrows the scan to its interval on every
 * execution of a prepared statement, as a literal does (plan/physical/runtime-intervals.ts), and
 * the rows are those of a full scan. node-postgres prepares a named statement once and binds it
 * with new values each time (Parse once, Bind/Execute per query).
 */
import t from 'tap'
import pg from 'pg'
import { Database } from '../../../lib/index.js'
import { pgConfig, startServer } from './helpers.js'

const db = await Database.open()
await db.query('create table iv (ts timestamp, v int) timestamp(ts) partition by day')
// one row every 6 minutes for three days: 240 a day, 10 an hour
await db.query("insert into iv select timestamp_sequence('2024-01-01', 360000000L), x::int from long_sequence(720)")
const srv = await startServer({}, db)
t.teardown(() => srv.close())

t.test('node-postgres: a prepared statement prunes with each execution\'s parameters', async (t) => {
  const client = new pg.Client(pgConfig(srv.port))
  await client.connect()
  t.teardown(() => client.end())
  const run = async (name: string, text: string, values: unknown[]) => (await client.query({ name, text, values })).rows
  const pruned = 'select count(*) c, sum(v) s from iv where ts > $1 and ts <= $2'
  const full = 'select count(*) c, sum(v) s from iv where (ts > $1 and ts <= $2) or v < 0'
  const ranges: [string, string, string][] = [
    ['2024-01-01T10:00:00Z', '2024-01-01T12:00:00Z', '20'],
    ['2024-01-02', '2024-01-03', '240'],
    ['2024-01-02T23:00:00Z', '2024-01-05', '249'],
    ['2025-01-01', '2025-01-02', '0'],
  ]
  for (const [lo, hi, count] of ranges) {
    const rows = await run('pruned', pruned, [lo, hi])
    t.equal(String(rows[0]!.c), count, `${lo}..${hi}: ${count} rows`)
    t.same(rows, await run('full', full, [lo, hi]), `${lo}..${hi}: the rows of a full scan`)
  }
  const plan = (await run('plan', `explain ${pruned}`, ['2024-01-02', '2024-01-03'])).map((r) => String(Object.values(r)[0])).join('\n')
  t.match(plan, /Interval forward scan/, 'EXPLAIN over pgwire: an interval scan')
  t.match(plan, /intervals: \[\("2024-01-02T00:00:00\.000001Z","2024-01-03T00:00:00\.000000Z"\)\]/, 'of the bound values')
  const plan2 = (await run('plan', `explain ${pruned}`, ['2024-01-01', '2024-01-01T01:00:00Z'])).map((r) => String(Object.values(r)[0])).join('\n')
  t.match(plan2, /intervals: \[\("2024-01-01T00:00:00\.000001Z","2024-01-01T01:00:00\.000000Z"\)\]/, 'the same statement bound again: the new values')
  // a Date value: node-postgres sends it as text with an offset
  t.same((await run('pruned', pruned, [new Date(Date.UTC(2024, 0, 1, 10)), new Date(Date.UTC(2024, 0, 1, 12))]))[0]!.c, '20', 'Date parameters')
})
