// Rule push-filters-into-joins: which WHERE conjuncts move below which joins (EXPLAIN shapes), that
// the answers equal those of the same query with the join behind a LIMIT (a barrier the rule never
// crosses) over random tables with nulls and unmatched rows, and that a pushed designated-timestamp
// conjunct reads one partition of a durable table.
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { Rng } from '../../../adapters/random-vectors.js'
import { STORAGE_STATS, resetStorageStats } from '../../../../lib/storage/durable/part-cache.js'
import { tmpDir } from '../../storage/helpers.js'

const plan = async (db: Database, sql: string): Promise<string> => (await db.query(`explain ${sql}`)).rows.map((r) => String(r[0])).join('\n')

/** Rows as sorted text lines. */
async function rows(db: Database, sql: string): Promise<string[]> {
  return (await db.query(sql)).rows.map((r) => r.map((v) => String(v)).join('|')).sort()
}

const DAY = 86_400_000_000
const BASE = Date.UTC(2024, 0, 1) * 1000

async function setup(seed: number, path?: string): Promise<Database> {
  const r = new Rng(seed)
  const db = await Database.open(path === undefined ? {} : { path })
  await db.query('create table t (ts timestamp, k int, v double, s symbol) timestamp(ts) partition by day')
  await db.query('create table p (ts timestamp, k int, name string) timestamp(ts) partition by day')
  const tv: string[] = []
  for (let i = 0; i < 300; i++) {
    const ts = BASE + r.int(6) * DAY + r.int(DAY)
    const k = r.int(6) === 0 ? 'null' : String(r.int(8))
    const v = r.int(7) === 0 ? 'null' : String(r.int(100) / 4)
    const s = r.int(5) === 0 ? 'null' : `'s${r.int(3)}'`
    tv.push(`(${ts}::timestamp, ${k}, ${v}, ${s})`)
  }
  const pv: string[] = []
  for (let i = 0; i < 60; i++) {
    const ts = BASE + r.int(6) * DAY + r.int(DAY)
    const k = r.int(6) === 0 ? 'null' : String(r.int(12)) // keys 8..11 match no row of t
    const name = r.int(4) === 0 ? 'null' : `'n${r.int(4)}'`
    pv.push(`(${ts}::timestamp, ${k}, ${name})`)
  }
  await db.query(`insert into t values ${tv.join(', ')}`)
  await db.query(`insert into p values ${pv.join(', ')}`)
  return db
}

const COLS = 't.ts tts, t.k tk, t.v, t.s, p.ts pts, p.k pk, p.name'
const JOINS = ['join p on t.k = p.k', 'left join p on t.k = p.k', 'cross join p', 'join p on t.k = p.k and p.name <> t.s',
  'left join p on t.k = p.k and p.name > \'n1\'', 'left join p on t.k = p.k and t.v > 5 and p.ts in \'2024-01-02\'', 'join p on t.k = p.k and t.ts in \'2024-01-03\' and p.name is not null', 'asof join p on (k)', 'asof join p', 'lt join p on (k)', 'splice join p on (k)', 'asof join p on (k) tolerance 12h',
  'right join p on t.k = p.k', 'full join p on t.k = p.k', 'right join p on t.k = p.k and t.v > 5 and p.ts in \'2024-01-02\'',
  'full join p on t.k = p.k and p.name <> t.s and t.v > 5 and p.name > \'n1\'', 'right outer join p on t.k < p.k and t.ts in \'2024-01-03\'']
const WHERES = [
  "t.ts in '2024-01-03'", "t.ts >= '2024-01-02' and t.ts < '2024-01-04T06:00' and t.v > 5", 'p.name is null', "p.name = 'n1' and t.v < 20",
  "t.s = 's1' and p.k > 3", 't.v is null or p.k is null', "p.ts in '2024-01-02' and t.ts in '2024-01-02'", 't.k + p.k > 6', 'coalesce(p.k, -1) = -1',
  // uncorrelated subqueries move with their conjunct
  't.v > (select avg(v) from t)', 'p.k in (select k from t where v > 20) and t.ts > (select min(ts) + 86400000000 from p)',
]

t.test('answers equal those of the unpushed plan for every join type', async (t) => {
  for (const seed of [1, 2]) {
    const db = await setup(seed)
    for (const j of JOINS) {
      for (const w of WHERES) {
        if (j.startsWith('cross') && w.startsWith('t.v is null')) continue // 300 x 60 rows: fine, but keep the run short
        const pushed = `select ${COLS} from t ${j} where ${w}`
        const reference = `select * from (select ${COLS} from t ${j} limit 1000000000) t where ${w.replaceAll('t.ts', 'tts').replaceAll('t.k', 'tk').replaceAll('p.ts', 'pts').replaceAll('p.k', 'pk').replaceAll('t.v', 'v').replaceAll('t.s', 's').replaceAll('p.name', 'name')}`
        t.same(await rows(db, pushed), await rows(db, reference), `seed ${seed}: ${pushed}`)
      }
    }
    await db.close()
  }
})

t.test('EXPLAIN: what moves below which join', async (t) => {
  const db = await setup(3)
  const interval = /Interval forward scan\n\s+Frame forward scan on: t\n\s+intervals: \[\("2024-01-03T00:00:00.000000Z","2024-01-03T23:59:59.999999Z"\)\]/
  // INNER: a timestamp conjunct on t becomes t's interval scan, nothing stays above
  let p = await plan(db, "select * from t join p on t.k = p.k where t.ts in '2024-01-03'")
  t.match(p, /^Hash Join/, 'inner: no filter above the join')
  t.match(p, interval, 'inner: t scans one day')
  // INNER / CROSS: a conjunct on the right side goes to the right
  p = await plan(db, "select * from t cross join p where p.name = 'n1'")
  t.match(p, /^Hash Join\n\s+Row forward scan\n\s+Frame forward scan on: t\n\s+Filter\n/, 'cross: the filter is on p')
  // a conjunct naming both sides stays
  p = await plan(db, 'select * from t join p on t.k = p.k where t.v > p.k')
  t.match(p, /^Filter\n\s+Hash Join/, 'both sides: stays above')
  // LEFT: the left side only
  p = await plan(db, "select * from t left join p on t.k = p.k where t.ts in '2024-01-03' and p.name is null")
  t.match(p, /^Filter\n\s+Hash Outer Join\n/, 'left: a right-side conjunct stays above (null extension)')
  t.match(p, interval, 'left: the left side scans one day')
  // ASOF / LT: the left side only
  for (const kind of ['asof', 'lt']) {
    p = await plan(db, `select * from t ${kind} join p on (k) where t.ts in '2024-01-03' and p.name = 'n1'`)
    t.match(p, /^Filter\n/, `${kind}: a right-side conjunct stays above`)
    t.match(p, interval, `${kind}: the left side scans one day`)
    p = await plan(db, `select * from t ${kind} join p on (k) where p.ts in '2024-01-03'`)
    t.match(p, /^Filter\n/, `${kind}: a right-side timestamp conjunct stays above`)
    t.notMatch(p, /Interval forward scan/, `${kind}: p is not narrowed`)
  }
  // ON conjuncts: INNER either side; LEFT the right side only
  p = await plan(db, "select * from t join p on t.k = p.k and t.ts in '2024-01-03' and p.name = 'n1'")
  t.match(p, /^Hash Join\n\s+Interval forward scan[^]*Filter\n\s+Row forward scan\n\s+Frame forward scan on: p/, 'inner ON: t narrowed, p filtered')
  p = await plan(db, "select * from t left join p on t.k = p.k and t.ts in '2024-01-03' and p.ts in '2024-01-03'")
  t.match(p, /^Hash Outer Join\n\s+Row forward scan\n\s+Frame forward scan on: t\n\s+Interval forward scan\n\s+Frame forward scan on: p/, 'left ON: p narrowed, t read whole (its rows are all kept)')
  // RIGHT: the mirror of LEFT; FULL: nothing moves, from WHERE or ON
  p = await plan(db, "select * from t right join p on t.k = p.k where p.ts in '2024-01-03' and t.v is null")
  t.match(p, /^Filter\n\s+Hash Right Outer Join\n\s+Row forward scan\n\s+Frame forward scan on: t\n\s+Interval forward scan\n\s+Frame forward scan on: p/, 'right: p narrowed, the left-side conjunct stays above')
  p = await plan(db, "select * from t right join p on t.k = p.k and t.ts in '2024-01-03' and p.ts in '2024-01-03'")
  t.match(p, /^Hash Right Outer Join\n\s+Interval forward scan\n\s+Frame forward scan on: t\n[^]*Row forward scan\n\s+Frame forward scan on: p/, 'right ON: t narrowed, p read whole (its rows are all kept)')
  p = await plan(db, "select * from t full join p on t.k = p.k and t.ts in '2024-01-03' and p.ts in '2024-01-03' where t.v > 1 and p.name = 'n1'")
  t.match(p, /^Filter\n\s+Hash Full Outer Join\n\s+Row forward scan\n\s+Frame forward scan on: t\n\s+Row forward scan\n\s+Frame forward scan on: p/, 'full: nothing moves')
  t.match(await plan(db, 'select * from t full join p on t.k < p.k'), /^Nested Loop Full Join/, 'full, no keys: a nested loop')
  // SPLICE: nothing moves
  p = await plan(db, "select * from t splice join p on (k) where t.ts in '2024-01-03'")
  t.match(p, /^Filter\n/, 'splice: stays above')
  t.notMatch(p, /Interval forward scan/, 'splice: no side narrowed')
  // into a plain subquery (projection, filter), past GROUP BY / DISTINCT on their keys, not past LIMIT / a window / SAMPLE BY's bucket
  p = await plan(db, "select * from (select ts, k, v * 2 w from t where v > 1) a join p on a.k = p.k where a.ts in '2024-01-03' and a.w > 3")
  t.match(p, /^Hash Join\n\s+VirtualRecord\n\s+Filter\n\s+Interval forward scan/, 'through a projection and merged into the subquery filter')
  for (const sub of ['select ts, k, count() c from t', 'select distinct ts, k from t']) {
    p = await plan(db, `select * from (${sub}) a join p on a.k = p.k where a.ts in '2024-01-03'`)
    t.match(p, /^Hash Join\n\s+(GroupBy|Distinct)[^]*\n\s+Interval forward scan\n\s+Frame forward scan on: t\n/, `${sub}: a key conjunct goes below the grouping, t narrowed`)
  }
  for (const sub of ['select ts, k from t limit 10', 'select ts, k, row_number() over (order by ts) rn from t', 'select ts, k, count() c from t sample by 1h']) {
    p = await plan(db, `select * from (${sub}) a join p on a.k = p.k where a.ts in '2024-01-03'`)
    t.match(p, /Filter\n\s+(Limit|GroupBy|Async|Distinct|Window|Sample|Hash|Row forward scan|VirtualRecord)/, `${sub}: the filter stays on top of the subquery`)
    t.notMatch(p, interval, `${sub}: t is not narrowed`)
  }
  // a correlated subquery in a side's select list: the conjunct on it stays on top of that side's projection
  const corr = 'select a.k, a.m, p.name from (select k, (select max(v) from t t2 where t2.k = t1.k) m from t t1) a join p on a.k = p.k'
  t.same(await rows(db, `${corr} where a.m > 10 and p.name <> 'n0'`), await rows(db, `select * from (${corr} limit 1000000000) where m > 10 and name <> 'n0'`), 'correlated subquery in a side: same answers')
  // an uncorrelated subquery bound moves onto its side
  t.match(await plan(db, 'select * from t join p on t.k = p.k where t.ts > (select max(ts) - 3600000000 from t)'), /^Hash Join\n\s+Interval forward scan\n\s+Frame forward scan on: t\n\s+intervals: \[\("\d{4}-/, 'subquery bound: on t, as its interval scan (EXPLAIN computes the bound)')
  // a nondeterministic conjunct stays above
  t.match(await plan(db, 'select * from t join p on t.k = p.k where rnd_int(0, 1, 0) = 1'), /^Filter\n\s+Hash Join/, 'rnd_*: stays')
  // three tables: the conjunct on t reaches t under both joins
  p = await plan(db, "select * from t join p on t.k = p.k join p q on q.k = t.k where t.ts in '2024-01-03' and q.name = 'n2'")
  t.match(p, interval, 'nested joins: t scans one day')
  t.notMatch(p, /^Filter/, 'nested joins: nothing above')
  await db.close()
})

t.test('runtime bounds ($1, now()) on a pushed conjunct still narrow the scan per execution', async (t) => {
  const db = await setup(4)
  const q = 'select count() from t join p on t.k = p.k where t.ts >= $1 and t.ts < $2'
  const ref = 'select count() from (select t.ts tts from t join p on t.k = p.k limit 1000000000) where tts >= $1 and tts < $2'
  for (const day of ['2024-01-02', '2024-01-05']) {
    const hi = day.replace(/(\d\d)$/, (d) => String(Number(d) + 1).padStart(2, '0'))
    t.same((await db.query(q, [day, hi])).rows, (await db.query(ref, [day, hi])).rows, `parameters ${day}`)
  }
  t.match(await plan(db, "select * from t join p on t.k = p.k where t.ts > dateadd('d', -1, now())"), /^Hash Join\n\s+Interval forward scan/, 'now(): an interval scan')
  await db.close()
})

t.test('a pushed timestamp conjunct loads one partition of a durable table', async (t) => {
  const dir = tmpDir(t, 'epochdb-pushdown-')
  const db0 = await setup(5, dir)
  await db0.close()
  resetStorageStats()
  const db = await Database.open({ path: dir })
  const partitions = async (name: string) => Number((await db.query(`select count() from table_partitions('${name}')`)).rows[0]![0])
  const PARTITIONS = (await partitions('t')) + (await partitions('p'))
  resetStorageStats()
  const r = await db.query("select count() from t join p on t.k = p.k where t.ts in '2024-01-03' and p.ts in '2024-01-03'")
  t.equal(STORAGE_STATS.partitionLoads, 2, 'one partition of t and one of p')
  resetStorageStats()
  const ref = await db.query("select count() from (select t.ts tts, p.ts pts from t join p on t.k = p.k limit 1000000000) where tts in '2024-01-03' and pts in '2024-01-03'")
  t.same(r.rows, ref.rows, 'the same count as the unpushed plan')
  t.equal(STORAGE_STATS.partitionLoads, PARTITIONS - 2, 'the unpushed plan loads every other partition of both tables (the two read above stay loaded)')
  resetStorageStats()
  await db.query("select count() from t asof join p on (k) where t.ts in '2024-01-03'")
  t.ok(STORAGE_STATS.partitionLoads <= 1 + 6, 'asof: one partition of t (p is read whole)')
  await db.close()
})
