import t from 'tap'
import { Sender } from '@questdb/nodejs-client'
import { get, startServer } from './helpers.js'

const types = async (db: import('../../../lib/index.js').Database, table: string): Promise<unknown[][]> =>
  (await db.query(`select "column", type from table_columns('${table}') order by "column"`)).rows

t.test('@questdb/nodejs-client, protocol 2: nanosecond timestamps create TIMESTAMP_NS columns and tables, microseconds TIMESTAMP; protocol 1 stays TIMESTAMP', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  const v2 = await Sender.fromConfig(`http::addr=127.0.0.1:${srv.port};protocol_version=2`)
  await v2.table('fills').symbol('sym', 'a').timestampColumn('exch', 1_700_000_000_000_002_123n, 'ns').timestampColumn('recv', 1_700_000_000_000_003n, 'us')
    .at(1_700_000_000_000_004_567n, 'ns')
  await v2.table('quotes').floatColumn('px', 1.5).at(1_700_000_000_000_004n, 'us')
  await v2.flush()
  await v2.close()
  t.same(await types(srv.db, 'fills'), [['exch', 'TIMESTAMP_NS'], ['recv', 'TIMESTAMP'], ['sym', 'SYMBOL'], ['timestamp', 'TIMESTAMP_NS']])
  t.same((await srv.db.query('select exch::string, recv::string, timestamp::string from fills')).rows,
    [['2023-11-14T22:13:20.000002123Z', '2023-11-14T22:13:20.000003Z', '2023-11-14T22:13:20.000004567Z']], 'nine digits kept')
  t.same(await types(srv.db, 'quotes'), [['px', 'DOUBLE'], ['timestamp', 'TIMESTAMP']])
  // protocol 1 sends the designated timestamp as a bare number and fields as t: TIMESTAMP, as QuestDB does
  const v1 = await Sender.fromConfig(`http::addr=127.0.0.1:${srv.port};protocol_version=1`)
  await v1.table('old').timestampColumn('exch', 1_700_000_000_000_002_123n, 'ns').at(1_700_000_000_000_004_567n, 'ns')
  await v1.flush()
  await v1.close()
  t.same(await types(srv.db, 'old'), [['exch', 'TIMESTAMP'], ['timestamp', 'TIMESTAMP']])
  // REST reads the new column at nine digits
  const r = await get(srv.port, `/exec?query=${encodeURIComponent('select exch, timestamp from fills')}`)
  t.match(r.body, /"type":"TIMESTAMP_NS".*"2023-11-14T22:13:20.000002123Z","2023-11-14T22:13:20.000004567Z"/)
})

t.test('raw HTTP bodies, and line.timestamp.default.column.type through the server options', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  const put = async (port: number, body: string, q = ''): Promise<number> => (await get(port, `/write${q}`, {}, 'POST', body)).status
  t.equal(await put(srv.port, 'raw_ns v=1i,at=1700000000000000001n 1700000000000000002n\n'), 204)
  t.equal(await put(srv.port, 'raw_bare v=1i 1700000000000000002\n'), 204)
  t.equal(await put(srv.port, 'raw_prec v=1i 1700000000000000\n', '?precision=u'), 204)
  t.same(await types(srv.db, 'raw_ns'), [['at', 'TIMESTAMP_NS'], ['timestamp', 'TIMESTAMP_NS'], ['v', 'LONG']])
  t.same(await types(srv.db, 'raw_bare'), [['timestamp', 'TIMESTAMP'], ['v', 'LONG']])
  t.same(await types(srv.db, 'raw_prec'), [['timestamp', 'TIMESTAMP'], ['v', 'LONG']])

  const ns = await startServer({ lineProtocol: { defaultTimestampType: 'TIMESTAMP_NS' } })
  t.teardown(() => ns.close())
  t.equal(await put(ns.port, 'd_bare v=1i 1700000000000000002\n'), 204)
  t.equal(await put(ns.port, 'd_us v=1i 1700000000000000t\n'), 204)
  t.same(await types(ns.db, 'd_bare'), [['timestamp', 'TIMESTAMP_NS'], ['v', 'LONG']])
  t.same((await ns.db.query('select timestamp::string from d_bare')).rows, [['2023-11-14T22:13:20.000000002Z']])
  t.same(await types(ns.db, 'd_us'), [['timestamp', 'TIMESTAMP'], ['v', 'LONG']])
  // the client's protocol 1 (bare nanoseconds) now lands in TIMESTAMP_NS at full precision
  const v1 = await Sender.fromConfig(`http::addr=127.0.0.1:${ns.port};protocol_version=1`)
  await v1.table('d_v1').floatColumn('px', 2).at(1_700_000_000_000_004_567n, 'ns')
  await v1.flush()
  await v1.close()
  t.same((await ns.db.query("select timestamp::string from d_v1")).rows, [['2023-11-14T22:13:20.000004567Z']])
})
