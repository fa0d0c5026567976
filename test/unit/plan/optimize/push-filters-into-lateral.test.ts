// Rule push-filters-into-lateral: which WHERE conjuncts over a LATERAL join or a correlated
// subquery's apply step move to its left side or into its subquery (EXPLAIN shapes), and that the
// answers equal those of the same query behind a LIMIT (a barrier no rule crosses) over random
// tables with NULLs, for INNER / LEFT / CROSS LATERAL joins, per-row and decorrelated.
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { Rng } from '../../../adapters/random-vectors.js'

const plan = async (db: Database, sql: string): Promise<string> => (await db.query(`explain ${sql}`)).rows.map((r) => String(r[0])).join('\n')

/** Rows as sorted text lines. */
async function rows(db: Database, sql: string): Promise<string[]> {
  return (await db.query(sql)).rows.map((r) => r.map((v) => String(v)).join('|')).sort()
}

const MINUTE = 60_000_000
const BASE = Date.UTC(2024, 0, 1) * 1000

async function setup(seed: number): Promise<Database> {
  const r = new Rng(seed)
  const db = await Database.open({})
  await db.query('create table t (ts timestamp, k symbol index, g int, v double) timestamp(ts) partition by day')
  await db.query('create table u (uts timestamp, uk symbol, ug int, w double) timestamp(uts) partition by day')
  const nul = (p: string) => (r.int(6) === 0 ? 'null' : p)
  const tv: string[] = []
  for (let i = 0; i < 60; i++) tv.push(`(${BASE + i * MINUTE}::timestamp, ${nul(`'${'abc'[r.int(3)]}'`)}, ${nul(String(r.int(6)))}, ${nul(String(r.int(40)))})`)
  const uv: string[] = []
  for (let i = 0; i < 80; i++) uv.push(`(${BASE + i * MINUTE}::timestamp, ${nul(`'${'abc'[r.int(3)]}'`)}, ${nul(String(r.int(6)))}, ${nul(String(r.int(60)))})`)
  await db.query(`insert into t values ${tv.join(', ')}`)
  await db.query(`insert into u values ${uv.join(', ')}`)
  return db
}

const LATERALS = [
  'join lateral (select ug, w from u where u.uk = t.k) x', // decorrelated: a hash join
  'join lateral (select ug, w from u where u.ug < t.g) x', // per row
  'join lateral (select ug, sum(w) w from u where u.ug <= t.g group by ug) x',
  'join lateral (select ug, w from u where u.ug < t.g order by w desc limit 2) x',
  'left join lateral (select ug, w from u where u.ug < t.g limit 3) x on true',
  'left join lateral (select ug, w from u where u.ug < t.g) x on x.w > t.v',
  'cross join lateral (select ug, w from u limit 3) x', // uncorrelated
  'join lateral (select count() ug, max(w) w from u where u.ug < t.g) x', // no GROUP BY: only left rows with right rows
  'join lateral (select ug, w from u where u.ug < t.g) x on x.w > 10',
]

const WHERES = [
  't.g = 1', "t.k = 'a' and x.w > 20", 'x.w > t.v', 'x.w is null', 't.v is null or x.w > 50', 'x.ug = t.g - 1',
  "x.w > t.v and t.k <> 'b' and x.ug is not null", 'coalesce(x.w, -1) = -1 and t.g > 2', 't.g + x.ug > 6',
]

const unqualified = (w: string) => w.replaceAll('t.', '').replaceAll('x.', '')

t.test('answers equal those of the unpushed plan', async (t) => {
  for (const seed of [1]) { // one seed: the file must end within the runner's 30 s on a loaded machine
    const db = await setup(seed)
    for (const l of LATERALS) {
      for (const w of WHERES) {
        const pushed = `select t.k, t.g, t.v, x.ug, x.w from t ${l} where ${w}`
        const reference = `select * from (select t.k, t.g, t.v, x.ug, x.w from t ${l} limit 1000000000) where ${unqualified(w)}`
        t.same(await rows(db, pushed), await rows(db, reference), `seed ${seed}: ${pushed}`)
      }
    }
    // SYMBOL columns of both sides in one conjunct: the left one becomes a SYMBOL parameter slot
    for (const w of ['x.uk = t.k', 'x.uk <> t.k and x.w > 5', 'x.uk in (t.k)', 't.k is null and x.uk is null', "concat(x.uk, t.k) = 'ab'"]) {
      const l = 'join lateral (select uk, w from u where u.ug < t.g) x'
      t.same(await rows(db, `select t.k, t.g, x.uk, x.w from t ${l} where ${w}`), await rows(db, `select * from (select t.k, t.g, x.uk, x.w from t ${l} limit 1000000000) where ${unqualified(w)}`), `seed ${seed}: symbols, where ${w}`)
    }
    // a correlated subquery in WHERE (an apply step under the filter), per row and decorrelated
    for (const w of ["k = 'a' and exists (select 1 from u where u.ug < t.g and u.w > t.v)", "g > 2 and not exists (select 1 from u where u.uk = t.k and u.w > 50)",
      'v > 10 and g in (select ug from u where u.w < t.v)', "(k = 'b' or v is null) and v < (select max(w) from u where u.ug = t.g)"]) {
      t.same(await rows(db, `select k, g, v from t where ${w}`), await rows(db, `select * from (select k, g, v from t limit 1000000000) t where ${w}`), `seed ${seed}: where ${w}`)
    }
    // a correlated subquery in the select list (an apply step): left-side conjuncts go below it
    for (const w of ["k = 'a' and m > 10", 'g > 2 or m is null', 'm > v']) {
      const sub = 'select t.k, t.g, t.v, (select max(w) from u where u.ug < t.g) m from t'
      t.same(await rows(db, `select * from (${sub}) where ${w}`), await rows(db, `select * from (${sub} limit 1000000000) where ${w}`), `seed ${seed}: apply, where ${w}`)
    }
    await db.close()
  }
})

t.test('EXPLAIN: what moves where', async (t) => {
  const db = await setup(3)
  let p = await plan(db, "select * from t join lateral (select ug, w from u where u.ug < t.g) x where t.k = 'a' and x.w > 20 and x.w > t.v")
  t.match(p, /^Lateral Join\n\s+Filter\n\s+Row forward scan\n\s+Frame forward scan on: t\n\s+Index forward scan on: k \(1 key\)\n\s+VirtualRecord\n\s+Filter\n\s+Row forward scan\n\s+Frame forward scan on: u/, 'inner: the left conjunct on the left (its index), the right and mixed ones into the subquery, nothing above')
  p = await plan(db, "select * from t left join lateral (select ug, w from u where u.ug < t.g) x on true where t.k = 'a' and x.w > 20")
  t.match(p, /^Filter\n\s+Lateral Outer Join\n\s+Filter\n\s+Row forward scan\n\s+Frame forward scan on: t\n\s+Index forward scan on: k/, 'left: the left conjunct moves, the right one stays above (NULLs of left rows without right rows)')
  p = await plan(db, 'select * from t cross join lateral (select ug, w from u limit 3) x where x.w > t.v')
  t.match(p, /^Filter\n\s+Lateral Join/, 'uncorrelated: a mixed conjunct stays above (the subquery gets no parameters)')
  p = await plan(db, 'select * from t cross join lateral (select ug, w from u limit 3) x where x.w > 5')
  t.match(p, /^Lateral Join\n[^]*\n\s+Filter\n\s+Limit/, 'a right conjunct goes into the subquery, above its LIMIT')
  p = await plan(db, "select * from (select t.k, (select max(w) from u where u.ug < t.g) m from t) where k = 'a' and m > 1")
  t.match(p, /Filter\n\s+Correlated Scalar Subquery\n\s+Filter\n\s+Row forward scan\n\s+Frame forward scan on: t\n\s+Index forward scan on: k/, 'apply: the left conjunct below it, the one on its value above')
  t.match(await plan(db, "select * from t join lateral (select ug, w from u where u.ug < t.g) x where x.w > rnd_double() * 50"), /^Filter\n\s+Lateral Join/, 'a per-call function stays above')
  t.match(await plan(db, 'select * from t join lateral (select uk, w from u where u.ug < t.g) x where x.uk = t.k'), /^Lateral Join\n/, 'a symbol equality of both sides goes into the subquery')
  await db.close()
})
