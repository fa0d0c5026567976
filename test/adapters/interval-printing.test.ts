/**
 * The engine holds an INTERVAL's bounds to the digit but every adapter prints it as QuestDB does,
 * to the millisecond (`Interval.toSink`): REST JSON and CSV, and pgwire text and binary results
 * (INTERVAL stays text on the wire), also for an interval passed through a subquery.
 */
import t from 'tap'
import pg from 'pg'
import { Database } from '../../lib/index.js'
import { startServer as startHttp, exec, get } from './http/helpers.js'
import { pgConfig, startServer as startPg } from './pgwire/helpers.js'

const SQL = "select i from (select interval('2024-01-01T00:00:00.123456Z', '2024-01-02T00:00:00.000001Z') i)"
const PRINTED = "('2024-01-01T00:00:00.123Z', '2024-01-02T00:00:00.000Z')"

t.test('REST /exec and /exp print an interval column to the millisecond', async (t) => {
  const srv = await startHttp({}, await Database.open())
  t.teardown(() => srv.close())
  const r = await exec(srv.port, SQL)
  t.same(JSON.parse(r.body).dataset, [[PRINTED]])
  const csv = await get(srv.port, `/exp?query=${encodeURIComponent(SQL)}`)
  t.match(csv.body, "('2024-01-01T00:00:00.123Z', '2024-01-02T00:00:00.000Z')")
  t.notMatch(csv.body, '123456')
})

t.test('pgwire prints it to the millisecond in text and binary results', async (t) => {
  const srv = await startPg({}, await Database.open())
  t.teardown(() => srv.close())
  const c = new pg.Client(pgConfig(srv.port))
  await c.connect()
  t.teardown(() => c.end())
  t.same((await c.query(SQL)).rows, [{ i: PRINTED }])
  t.same((await c.query({ text: SQL, binary: true } as pg.QueryConfig)).rows, [{ i: PRINTED }])
})

// QuestDB 9's nanosecond interval (INTERVAL_TIMESTAMP_NANO) is its own type but named INTERVAL
// like the other and printed the same way, to the millisecond, also through a subquery
const NS_SQL = "select i from (select interval('2024-01-01T00:00:00.123456789Z'::timestamp_ns, '2024-01-02T00:00:00.000000001Z'::timestamp_ns) i)"

t.test('a nanosecond interval column is named INTERVAL and printed to the millisecond on REST', async (t) => {
  const srv = await startHttp({}, await Database.open())
  t.teardown(() => srv.close())
  const body = JSON.parse((await exec(srv.port, NS_SQL)).body)
  t.same(body.columns, [{ name: 'i', type: 'INTERVAL' }])
  t.same(body.dataset, [[PRINTED]])
  const csv = await get(srv.port, `/exp?query=${encodeURIComponent(NS_SQL)}`)
  t.match(csv.body, PRINTED)
  t.notMatch(csv.body, '123456')
})

t.test('pgwire sends a nanosecond interval as text, to the millisecond', async (t) => {
  const srv = await startPg({}, await Database.open())
  t.teardown(() => srv.close())
  const c = new pg.Client(pgConfig(srv.port))
  await c.connect()
  t.teardown(() => c.end())
  const r = await c.query(NS_SQL)
  t.same(r.rows, [{ i: PRINTED }])
  t.equal(r.fields[0]!.dataTypeID, 1043) // varchar, as for every INTERVAL
  t.same((await c.query({ text: NS_SQL, binary: true } as pg.QueryConfig)).rows, [{ i: PRINTED }])
})
