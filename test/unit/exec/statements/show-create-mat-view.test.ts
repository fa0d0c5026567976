/**
 * SHOW CREATE MATERIALIZED VIEW prints QuestDB 9's text (ShowCreateMatViewRecordCursorFactory,
 * MatViewTest's testShowCreate*MatView): `CREATE MATERIALIZED VIEW 'v' WITH BASE 't' REFRESH ...
 * AS (`, the query on a line of its own, `) PARTITION BY ... [TTL ...];` in one VARCHAR column
 * `ddl`; the text runs again and recreates the view. SHOW CREATE TABLE / VIEW of a materialized
 * view and SHOW CREATE MATERIALIZED VIEW of anything else fail with QuestDB's messages at the name.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'

const QUERY = 'select ts, v+v doubleV, avg(v) from table1 sample by 30s'

t.test("SHOW CREATE MATERIALIZED VIEW: QuestDB's text for each refresh kind", async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table table1 (ts timestamp, k symbol, v long) timestamp(ts) partition by day wal')
  const show = async (name: string): Promise<string> => {
    const r = await db.query(`SHOW CREATE MATERIALIZED VIEW ${name}`)
    t.same(r.columns.map((c) => [c.name, c.type]), [['ddl', 'VARCHAR']])
    return String(r.rows[0]![0])
  }
  // testShowCreateImmediateMatView
  await db.query(`create materialized view test1 as (${QUERY}) partition by day TTL 3 WEEKS`)
  t.equal(await show('test1'), `CREATE MATERIALIZED VIEW 'test1' WITH BASE 'table1' REFRESH IMMEDIATE AS (\n${QUERY}\n) PARTITION BY DAY TTL 3 WEEKS;`)
  await db.query(`create materialized view test2 refresh immediate deferred as (${QUERY}) partition by day TTL 3 WEEKS`)
  t.equal(await show('test2'), `CREATE MATERIALIZED VIEW 'test2' WITH BASE 'table1' REFRESH IMMEDIATE DEFERRED AS (\n${QUERY}\n) PARTITION BY DAY TTL 3 WEEKS;`)
  // testShowCreateManualMatView: the compact form, QuestDB's default partitioning for 30s (DAY)
  await db.query(`create materialized view test3 refresh manual as ${QUERY}`)
  t.equal(await show('test3'), `CREATE MATERIALIZED VIEW 'test3' WITH BASE 'table1' REFRESH MANUAL AS (\n${QUERY}\n) PARTITION BY DAY;`)
  await db.query(`create materialized view test4 refresh manual deferred as ${QUERY}`)
  t.equal(await show('test4'), `CREATE MATERIALIZED VIEW 'test4' WITH BASE 'table1' REFRESH MANUAL DEFERRED AS (\n${QUERY}\n) PARTITION BY DAY;`)
  // testShowCreateTimerMatView
  await db.query(`create materialized view test5 refresh every 7d start '2020-01-01T02:23:59.900000Z' time zone 'Europe/Paris' as ${QUERY}`)
  t.equal(await show('test5'), `CREATE MATERIALIZED VIEW 'test5' WITH BASE 'table1' REFRESH EVERY 7d START '2020-01-01T02:23:59.900000Z' TIME ZONE 'Europe/Paris' AS (\n${QUERY}\n) PARTITION BY DAY;`)
  await db.query(`create materialized view 'test6' refresh every 7d deferred start '2020-01-01T02:23:59.900000Z' time zone 'Europe/Paris' as ${QUERY}`)
  t.equal(await show('TEST6'), `CREATE MATERIALIZED VIEW 'test6' WITH BASE 'table1' REFRESH EVERY 7d DEFERRED START '2020-01-01T02:23:59.900000Z' TIME ZONE 'Europe/Paris' AS (\n${QUERY}\n) PARTITION BY DAY;`)
  await db.query(`create materialized view test7 refresh every 1h deferred start '2020-01-01T00:00:00.000000Z' as ${QUERY}`)
  t.equal(await show('test7'), `CREATE MATERIALIZED VIEW 'test7' WITH BASE 'table1' REFRESH EVERY 1h DEFERRED START '2020-01-01T00:00:00.000000Z' AS (\n${QUERY}\n) PARTITION BY DAY;`)
  t.same((await db.query("select view_name, timer_time_zone, timer_interval, timer_interval_unit from materialized_views() where refresh_type = 'timer' order by view_name")).rows,
    [['test5', 'Europe/Paris', 7, 'DAY'], ['test6', 'Europe/Paris', 7, 'DAY'], ['test7', null, 1, 'HOUR']])
  await t.rejects(db.query(`create materialized view test8 refresh every 1h time zone 'Mars/Olympus' as ${QUERY}`), { code: '22023', position: 58 })

  // ALTER ... SET REFRESH: the new refresh, no timer left from before
  await db.query('alter materialized view test7 set refresh immediate')
  t.equal(await show('test7'), `CREATE MATERIALIZED VIEW 'test7' WITH BASE 'table1' REFRESH IMMEDIATE DEFERRED AS (\n${QUERY}\n) PARTITION BY DAY;`)
  t.same((await db.query("select refresh_type, timer_start, timer_interval from materialized_views() where view_name = 'test7'")).rows, [['immediate', null, 0]])

  // ALTER ... SET TTL shows in the text
  await db.query('alter materialized view test3 set ttl 2 days')
  t.match(await show('test3'), /\) PARTITION BY DAY TTL 2 DAYS;$/)

  // the printed statement recreates the view
  const ddl = await show('test1')
  await db.query('drop materialized view test1')
  await db.query(ddl)
  t.equal(await show('test1'), ddl, 'the printed statement recreates the view')
})

t.test("SHOW CREATE on the wrong kind of object: QuestDB's errors at the name", async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table base (ts timestamp, v double) timestamp(ts) partition by day wal')
  await db.query('create materialized view base_1h as (select ts, max(v) from base sample by 1h) partition by week')
  await db.query('create view plain as (select ts, v from base)')
  const at = async (sql: string, code: string, position: number, message: string): Promise<void> => {
    await t.rejects(db.query(sql), { code, position, message }, sql)
  }
  // ShowCreateTableTest.testMatViewRejected / testMatViewRejectedCaseInsensitive
  await at('show create table base_1h', '42809', 18, 'table name expected, got view or materialized view name')
  await at('ShOw CrEaTe TaBlE base_1h', '42809', 18, 'table name expected, got view or materialized view name')
  // SqlParserCallback.getViewToken: anything that is no plain view
  await at('show create view base_1h', '42809', 17, 'view name expected, got table name')
  // MatViewTest.testShowCreateMatViewFail2 / Fail3
  await at('show create materialized view base', '42809', 30, 'materialized view name expected, got table name')
  await at('show create materialized view plain', '42809', 30, 'materialized view name expected, got table name')
  await at("show create materialized view 'test';", '42P01', 30, 'materialized view does not exist [view=test]')
  // MatViewTest.testShowCreateMatViewFail, ShowCreateViewTest: syntax errors at QuestDB's positions
  // (QuestDB words them `'view' expected` / `expected 'TABLE' or 'VIEW' or 'MATERIALIZED VIEW'`)
  await t.rejects(db.query('show create materialized base_1h'), { code: '42601', position: 25, message: /expected VIEW/ })
  await t.rejects(db.query('show create base_1h'), { code: '42601', position: 12, message: /expected TABLE, VIEW or MATERIALIZED/ })
  // and the table itself still shows
  t.match(String((await db.query('show create table base')).rows[0]![0]), /^CREATE TABLE 'base'/)
})

t.test('SHOW CREATE of period views (MatViewTest.testShowCreatePeriodMatView): PERIOD after the refresh, no START', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table table1 (ts timestamp, k symbol, v long) timestamp(ts) partition by day wal')
  const show = async (name: string): Promise<string> => String((await db.query(`SHOW CREATE MATERIALIZED VIEW ${name}`)).rows[0]![0])
  await db.query(`create materialized view p1 refresh immediate period (length 12h time zone 'Europe/Sofia' delay 1h) as ${QUERY}`)
  t.equal(await show('p1'), `CREATE MATERIALIZED VIEW 'p1' WITH BASE 'table1' REFRESH IMMEDIATE PERIOD (LENGTH 12h TIME ZONE 'Europe/Sofia' DELAY 1h) AS (\n${QUERY}\n) PARTITION BY DAY;`)
  await db.query(`create materialized view p2 refresh manual deferred period (length 10h) as ${QUERY}`)
  t.equal(await show('p2'), `CREATE MATERIALIZED VIEW 'p2' WITH BASE 'table1' REFRESH MANUAL DEFERRED PERIOD (LENGTH 10h) AS (\n${QUERY}\n) PARTITION BY DAY;`)
  await db.query(`create materialized view p3 refresh every 2h period (length 1d delay 30m) as ${QUERY}`)
  t.equal(await show('p3'), `CREATE MATERIALIZED VIEW 'p3' WITH BASE 'table1' REFRESH EVERY 2h PERIOD (LENGTH 1d DELAY 30m) AS (\n${QUERY}\n) PARTITION BY DAY;`)
  // the compact REFRESH PERIOD is an IMMEDIATE one
  await db.query(`create materialized view p4 refresh period (length 30m) as ${QUERY}`)
  t.equal(await show('p4'), `CREATE MATERIALIZED VIEW 'p4' WITH BASE 'table1' REFRESH IMMEDIATE PERIOD (LENGTH 30m) AS (\n${QUERY}\n) PARTITION BY DAY;`)
  // ALTER ... SET REFRESH PERIOD, then back to a timer with its START
  await db.query('alter materialized view p4 set refresh period (length 1d delay 1h)')
  t.equal(await show('p4'), `CREATE MATERIALIZED VIEW 'p4' WITH BASE 'table1' REFRESH IMMEDIATE PERIOD (LENGTH 1d DELAY 1h) AS (\n${QUERY}\n) PARTITION BY DAY;`)
  await db.query("alter materialized view p4 set refresh every 1h start '2020-01-01T00:00:00.000000Z'")
  t.equal(await show('p4'), `CREATE MATERIALIZED VIEW 'p4' WITH BASE 'table1' REFRESH EVERY 1h START '2020-01-01T00:00:00.000000Z' AS (\n${QUERY}\n) PARTITION BY DAY;`)
  // the printed statement recreates the view
  const ddl = await show('p1')
  await db.query('drop materialized view p1')
  await db.query(ddl)
  t.equal(await show('p1'), ddl)
})

t.test("PERIOD and REFRESH LIMIT errors at QuestDB's positions (MatViewTest.testAlterRefreshParamsInvalidStatement)", async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table table1 (ts timestamp, k symbol, v long) timestamp(ts) partition by day wal')
  await db.query(`create materialized view price_1h_t refresh every 1h as ${QUERY}`)
  const at = async (sql: string, code: string, position: number, message: string): Promise<void> => {
    await t.rejects(db.query(sql), { code, position, message }, sql)
  }
  await at('alter materialized view price_1h_t set refresh period (length 1h time zone \'foobar\')', '22023', 75, 'invalid timezone: foobar')
  await at("alter materialized view price_1h_t set refresh period (length 1h time zone 'Europe/Sofia' delay 2h)", '42601', 96, 'delay cannot be equal to or greater than length')
  await at("alter materialized view price_1h_t set refresh period (length 1h time zone 'Europe/Sofia' delay 0h)", '42601', 96, 'positive number expected: 0h')
  await at('alter materialized view price_1h_t set refresh period (length 0m)', '42601', 62, 'positive number expected: 0m')
  await at('alter materialized view price_1h_t set refresh period (length 25h delay 2h)', '42601', 62, 'maximum supported length interval is 24 hours: 25h')
  await at('alter materialized view price_1h_t set refresh period (length 2d)', '42601', 62, 'maximum supported length interval is 24 hours: 2d')
  await at('alter materialized view price_1h_t set refresh period (length 1w)', '42601', 62, "unsupported length unit: 1w, supported units are 'm', 'h', 'd'")
  // the view is as it was
  t.same((await db.query('select refresh_type, period_length from materialized_views()')).rows, [['timer', 0]])
  await db.query('alter materialized view price_1h_t set refresh limit 3 days')
  t.same((await db.query('select refresh_limit, refresh_limit_unit from materialized_views()')).rows, [[3, 'DAY']])
  await at('alter materialized view price_1h_t set refresh limit 3 fortnights', '42601', 55, 'invalid TTL unit, expected HOUR(S), DAY(S), WEEK(S), MONTH(S) or YEAR(S)')
  // MatViewTest.testAlterRefreshLimitInvalidStatement
  await at('alter materialized view price_1h_t set refresh limit foobar;', '42601', 53, 'invalid argument, should be <number> <unit> or <number_with_unit>')
})

t.test('PERIOD (SAMPLE BY INTERVAL): the SAMPLE BY stride and time zone become the period', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table t (ts timestamp, v long) timestamp(ts) partition by day wal')
  const show = async (name: string): Promise<string> => String((await db.query(`SHOW CREATE MATERIALIZED VIEW ${name}`)).rows[0]![0])
  const q1 = "select ts, sum(v) s from t sample by 1h align to calendar time zone 'Europe/London'"
  await db.query(`create materialized view a refresh period (sample by interval) as ${q1}`)
  t.equal(await show('a'), `CREATE MATERIALIZED VIEW 'a' WITH BASE 't' REFRESH IMMEDIATE PERIOD (LENGTH 1h TIME ZONE 'Europe/London') AS (\n${q1}\n) PARTITION BY MONTH;`)
  const q2 = 'select ts, sum(v) s from t sample by 1d'
  await db.query(`create materialized view b refresh manual as ${q2}`)
  await db.query('alter materialized view b set refresh every 1h period (sample by interval)')
  t.equal(await show('b'), `CREATE MATERIALIZED VIEW 'b' WITH BASE 't' REFRESH EVERY 1h PERIOD (LENGTH 1d) AS (\n${q2}\n) PARTITION BY YEAR;`)
  // LENGTH's checks at the stride; WITH OFFSET refused (CreateMatViewOperation); no table left behind
  await t.rejects(db.query('create materialized view c refresh period (sample by interval) as select ts, sum(v) s from t sample by 30s'),
    { code: '42601', position: 103, message: "unsupported length unit: 30s, supported units are 'm', 'h', 'd'" })
  await t.rejects(db.query('create materialized view c refresh period (sample by interval) as select ts, sum(v) s from t sample by 2d'),
    { code: '42601', position: 103, message: 'maximum supported length interval is 24 hours: 2d' })
  await t.rejects(db.query("create materialized view c refresh period (sample by interval) as select ts, sum(v) s from t sample by 1h align to calendar with offset '00:30'"),
    { code: '42601', position: 103, message: "PERIOD (SAMPLE BY INTERVAL) can't be used with WITH OFFSET" })
  t.same((await db.query('select table_name from tables() order by 1')).rows, [['a'], ['b'], ['t']])
})

t.test("EVERY's units as QuestDB (validateMatViewEveryUnit): no seconds", async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table table1 (ts timestamp, k symbol, v long) timestamp(ts) partition by day wal')
  await db.query(`create materialized view price_1h_t refresh every 1h as ${QUERY}`)
  // MatViewTest.testAlterRefreshParamsInvalidStatement
  await t.rejects(db.query("ALTER MATERIALIZED VIEW 'price_1h_t' SET REFRESH EVERY 1s;"), { code: '42601', position: 55, message: "unsupported interval unit: s, supported units are 'm', 'h', 'd', 'w', 'y', 'M'" })
  await db.query('ALTER MATERIALIZED VIEW price_1h_t SET REFRESH EVERY 2M')
  t.same((await db.query('select timer_interval, timer_interval_unit from materialized_views()')).rows, [[2, 'MONTH']])
})
