/**
 * Materialized views in a data directory: definition, rows and refresh state survive a restart;
 * the view keeps following its base table afterwards; a view whose base table took rows its last
 * refresh did not see (a crash between the commit and the refresh) is refreshed in full at open.
 */
import t, { type Test } from 'tap'
import { join } from 'node:path'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { Database } from '../../lib/index.js'

function tmp(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-matviews-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

const rows = async (db: Database, sql: string) => (await db.query(sql)).rows.map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : v)))

t.test('a materialized view survives a restart and keeps refreshing', async (t) => {
  const dir = tmp(t)
  {
    const db = await Database.open({ path: dir })
    await db.query('create table t (ts timestamp, k symbol, v long) timestamp(ts) partition by day wal')
    await db.query("insert into t values ('2024-01-01T00:10', 'a', 1), ('2024-01-01T01:10', 'b', 2)")
    await db.query('create materialized view mv refresh immediate as (select ts, k, sum(v) s from t sample by 1h) partition by day ttl 30 days')
    await db.query("insert into t values ('2024-01-01T00:20', 'a', 10)")
    t.same(await rows(db, 'select k, s from mv order by ts, k'), [['a', 11], ['b', 2]])
    await db.query('alter materialized view mv set ttl 5 days')
    await db.close()
  }
  const db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same(await rows(db, 'select k, s from mv order by ts, k'), [['a', 11], ['b', 2]])
  t.same(await rows(db, 'select view_name, refresh_type, base_table_name, view_sql, view_status from materialized_views()'),
    [['mv', 'immediate', 't', 'select ts, k, sum(v) s from t sample by 1h', 'valid']])
  t.ok((await rows(db, 'select last_refresh_finish_timestamp from materialized_views()'))[0]![0] !== null, 'the last refresh time is kept')
  t.same(await rows(db, "select ttlValue, ttlUnit, matView from tables() where table_name = 'mv'"), [[5, 'DAY', true]], 'ALTER ... SET TTL is kept')
  await db.query("insert into t values ('2024-01-01T01:30', 'b', 5)")
  t.same(await rows(db, 'select k, s from mv order by ts, k'), [['a', 11], ['b', 7]])
  await t.rejects(db.query("insert into mv values ('2024-01-02', 'x', 1)"), { code: '42809', message: 'cannot modify materialized view [view=mv]' })
  await t.rejects(db.query('create table mv (x int)'), { code: '42P07' })
})

t.test('rows the last refresh did not see are refreshed at open', async (t) => {
  const dir = tmp(t)
  {
    const db = await Database.open({ path: dir })
    await db.query('create table t (ts timestamp, v long) timestamp(ts) partition by day wal')
    await db.query("insert into t values ('2024-01-01T00:10', 1)")
    await db.query('create materialized view mv as (select ts, sum(v) s from t sample by 1d)')
    t.same(await rows(db, 'select s from mv'), [[1]])
    // the view stops following (as if the process died between the commit and the refresh)
    await db.query('alter materialized view mv set refresh manual')
    await db.query("insert into t values ('2024-01-01T05:00', 4)")
    await db.query('alter materialized view mv set refresh immediate')
    await db.close()
  }
  const db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same(await rows(db, 'select s from mv'), [[5]])
})

t.test('an invalid view stays invalid across a restart; DROP removes it for good', async (t) => {
  const dir = tmp(t)
  {
    const db = await Database.open({ path: dir })
    await db.query('create table t (ts timestamp, v long) timestamp(ts) partition by day wal')
    await db.query('create materialized view mv as (select ts, sum(v) s from t sample by 1h)')
    await db.query('create materialized view gone as (select ts, count() c from t sample by 1h)')
    await db.query("insert into t values ('2024-01-01T00:05', 1)")
    t.same(await rows(db, 'select s from mv'), [[1]], 'refreshed before the truncate')
    await db.query('truncate table t')
    await db.query('drop materialized view gone')
    await db.close()
  }
  const db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same(await rows(db, 'select view_name, view_status, invalidation_reason from materialized_views()'), [['mv', 'invalid', 'truncate operation']])
  await t.rejects(db.query('select * from gone'), { code: '42P01' })
  await db.query("insert into t values ('2024-01-01T00:10', 3)")
  t.same(await rows(db, 'select s from mv'), [[1]], 'an invalid view keeps its rows and does not refresh')
  await db.query('refresh materialized view mv full')
  t.same(await rows(db, 'select s from mv'), [[3]])
  t.same(await rows(db, 'select view_status from materialized_views()'), [['valid']])
})

t.test('SHOW CREATE MATERIALIZED VIEW after a restart: DEFERRED, the timer and the TTL kept; a DEFERRED view still fresh', async (t) => {
  const dir = tmp(t)
  const sql = 'select ts, sum(v) s from t sample by 1h'
  {
    const db = await Database.open({ path: dir })
    await db.query('create table t (ts timestamp, v long) timestamp(ts) partition by day wal')
    await db.query(`create materialized view d refresh manual deferred as (${sql}) partition by day ttl 2 weeks`)
    await db.query(`create materialized view e refresh every 1h deferred start '2024-01-01T00:00:00.000000Z' as (${sql})`)
    await db.close()
  }
  const db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same(await rows(db, 'show create materialized view d'), [[`CREATE MATERIALIZED VIEW 'd' WITH BASE 't' REFRESH MANUAL DEFERRED AS (\n${sql}\n) PARTITION BY DAY TTL 2 WEEKS;`]])
  t.same(await rows(db, 'show create materialized view e'), [[`CREATE MATERIALIZED VIEW 'e' WITH BASE 't' REFRESH EVERY 1h DEFERRED START '2024-01-01T00:00:00.000000Z' AS (\n${sql}\n) PARTITION BY MONTH;`]])
  // never refreshed: a TRUNCATE of the base table leaves it valid (QuestDB's fresh view)
  await db.query('truncate table t')
  t.same(await rows(db, "select view_status from materialized_views() where view_name = 'd'"), [['valid']])
})

t.test('a timer longer than Node can wait (EVERY 1M, 2y) starts no millisecond timer', async (t) => {
  const warnings: string[] = []
  const onWarning = (w: Error): void => { warnings.push(w.name) }
  process.on('warning', onWarning)
  t.teardown(() => { process.off('warning', onWarning) })
  const db = await Database.open()
  await db.query('create table t (ts timestamp, v long) timestamp(ts) partition by day')
  await db.query('create materialized view m1 refresh every 1M deferred as (select ts, sum(v) s from t sample by 1h)')
  await db.query('create materialized view y2 refresh every 2y deferred as (select ts, sum(v) s from t sample by 1d)')
  await new Promise((r) => setTimeout(r, 20))
  await db.close()
  // Node turns a delay past 2^31 - 1 ms into 1 ms and says so with a TimeoutOverflowWarning
  t.same(warnings.filter((w) => w === 'TimeoutOverflowWarning'), [])
})

t.test('a damaged _mat_views file is XX001 at open, not a TypeError', async (t) => {
  for (const body of ['null', '{"version":1,"views":[null]}', '{"version":1,"views":[{"id":1,"name":"v","sql":"select 1","baseTable":"t"}]}']) {
    const dir = tmp(t)
    await (await Database.open({ path: dir })).close()
    writeFileSync(join(dir, '_mat_views'), body)
    await t.rejects(Database.open({ path: dir }), { code: 'XX001' }, body)
  }
})

t.test('a period view and a refresh limit survive a restart, with the periods refreshed so far', async (t) => {
  const dir = tmp(t)
  let now = Date.UTC(2024, 0, 2, 10) * 1000
  const cols = "select refresh_period_hi, period_length, period_length_unit, period_delay, timer_time_zone, refresh_limit, refresh_limit_unit from materialized_views()"
  let before: unknown[][]
  let ddl: unknown
  {
    const db = await Database.open({ path: dir, clock: () => now })
    await db.query('create table t (ts timestamp, v long) timestamp(ts) partition by day wal')
    await db.query("insert into t values ('2024-01-01T05:00', 1), ('2024-01-02T05:00', 2)")
    await db.query("create materialized view v refresh period (length 1d time zone 'Europe/Paris' delay 2h) as select ts, sum(v) s from t sample by 1h")
    await db.query('alter materialized view v set refresh limit 10 days')
    t.same(await rows(db, 'select s from v order by ts'), [[1]])
    before = await rows(db, cols)
    t.same(before, [[Date.UTC(2024, 0, 1, 23) * 1000, 1, 'DAY', 2, 'Europe/Paris', 10, 'DAY']], "midnight in Paris")
    ddl = (await db.query('show create materialized view v')).rows[0]![0]
    await db.close()
  }
  now = Date.UTC(2024, 0, 3, 10) * 1000
  const db = await Database.open({ path: dir, clock: () => now })
  t.same(await rows(db, cols), before)
  t.equal((await db.query('show create materialized view v')).rows[0]![0], ddl)
  // a day later: the period of 2 January is complete, the next append refreshes it too
  await db.query("insert into t values ('2024-01-03T05:00', 4)")
  t.same(await rows(db, 'select s from v order by ts'), [[1], [2]])
  t.same((await rows(db, 'select refresh_period_hi from materialized_views()'))[0], [Date.UTC(2024, 0, 2, 23) * 1000])
  await db.close()
})
