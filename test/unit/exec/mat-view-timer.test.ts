/**
 * The timers of materialized views, without waiting: a RefreshTimer's deadlines are computed from
 * an injected "now", and the refresher's timers go through an injected TimerHost that records the
 * delays and fires on demand, with the database's clock injected too (QuestDB's MatViewTimerJob:
 * start and steps on the zone's wall clock, period timers DELAY after each period's end).
 * London, 2024: clocks go forward at 01:00 UTC on 31 March and back at 01:00 UTC on 27 October.
 */
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { Database } from '../../../lib/index.js'
import { RefreshTimer, completePeriodsHi } from '../../../lib/exec/mat-view-timer.js'
import type { MatViewRefresher, TimerHost } from '../../../lib/exec/mat-view-refresh.js'
import type { Catalog } from '../../../lib/storage/catalog.js'
import type { DurableStore } from '../../../lib/storage/durable/store.js'

const us = (iso: string): number => Date.parse(iso) * 1000
const iso = (micros: number): string => new Date(micros / 1000).toISOString()
const HOUR = 3_600_000_000

t.test('EVERY 1d in Europe/London keeps 09:00 local across the spring change', async (t) => {
  // START is a wall-clock time in the zone: 09:00 GMT, then 09:00 BST (08:00 UTC)
  const timer = new RefreshTimer('every', { count: 1, unit: 'd', start: us('2024-03-29T09:00:00Z'), timeZone: 'Europe/London' }, us('2024-03-29T00:00:00Z'))
  t.same(timer.upcoming(4).map(iso), ['2024-03-29T09:00:00.000Z', '2024-03-30T09:00:00.000Z', '2024-03-31T08:00:00.000Z', '2024-04-01T08:00:00.000Z'])
  // in UTC the same timer would stay at 09:00 UTC
  const utc = new RefreshTimer('every', { count: 1, unit: 'd', start: us('2024-03-29T09:00:00Z') }, us('2024-03-29T00:00:00Z'))
  t.same(utc.upcoming(3).map(iso), ['2024-03-29T09:00:00.000Z', '2024-03-30T09:00:00.000Z', '2024-03-31T09:00:00.000Z'])
})

t.test('EVERY 1w and 1M in the autumn: the local time of day stays', async (t) => {
  const week = new RefreshTimer('every', { count: 1, unit: 'w', start: us('2024-10-21T06:30:00Z'), timeZone: 'Europe/London' }, us('2024-10-01T00:00:00Z'))
  t.same(week.upcoming(2).map(iso), ['2024-10-21T05:30:00.000Z', '2024-10-28T06:30:00.000Z'])
  const month = new RefreshTimer('every', { count: 1, unit: 'M', start: us('2024-09-15T00:00:00Z'), timeZone: 'America/New_York' }, us('2024-09-01T00:00:00Z'))
  t.same(month.upcoming(3).map(iso), ['2024-09-15T04:00:00.000Z', '2024-10-15T04:00:00.000Z', '2024-11-15T05:00:00.000Z'])
})

t.test('EVERY 1h across the changes: every fire time is later than the one before', async (t) => {
  // spring: local 01:00 does not exist (it is 02:00 BST = 01:00 UTC, as local 02:00): no fire twice
  const spring = new RefreshTimer('every', { count: 1, unit: 'h', start: us('2024-03-31T00:00:00Z'), timeZone: 'Europe/London' }, us('2024-03-30T00:00:00Z'))
  t.same(spring.upcoming(4).map(iso), ['2024-03-31T00:00:00.000Z', '2024-03-31T01:00:00.000Z', '2024-03-31T02:00:00.000Z', '2024-03-31T03:00:00.000Z'])
  // autumn: local 01:00 happens twice; the timer fires at its earlier instant, then at 02:00 GMT
  const autumn = new RefreshTimer('every', { count: 1, unit: 'h', start: us('2024-10-27T00:00:00Z'), timeZone: 'Europe/London' }, us('2024-10-26T00:00:00Z'))
  const fires = autumn.upcoming(4)
  t.same(fires.map(iso), ['2024-10-26T23:00:00.000Z', '2024-10-27T00:00:00.000Z', '2024-10-27T02:00:00.000Z', '2024-10-27T03:00:00.000Z'])
  for (let i = 1; i < fires.length; i++) t.ok(fires[i]! > fires[i - 1]!)
})

t.test('a timer created after its START fires at the next step from now, not for the steps it missed', async (t) => {
  const timer = new RefreshTimer('every', { count: 1, unit: 'd', start: us('2024-03-29T09:00:00Z'), timeZone: 'Europe/London' }, us('2024-04-02T12:00:00Z'))
  t.equal(iso(timer.deadline), '2024-04-03T08:00:00.000Z')
  const early = new RefreshTimer('every', { count: 1, unit: 'd', start: us('2024-03-29T09:00:00Z'), timeZone: 'Europe/London' }, us('2024-04-02T07:59:00Z'))
  t.equal(iso(early.deadline), '2024-04-02T08:00:00.000Z')
})

t.test('a period timer fires DELAY after each period ends, from the period that ended last', async (t) => {
  const timer = new RefreshTimer('period', { count: 1, unit: 'd', start: us('2024-03-30T00:00:00Z'), timeZone: 'Europe/London', delay: 2 * HOUR }, us('2024-03-30T12:00:00Z'))
  // the period of 29 March ended at midnight: its firing is due (at 02:00), the next two follow;
  // DELAY counts on the wall clock, as completePeriodsHi does: 30 March ends at 00:00 GMT, and 2h
  // later on the wall clock is 02:00 BST = 01:00 UTC (the clocks went forward in between)
  t.equal(iso(timer.periodHi), '2024-03-30T00:00:00.000Z')
  t.same(timer.upcoming(3).map(iso), ['2024-03-30T02:00:00.000Z', '2024-03-31T01:00:00.000Z', '2024-04-01T01:00:00.000Z'])
  timer.advance()
  timer.advance()
  t.equal(iso(timer.periodHi), '2024-03-31T23:00:00.000Z', 'midnight BST')
  // the complete periods at a time: those that ended DELAY before it, on the zone's clock
  t.equal(iso(completePeriodsHi(us('2024-04-01T00:59:00Z'), 24 * HOUR, 2 * HOUR, us('2024-03-30T00:00:00Z'), 'Europe/London')), '2024-03-31T00:00:00.000Z')
  t.equal(iso(completePeriodsHi(us('2024-04-01T01:00:00Z'), 24 * HOUR, 2 * HOUR, us('2024-03-30T00:00:00Z'), 'Europe/London')), '2024-03-31T23:00:00.000Z')
})

/** A TimerHost that records what is set and fires on demand. */
class FakeHost implements TimerHost {
  readonly armed = new Map<number, { fire: () => void; ms: number }>()
  private next = 1
  set(fire: () => void, ms: number): unknown {
    const id = this.next++
    this.armed.set(id, { fire, ms })
    return id
  }
  clear(handle: unknown): void { this.armed.delete(handle as number) }
  /** Fires every armed timer once (those they arm wait for the next call). */
  fireAll(): void {
    const now = [...this.armed.entries()]
    for (const [id, a] of now) { this.armed.delete(id); a.fire() }
  }
}

interface Internals { statements: { refresher: MatViewRefresher; store: DurableStore | undefined }; catalog: Catalog }

/** A database on the clock `clock`, its refresher's timers on a FakeHost, and a table `t (ts, v)`. */
async function openClocked(t: Test, clock: () => number): Promise<{ db: Database; host: FakeHost; refresher: MatViewRefresher }> {
  const db = await Database.open({ clock })
  t.teardown(() => db.close())
  const host = new FakeHost()
  const refresher = (db as unknown as Internals).statements.refresher
  refresher.timerHost = host
  await db.query('create table t (ts timestamp, v long) timestamp(ts) partition by day wal')
  return { db, host, refresher }
}

t.test('the refresher: a period view waits for its period, the injected timer fires, DROP clears it', async (t) => {
  let now = us('2024-01-02T10:00:00Z')
  const { db, host, refresher } = await openClocked(t, () => now)
  await db.query("insert into t values ('2024-01-01T05:00:00Z', 1), ('2024-01-02T05:00:00Z', 2)")
  await db.query('create materialized view v refresh period (length 1d delay 2h) as select ts, sum(v) s from t sample by 1h')
  const rows = async (): Promise<unknown[]> => (await db.query('select ts, s from v order by ts')).rows.map((r) => [iso(Number(r[0])), Number(r[1])])
  t.same(await rows(), [['2024-01-01T05:00:00.000Z', 1]], 'the period of 2 January is under way')
  // QuestDB: the period timer starts with the period that ended last (1 January, due at 02:00 on the 2nd: now)
  t.same(refresher.nextFires('v', 2).map(iso), ['2024-01-02T02:00:00.000Z', '2024-01-03T02:00:00.000Z'])
  t.same([...host.armed.values()].map((a) => a.ms), [0], 'due now')
  host.fireAll()
  t.same(await rows(), [['2024-01-01T05:00:00.000Z', 1]], 'nothing new: that period was refreshed at CREATE')
  t.same([...host.armed.values()].map((a) => a.ms), [16 * 3600 * 1000], 'armed for 16 hours of the injected clock')
  // the timer goes off early (a host may): nothing is due, it re-arms
  host.fireAll()
  t.same(await rows(), [['2024-01-01T05:00:00.000Z', 1]])
  t.same([...host.armed.values()].map((a) => a.ms), [16 * 3600 * 1000])
  now = us('2024-01-03T02:00:00Z')
  host.fireAll()
  t.same(await rows(), [['2024-01-01T05:00:00.000Z', 1], ['2024-01-02T05:00:00.000Z', 2]], 'the period ended two hours ago: refreshed')
  t.same((await db.query('select refresh_period_hi from materialized_views()')).rows.map((r) => iso(Number(r[0]))), ['2024-01-03T00:00:00.000Z'])
  t.same(refresher.nextFires('v', 1).map(iso), ['2024-01-04T02:00:00.000Z'])
  await db.query('drop materialized view v')
  t.equal(host.armed.size, 0, 'DROP clears its timer')
  t.same(refresher.nextFires('v', 1), [])
})

t.test("create / drop cycles: the base table's append hook is one function, gone with the last view", async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  const inner = db as unknown as Internals
  await db.query('create table t (ts timestamp, v long) timestamp(ts) partition by day wal')
  const base = inner.catalog.get('t')
  t.equal(base.appended, undefined)
  await db.query('create materialized view keep as select ts, sum(v) s from t sample by 1d')
  const hook = base.appended
  t.ok(hook !== undefined)
  for (let i = 0; i < 50; i++) {
    await db.query(`create materialized view v${i} as select ts, sum(v) s from t sample by 1h`)
    t.equal(base.appended, hook, 'the same hook, not one per view')
    await db.query(`drop materialized view v${i}`)
    t.equal(base.appended, hook, 'another view still follows the table')
  }
  await db.query('drop materialized view keep')
  t.equal(base.appended, undefined, 'no view left: no hook')
  // and a new view follows the table again
  await db.query('create materialized view again as select ts, sum(v) s from t sample by 1d')
  await db.query("insert into t values ('2024-01-01', 5)")
  t.same((await db.query('select s from again')).rows.map((r) => Number(r[0])), [5])
})

/**
 * A durable database (in a directory removed at the end) with table t holding one row and view v
 * over it, the refresher on a {@link FakeHost}, and `_mat_views` writes that fail with "disk full"
 * while `failing.on` is true (from the start).
 */
async function withFailingSave(t: Test): Promise<{ dir: string; db: Database; refresher: MatViewRefresher; host: FakeHost; failing: { on: boolean } }> {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-mv-persist-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const db = await Database.open({ path: dir })
  const inner = db as unknown as Internals
  const host = new FakeHost()
  const refresher = inner.statements.refresher
  refresher.timerHost = host
  await db.query('create table t (ts timestamp, v long) timestamp(ts) partition by day wal')
  await db.query("insert into t values ('2024-01-01', 1)")
  await db.query('create materialized view v as select ts, sum(v) s from t sample by 1d')
  t.same((await db.query('select s from v')).rows.map((r) => Number(r[0])), [1])
  const store = inner.statements.store!
  const write = store.writeInternal.bind(store)
  const failing = { on: true }
  store.writeInternal = (name, bytes) => { if (failing.on && name === '_mat_views') throw new Error('disk full'); write(name, bytes) }
  return { dir, db, refresher, host, failing }
}

t.test('an invalidation whose write fails stays in memory and is written by the retry', async (t) => {
  const { dir, refresher, host, failing, ...opened } = await withFailingSave(t)
  let db = opened.db
  // the TRUNCATE succeeds; the view's invalidation cannot be written
  await db.query('truncate table t')
  t.same((await db.query('select view_status, invalidation_reason from materialized_views()')).rows, [['invalid', 'truncate operation']], 'kept in memory')
  t.equal(refresher.persistError?.message, 'disk full')
  t.equal(host.armed.size, 1, 'a retry is armed')
  host.fireAll()
  t.equal(refresher.persistError?.message, 'disk full', 'still failing: kept')
  t.equal(host.armed.size, 1, 'and armed again')
  failing.on = false
  host.fireAll()
  t.equal(refresher.persistError, undefined, 'written')
  await db.close()
  db = await Database.open({ path: dir })
  t.same((await db.query('select view_status, invalidation_reason from materialized_views()')).rows, [['invalid', 'truncate operation']], 'the invalidation survived a reopen')
  await db.close()
})

t.test('a period view against an oracle: after random appends and clock steps it holds the query over the complete periods', async (t) => {
  // a small deterministic generator (xorshift), so a failure replays
  let seed = 12345
  const r = (): number => { seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0; return seed / 4294967296 }
  let now = us('2024-05-01T00:00:00Z')
  const db = await Database.open({ clock: () => now })
  t.teardown(() => db.close())
  const host = new FakeHost()
  ;(db as unknown as Internals).statements.refresher.timerHost = host
  const SQL = 'select ts, k, sum(v) s, count() c from base sample by 15m'
  await db.query('create table base (ts timestamp, k symbol, v long) timestamp(ts) partition by day wal')
  await db.query(`create materialized view pv refresh period (length 1h delay 10m) as ${SQL}`)
  for (let b = 0; b < 40; b++) {
    // rows around now: most in the last hour and a half (some in the period under way), a few late ones
    const rows: string[] = []
    for (let i = 0, n = 1 + Math.floor(r() * 8); i < n; i++) {
      const back = r() < 0.2 ? Math.floor(r() * 6 * HOUR) : Math.floor(r() * 1.5 * HOUR)
      rows.push(`(${now - back}::timestamp, 'k${Math.floor(r() * 3)}', ${Math.floor(r() * 100)})`)
    }
    await db.query(`insert into base values ${rows.join(', ')}`)
    now += Math.floor(r() * 40) * 60_000_000
    host.fireAll()
    const hi = Math.floor((now - 10 * 60_000_000) / HOUR) * HOUR
    const want = (await db.query(`select * from (${SQL}) where ts < ${hi}::timestamp order by ts, k`)).rows
    t.same((await db.query('select * from pv order by ts, k')).rows, want, `batch ${b}: the complete periods, up to ${iso(hi)}`)
  }
})

t.test('a timer that fires late fires once, then at its next step after now', async (t) => {
  let now = us('2024-01-01T00:00:30Z')
  const { db, host, refresher } = await openClocked(t, () => now)
  await db.query("create materialized view v refresh every 1m start '2024-01-01T00:01:00Z' as select ts, sum(v) s from t sample by 1h")
  t.same(refresher.nextFires('v', 2).map(iso), ['2024-01-01T00:01:00.000Z', '2024-01-01T00:02:00.000Z'])
  t.same([...host.armed.values()].map((a) => a.ms), [30_000])
  // the machine sleeps for an hour: one firing, then the next minute after now
  now = us('2024-01-01T01:00:30Z')
  await db.query("insert into t values ('2024-01-01T00:10:00Z', 7)")
  host.fireAll()
  t.same([...host.armed.values()].map((a) => a.ms), [30_000])
  t.same(refresher.nextFires('v', 1).map(iso), ['2024-01-01T01:01:00.000Z'])
  t.same((await db.query('select s from v')).rows.map((r) => Number(r[0])), [7], 'the firing refreshed the noted rows')
})

t.test('REFRESH LIMIT holds for a full refresh and for a period view (MatViewTest.testAlterRefreshLimitFullRefresh / PeriodMatView)', async (t) => {
  const now = us('2024-01-01T01:01:01Z')
  const db = await Database.open({ clock: () => now })
  t.teardown(() => db.close())
  const host = new FakeHost()
  ;(db as unknown as Internals).statements.refresher.timerHost = host
  const rows = async (sql: string): Promise<unknown[][]> => (await db.query(sql)).rows.map((r) => r.map((v) => (typeof v === 'bigint' ? iso(Number(v)) : v)))
  await db.query('create table base_price (sym symbol, price double, ts timestamp) timestamp(ts) partition by day wal')
  await db.query("insert into base_price(sym, price, ts) values ('gbpusd', 1.320, '2023-09-10T12:01'), ('gbpusd', 1.323, '2023-09-10T12:02'), ('jpyusd', 103.21, '2023-11-10T12:02'), ('gbpusd', 1.321, '2023-11-10T13:02')")
  await db.query('create materialized view price_1h refresh manual deferred as select sym, last(price) as price, ts from base_price sample by 1h')
  await db.query('alter materialized view price_1h set refresh limit 2 months')
  t.same(await rows('select refresh_limit, refresh_limit_unit from materialized_views()'), [[2, 'MONTH']])
  t.same(await rows('price_1h'), [])
  // the full refresh respects the limit: only the rows of 2023-11-10
  await db.query('refresh materialized view price_1h full')
  t.same(await rows('select sym, price, ts from price_1h order by sym, ts'), [['gbpusd', 1.321, '2023-11-10T13:00:00.000Z'], ['jpyusd', 103.21, '2023-11-10T12:00:00.000Z']])

  await db.query('create table base2 (sym symbol, price double, ts timestamp) timestamp(ts) partition by day wal')
  await db.query("insert into base2 values ('gbpusd', 1.320, '2023-09-10T12:01'), ('gbpusd', 1.323, '2023-09-10T12:02'), ('jpyusd', 103.21, '2023-12-31T12:02'), ('gbpusd', 1.321, '2023-12-31T13:02')")
  await db.query('create materialized view p_1h refresh immediate deferred period(length 24h) as select sym, last(price) as price, ts from base2 sample by 1h')
  await db.query('alter materialized view p_1h set refresh limit 2 months')
  // the period timer: the period of 31 December is complete
  host.fireAll()
  t.same(await rows('select sym, price, ts from p_1h order by sym, ts'), [['gbpusd', 1.321, '2023-12-31T13:00:00.000Z'], ['jpyusd', 103.21, '2023-12-31T12:00:00.000Z']])
  t.same(await rows("select refresh_period_hi, period_length, period_length_unit, refresh_limit, refresh_limit_unit from materialized_views() where view_name = 'p_1h'"),
    [['2024-01-01T00:00:00.000Z', 24, 'HOUR', 2, 'MONTH']])
})

t.test('EVERY with a TIME ZONE and no START starts now, on the zone\'s wall clock', async (t) => {
  const now = us('2024-01-01T10:30:00Z')
  const { db, refresher } = await openClocked(t, () => now)
  await db.query("create materialized view v refresh every 1d time zone 'Europe/Paris' as select ts, sum(v) s from t sample by 1h")
  t.same((await db.query('select timer_start, timer_time_zone from materialized_views()')).rows.map((r) => [iso(Number(r[0])), r[1]]), [['2024-01-01T11:30:00.000Z', 'Europe/Paris']], '11:30 in Paris')
  t.same(refresher.nextFires('v', 2).map(iso), ['2024-01-01T10:30:00.000Z', '2024-01-02T10:30:00.000Z'])
})

t.test('REFRESH ... INCREMENTAL of a view never refreshed takes the whole base table; of a period view, its completed periods', async (t) => {
  let now = us('2024-01-02T10:00:00Z')
  const { db } = await openClocked(t, () => now)
  const sums = async (view: string): Promise<number[]> => (await db.query(`select s from ${view} order by ts`)).rows.map((r) => Number(r[0]))
  await db.query("insert into t values ('2024-01-01T05:00:00Z', 1), ('2024-01-02T05:00:00Z', 2)")
  await db.query('create materialized view d refresh manual deferred as select ts, sum(v) s from t sample by 1h')
  t.same(await sums('d'), [])
  await db.query('refresh materialized view d incremental')
  t.same(await sums('d'), [1, 2], 'the rows from before the CREATE (QuestDB: the first incremental refresh reads the whole table)')
  await db.query('create materialized view p refresh manual period (length 1d) as select ts, sum(v) s from t sample by 1h')
  t.same(await sums('p'), [1])
  now = us('2024-01-03T00:30:00Z')
  await db.query('refresh materialized view p incremental')
  t.same(await sums('p'), [1, 2], 'the period of 2 January completed: refreshed without a new commit')
})

t.test('a DEFERRED timer view is filled at its first firing', async (t) => {
  let now = us('2024-01-02T10:00:00Z')
  const { db, host } = await openClocked(t, () => now)
  await db.query("insert into t values ('2024-01-01T05:00:00Z', 1)")
  await db.query("create materialized view v refresh every 1h deferred start '2024-01-02T11:00:00Z' as select ts, sum(v) s from t sample by 1h")
  t.same((await db.query('select s from v')).rows, [])
  now = us('2024-01-02T11:00:00Z')
  host.fireAll()
  t.same((await db.query('select s from v')).rows.map((r) => Number(r[0])), [1])
})

t.test('review: a period timer whose DELAY crosses the autumn change fires when its period is complete (not a day late)', async (t) => {
  // 26 October ends at local midnight (23:00 UTC, BST); 2h later on the wall clock is 02:00 GMT =
  // 02:00 UTC, after the clocks went back at 01:00 UTC. In UTC, end + 2h is 01:00 UTC: too early
  const timer = new RefreshTimer('period', { count: 1, unit: 'd', start: us('2024-10-25T00:00:00Z'), timeZone: 'Europe/London', delay: 2 * HOUR }, us('2024-10-26T12:00:00Z'))
  timer.advance()
  t.equal(iso(timer.periodHi), '2024-10-26T23:00:00.000Z')
  t.equal(iso(timer.deadline), '2024-10-27T02:00:00.000Z')
  t.equal(completePeriodsHi(timer.deadline, 24 * HOUR, 2 * HOUR, us('2024-10-25T00:00:00Z'), 'Europe/London'), timer.periodHi, 'complete at its deadline')
  t.ok(completePeriodsHi(timer.deadline - 1, 24 * HOUR, 2 * HOUR, us('2024-10-25T00:00:00Z'), 'Europe/London') < timer.periodHi, 'and not a microsecond before')
  // spring: 30 March ends at 00:00 GMT; 2h on the wall clock is 02:00 BST = 01:00 UTC
  const spring = new RefreshTimer('period', { count: 1, unit: 'd', start: us('2024-03-30T00:00:00Z'), timeZone: 'Europe/London', delay: 2 * HOUR }, us('2024-03-30T12:00:00Z'))
  spring.advance()
  t.equal(completePeriodsHi(spring.deadline, 24 * HOUR, 2 * HOUR, us('2024-03-30T00:00:00Z'), 'Europe/London'), spring.periodHi)
})

t.test('review: EVERY 1M from the 31st keeps the 31st after a short month (the clamp does not carry)', async (t) => {
  const timer = new RefreshTimer('every', { count: 1, unit: 'M', start: us('2024-01-31T00:00:00Z') }, us('2024-01-01T00:00:00Z'))
  t.same(timer.upcoming(4).map(iso), ['2024-01-31T00:00:00.000Z', '2024-02-29T00:00:00.000Z', '2024-03-31T00:00:00.000Z', '2024-04-30T00:00:00.000Z'])
  // created later: the same days as counted from START (a restart gives the same schedule)
  const later = new RefreshTimer('every', { count: 1, unit: 'M', start: us('2020-01-31T00:00:00Z') }, us('2026-11-25T00:00:00Z'))
  t.same(later.upcoming(3).map(iso), ['2026-11-30T00:00:00.000Z', '2026-12-31T00:00:00.000Z', '2027-01-31T00:00:00.000Z'])
})

t.test('review: a refresh whose rows are written but whose state cannot be saved keeps the view valid and retries', async (t) => {
  const { db, refresher, host, failing } = await withFailingSave(t)
  await db.query("insert into t values ('2024-01-01T01:00', 2)")
  t.same((await db.query('select s from v')).rows.map((r) => Number(r[0])), [3], 'refreshed')
  t.same((await db.query('select view_status from materialized_views()')).rows, [['valid']], 'not made invalid by the failed save')
  t.equal(refresher.persistError?.message, 'disk full')
  failing.on = false
  host.fireAll()
  t.equal(refresher.persistError, undefined, 'saved by the retry')
  await db.close()
})

t.test('review: a REFRESH LIMIT reaching back past any timestamp limits nothing (no overflow, the view stays valid)', async (t) => {
  const db = await Database.open({ clock: () => us('2024-10-25T12:00:00Z') })
  t.teardown(() => db.close())
  await db.query('create table t (ts timestamp, v long) timestamp(ts) partition by day wal')
  await db.query("insert into t values ('2020-01-01T05:00', 1), ('2024-10-25T05:00', 2)")
  await db.query('create materialized view v refresh manual as select ts, sum(v) s from t sample by 1d')
  for (const limit of ['300000 YEARS', '99999999999999 YEARS', '9999999999999999 HOURS']) {
    await db.query(`alter materialized view v set refresh limit ${limit}`)
    await db.query('refresh materialized view v full')
    t.same((await db.query('select view_status from materialized_views()')).rows, [['valid']], limit)
    t.same((await db.query('select s from v order by ts')).rows.map((r) => Number(r[0])), [1, 2], `${limit}: every row`)
  }
})

t.test('review: EVERY with a count past INT is refused at the interval', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table t (ts timestamp, v long) timestamp(ts) partition by day wal')
  await t.rejects(db.query('create materialized view v refresh every 99999999999999999999999d as select ts, sum(v) s from t sample by 1d'), { code: '42601', position: 41, message: /interval count out of range/ })
})
