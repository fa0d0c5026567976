/**
 * Runtime-constant timestamp bounds (`ts IN today()`, `ts > dateadd('h', -1, now())`, `ts > $1`,
 * `ts IN '$today'`) narrow the scan as literal bounds do (plan/optimize/runtime-bounds.ts,
 * plan/physical/runtime-intervals.ts). The pruning check is the interval EXPLAIN lists for the
 * execution's own now() (an injected clock); the correctness check is the same rows as the
 * condition written so that nothing is extracted (`OR v < 0`, never true, keeps a full scan).
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'

const DAY = 86_400_000_000
// 2024-03-10T15:30:00Z
const NOW = Date.UTC(2024, 2, 10, 15, 30) * 1000

async function setup(clock: () => number): Promise<Database> {
  const db = await Database.open({ clock })
  await db.query('create table t (ts timestamp, v long) timestamp(ts) partition by day')
  // one row every 30 minutes from 2024-03-07 to 2024-03-13 (6 days, 288 rows)
  await db.query("insert into t select timestamp_sequence('2024-03-07', 1800000000L), x from long_sequence(288)")
  await db.query('create table n (ts timestamp_ns, v long) timestamp(ts) partition by day')
  await db.query("insert into n select timestamp_sequence_ns('2024-03-07'::timestamp_ns, 1800000000001), x from long_sequence(288)")
  return db
}

const plan = async (db: Database, sql: string, params: unknown[] = []) => (await db.query(`explain ${sql}`, params)).rows.map((r) => String(r[0])).join('\n')
const rows = async (db: Database, sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows.map((r) => String(r[0]))
const intervalsOf = (p: string) => /intervals: (.*)/.exec(p)?.[1]

t.test('runtime-constant bounds give an interval scan with the rows of a full scan', async (t) => {
  const db = await setup(() => NOW)
  const cases: [string, string][] = [
    ['ts IN today()', '[("2024-03-10T00:00:00.000000Z","2024-03-10T23:59:59.999999Z")]'],
    ['ts IN yesterday()', '[("2024-03-09T00:00:00.000000Z","2024-03-09T23:59:59.999999Z")]'],
    ['ts IN tomorrow()', '[("2024-03-11T00:00:00.000000Z","2024-03-11T23:59:59.999999Z")]'],
    ["ts IN today('Europe/Berlin')", '[("2024-03-09T23:00:00.000000Z","2024-03-10T22:59:59.999999Z")]'],
    ["ts > dateadd('h', -1, now())", '[("2024-03-10T14:30:00.000001Z","MAX")]'],
    ["ts >= dateadd('d', -1, now())", '[("2024-03-09T15:30:00.000000Z","MAX")]'],
    ['ts < now()', '[("MIN","2024-03-10T15:29:59.999999Z")]'],
    ['now() >= ts', '[("MIN","2024-03-10T15:30:00.000000Z")]'],
    ["ts = date_trunc('hour', now())", '[("2024-03-10T15:00:00.000000Z","2024-03-10T15:00:00.000000Z")]'],
    ["ts BETWEEN dateadd('d', -1, now()) AND now()", '[("2024-03-09T15:30:00.000000Z","2024-03-10T15:30:00.000000Z")]'],
    ["ts BETWEEN now() AND dateadd('d', -1, now())", '[("2024-03-09T15:30:00.000000Z","2024-03-10T15:30:00.000000Z")]'],
    ["ts IN interval(dateadd('h', -2, now()), now())", '[("2024-03-10T13:30:00.000000Z","2024-03-10T15:30:00.000000Z")]'],
    ["ts IN '$today'", '[("2024-03-10T00:00:00.000000Z","2024-03-10T23:59:59.999999Z")]'],
    ["ts IN '$now - 1h..$now'", '[("2024-03-10T14:30:00.000000Z","2024-03-10T15:30:00.000000Z")]'],
    // a literal bound and a runtime one intersect
    ["ts IN '2024-03-10' AND ts > dateadd('h', -1, now())", '[("2024-03-10T14:30:00.000001Z","2024-03-10T23:59:59.999999Z")]'],
    ["ts > dateadd('h', -1, now()) AND ts < now() AND v > 0", '[("2024-03-10T14:30:00.000001Z","2024-03-10T15:29:59.999999Z")]'],
    // a clock reading: read once for the bound (QuestDB reads it per row and scans everything)
    ['ts > systimestamp() - 3600000000', '[("2024-03-10T14:30:00.000001Z","MAX")]'],
    ['ts BETWEEN dateadd(\'d\', -1, systimestamp()) AND systimestamp()', '[("2024-03-09T15:30:00.000000Z","2024-03-10T15:30:00.000000Z")]'],
    ['ts < sysdate()', '[("MIN","2024-03-10T15:29:59.999999Z")]'],
    // today('Nowhere/Else') is a NULL interval: no row, nothing read
    ["ts IN today('Nowhere/Else')", '[]'],
  ]
  for (const [where, intervals] of cases) {
    const sql = `select v from t where ${where} order by ts`
    const p = await plan(db, sql)
    t.match(p, /Interval forward scan/, `${where}: interval scan`)
    t.equal(intervalsOf(p), intervals, `${where}: the execution's interval`)
    const full = `select v from t where (${where}) or v < 0 order by ts`
    t.match(await plan(db, full), /Row forward scan/, `${where}: the comparison reads every row`)
    t.same(await rows(db, sql), await rows(db, full), `${where}: the rows of a full scan`)
  }
  t.same(await rows(db, "select count() from t where ts > dateadd('h', -1, now())"), ['114'], 'counted in the interval')
  t.match(await plan(db, 'select v from t where ts > rnd_timestamp(0, 1, 0)'), /Row forward scan/, 'a random function is not a runtime constant')
  t.match(await plan(db, 'select v from t where ts > now() or v = 1'), /Row forward scan/, 'OR is not extracted')
})

t.test('a cached plan and a prepared statement read each execution\'s now()', async (t) => {
  let now = NOW
  const db = await setup(() => now)
  const sql = 'select count() from t where ts in today()'
  t.same(await rows(db, sql), ['48'])
  const ps = db.prepare("select min(ts) from t where ts > dateadd('h', -1, now())")
  const first = (await ps.query()).rows[0]![0]
  now += DAY
  t.same(await rows(db, sql), ['48'], 'the same text again: the next day, 48 rows')
  t.match(intervalsOf(await plan(db, sql)), /2024-03-11T00:00:00/, 'EXPLAIN shows the next day')
  const second = (await ps.query()).rows[0]![0]
  t.equal(Number(second) - Number(first), DAY, 'the prepared statement moved a day with now()')
  now += 3 * DAY
  t.same(await rows(db, sql), ['0'], 'past the last row: nothing')
  t.equal(intervalsOf(await plan(db, sql)), '[("2024-03-14T00:00:00.000000Z","2024-03-14T23:59:59.999999Z")]')
})

t.test('parameters bound per execution', async (t) => {
  const db = await setup(() => NOW)
  const sql = 'select v from t where ts > $1 and ts <= $2 order by ts'
  const full = 'select v from t where (ts > $1 and ts <= $2) or v < 0 order by ts'
  for (const [lo, hi] of [['2024-03-08T10:00:00Z', '2024-03-08T12:00:00Z'], ['2024-03-12', '2024-03-20']]) {
    t.same(await rows(db, sql, [lo, hi]), await rows(db, full, [lo, hi]), `${lo}..${hi}: same rows`)
  }
  t.same(await rows(db, sql, ['2024-03-08T10:00:00Z', '2024-03-08T12:00:00Z']), ['70', '71', '72', '73'])
  t.equal(intervalsOf(await plan(db, sql, ['2024-03-08T10:00:00Z', '2024-03-08T12:00:00Z'])), '[("2024-03-08T10:00:00.000001Z","2024-03-08T12:00:00.000000Z")]')
  t.same(await rows(db, 'select count() from t where ts > $1', [null]), ['0'], 'a NULL bound: no row')
  t.equal(intervalsOf(await plan(db, 'select v from t where ts > $1', [null])), '[]')
  // `ts IN $1` with an interval text
  t.same(await rows(db, 'select count() from t where ts in $1', ['2024-03-08']), ['48'])
  t.equal(intervalsOf(await plan(db, 'select v from t where ts in $1', ['2024-03-08;1d'])), '[("2024-03-08T00:00:00.000000Z","2024-03-09T23:59:59.999999Z")]')
  // a malformed text prunes nothing here; the filter reports it
  await t.rejects(db.query('select count() from t where ts in $1', ['nonsense']), { code: '22007' })
})

t.test('TIMESTAMP_NS: the microseconds covering the bounds, the filter decides to the nanosecond', async (t) => {
  const db = await setup(() => NOW)
  const cases: [string, string][] = [
    ['ts IN today()', '[("2024-03-10T00:00:00.000000Z","2024-03-10T23:59:59.999999Z")]'],
    ["ts > dateadd('h', -1, now())", '[("2024-03-10T14:30:00.000000Z","MAX")]'],
    ["ts IN '$today'", '[("2024-03-10T00:00:00.000000Z","2024-03-10T23:59:59.999999Z")]'],
    ["ts BETWEEN dateadd('d', -1, now()) AND now()", '[("2024-03-09T15:30:00.000000Z","2024-03-10T15:30:00.000000Z")]'],
  ]
  for (const [where, intervals] of cases) {
    const sql = `select v from n where ${where} order by ts`
    const p = await plan(db, sql)
    t.equal(intervalsOf(p), intervals, `${where}: the execution's interval`)
    t.same(await rows(db, sql), await rows(db, `select v from n where (${where}) or v < 0 order by ts`), `${where}: the rows of a full scan`)
  }
  t.same(await rows(db, 'select count() from n where ts > $1', ['2024-03-12T23:00:00.000000001Z']), ['2'], 'a nanosecond parameter')
  t.same(await rows(db, 'select count() from n where ts IN $1', ['2024-03-12T23']), ['2'], 'an interval text parameter')
})

t.test('LATERAL: outer columns (parameter slots set per row) are not resolved once', async (t) => {
  const db = await setup(() => NOW)
  await db.query('create table o (id long, at timestamp)')
  await db.query("insert into o values (1, '2024-03-08T00:00:00Z'), (2, '2024-03-12T12:00:00Z'), (3, '2024-03-20T00:00:00Z')")
  const lateral = (where: string) => `select o.id, c.n from o cross join lateral (select count() n from t where ${where}) c order by o.id`
  const sql = lateral("t.ts > o.at and t.ts > dateadd('d', -5, now())")
  // an inner LATERAL join with an aggregate keeps the left rows the subquery has rows for
  t.same((await db.query(sql)).rows.map((r) => r.map(String)), [['1', '239'], ['2', '23']])
  t.same((await db.query(sql)).rows, (await db.query(lateral("(t.ts > o.at and t.ts > dateadd('d', -5, now())) or v < 0"))).rows, 'the rows of a full scan')
  t.match(await plan(db, lateral("t.ts > o.at and t.ts > dateadd('d', -5, now())")), /intervals: \[\("2024-03-05T15:30:00.000001Z","MAX"\)\]/, 'now() is resolved in the subquery, the outer column is not')
})

t.test('a scalar subquery bound is computed once, before the scan: the rows of a full scan', async (t) => {
  const db = await setup(() => NOW)
  for (const [where, intervals] of [
    ['ts > (select max(ts) - 3600000000 from t)', '[("2024-03-12T22:30:00.000001Z","MAX")]'],
    ["ts BETWEEN (select min(ts) from t) AND (select dateadd('d', 1, min(ts)) from t)", '[("2024-03-07T00:00:00.000000Z","2024-03-08T00:00:00.000000Z")]'],
    ['ts = (select max(ts) from t)', '[("2024-03-12T23:30:00.000000Z","2024-03-12T23:30:00.000000Z")]'],
    ['(select max(ts) from t) <= ts', '[("2024-03-12T23:30:00.000000Z","MAX")]'],
    ['ts > (select max(ts) from t where v < 0)', '[]'],
  ]) {
    const sql = `select v from t where ${where} order by ts`
    t.same(await rows(db, sql), await rows(db, `select v from t where (${where}) or v < 0 order by ts`), `${where}: the rows of a full scan`)
    // as QuestDB's plan of a runtime interval, EXPLAIN computes the bound's subquery and lists the interval a run scans (none for a NULL bound)
    t.equal(intervalsOf(await plan(db, sql)), intervals, `${where}: EXPLAIN shows the interval`)
  }
  t.match(await plan(db, 'select o.id from (select 1 id) o cross join lateral (select count() n from t where t.ts > (select max(ts) from t) and t.v > o.id) c'), /Row forward scan/,
    'a bound inside a LATERAL right side is evaluated per row: EXPLAIN shows no interval for it')
  t.same(await rows(db, 'select count() from t where ts > (select max(ts) - 3600000000 from t)'), ['2'])
  t.same(await rows(db, 'select count() from t where ts > (select max(ts) from t where v < 0)'), ['0'], 'a NULL bound: no row')
  // inside a LATERAL right side it is not resolved (it may read outer columns), and still right
  await db.query('create table o (id long)')
  await db.query('insert into o values (1), (2)')
  t.same((await db.query('select o.id, c.n from o cross join lateral (select count() n from t where t.ts > (select max(ts) - 3600000000 from t) and t.v > o.id) c order by o.id')).rows.map((r) => r.map(String)), [['1', '2'], ['2', '2']])
  // nanoseconds: the covering microseconds narrow the scan, the filter decides
  t.same(await rows(db, 'select v from n where ts > (select max(ts) - 3600000000000 from n) order by ts'), ['287', '288'])
})

t.test('LATEST ON over an interval scan: the latest rows inside the interval', async (t) => {
  const db = await setup(() => NOW)
  await db.query('create table s (ts timestamp, sym symbol index, v long) timestamp(ts) partition by day')
  await db.query("insert into s select timestamp_sequence('2024-03-07', 1800000000L), case when x % 2 = 0 then 'a' else 'b' end, x from long_sequence(288)")
  for (const where of ['ts IN today()', "ts IN '2024-03-10'", "ts < dateadd('d', -1, now())", "ts < '2024-03-09T15:30:00Z'"]) {
    const sql = (w: string) => `select sym, v from s where ${w} latest on ts partition by sym order by sym`
    const got = (await db.query(sql(where))).rows.map((r) => r.map(String))
    t.same(got, (await db.query(sql(`(${where}) or v < 0`))).rows.map((r) => r.map(String)), `${where}: the rows of a full scan`)
    t.equal(got.length, 2, `${where}: one row per symbol`)
  }
  // the latest of 2024-03-10 are its last two rows (x = 192, 191), not the table's last ones
  t.same((await db.query("select sym, v from s where ts IN today() latest on ts partition by sym order by sym")).rows.map((r) => r.map(String)), [['a', '192'], ['b', '191']])
})
