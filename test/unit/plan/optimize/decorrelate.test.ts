/**
 * Rule `decorrelate-subqueries` (lib/plan/optimize/decorrelate.ts), differentially: over seeded
 * random tables with NULL keys, duplicate keys and NULL values, each decorrelated subquery
 * (EXPLAIN shows its hash join) must return what a per-row LATERAL join of the same subquery
 * returns, for INT, SYMBOL-against-STRING, TIMESTAMP and two-column keys.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'

/** A small deterministic generator (LCG), so a failure reproduces. */
function random(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

const KEYS: readonly { name: string; inner: string; outer: string }[] = [
  { name: 'INT', inner: 'u.k', outer: 't.k' },
  { name: 'SYMBOL = STRING', inner: 'u.s', outer: 't.s' },
  { name: 'TIMESTAMP', inner: 'u.ts', outer: 't.ts' },
  { name: 'two columns', inner: 'u.k', outer: 't.k AND u.s = t.s' },
]

async function tables(db: Database, seed: number): Promise<void> {
  const r = random(seed)
  const pick = (n: number, nulls = 0.2): string => (r() < nulls ? 'NULL' : String(Math.floor(r() * n)))
  const text = (n: number): string => (r() < 0.2 ? 'NULL' : `'s${Math.floor(r() * n)}'`)
  const stamp = (n: number): string => (r() < 0.2 ? 'NULL' : `'2024-01-0${1 + Math.floor(r() * n)}T00:00:00Z'`)
  await db.query('CREATE TABLE t (x INT, k INT, s SYMBOL, ts TIMESTAMP, p INT)')
  await db.query('CREATE TABLE u (k INT, s STRING, ts TIMESTAMP, v INT)')
  const outer = Array.from({ length: 60 }, (_, i) => `(${i}, ${pick(8)}, ${text(6)}, ${stamp(6)}, ${pick(5)})`)
  const inner = Array.from({ length: 40 }, () => `(${pick(10)}, ${text(8)}, ${stamp(8)}, ${pick(5)})`)
  await db.query(`INSERT INTO t VALUES ${outer.join(', ')}`)
  await db.query(`INSERT INTO u VALUES ${inner.join(', ')}`)
}

const rows = async (db: Database, sql: string): Promise<unknown[][]> => (await db.query(sql)).rows
const plan = async (db: Database, sql: string): Promise<string> => (await rows(db, `EXPLAIN ${sql}`)).map((r) => String(r[0])).join('\n')

for (const seed of [1, 2, 3]) {
  t.test(`seed ${seed}: decorrelated = per-row LATERAL`, async (t) => {
    const db = await Database.open()
    t.teardown(() => db.close())
    await tables(db, seed)
    for (const key of KEYS) {
      const on = `${key.inner} = ${key.outer}`
      const lateral = (agg: string, extra = ''): string => `SELECT t.x, l.c FROM t LEFT JOIN LATERAL (SELECT ${agg} c FROM u WHERE ${on}${extra}) l ON true ORDER BY t.x`
      const counts = await rows(db, lateral('count()'))
      const valueCounts = await rows(db, lateral('count()', ' AND u.v = t.p'))
      const xs = (list: unknown[][], keep: (c: bigint) => boolean): unknown[] => list.filter((r) => keep(r[1] as bigint)).map((r) => r[0])
      const cases: [string, string, unknown[]][] = [
        ['EXISTS', `SELECT x FROM t WHERE EXISTS (SELECT 1 FROM u WHERE ${on}) ORDER BY x`, xs(counts, (c) => c > 0n)],
        ['NOT EXISTS', `SELECT x FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE ${on}) ORDER BY x`, xs(counts, (c) => c === 0n)],
        ['IN', `SELECT x FROM t WHERE p IN (SELECT v FROM u WHERE ${on}) ORDER BY x`, xs(valueCounts, (c) => c > 0n)],
        ['NOT IN', `SELECT x FROM t WHERE p NOT IN (SELECT v FROM u WHERE ${on}) ORDER BY x`, xs(valueCounts, (c) => c === 0n)],
      ]
      for (const [what, sql, expected] of cases) {
        t.match(await plan(db, sql), /Hash (Semi|Anti) Join/, `${key.name} ${what}: a hash join`)
        t.same((await rows(db, sql)).map((r) => r[0]), expected, `${key.name} ${what}`)
      }
      for (const agg of ['max(v)', 'count(v)', 'count()', 'sum(v) + 1']) {
        const sql = `SELECT x, (SELECT ${agg} FROM u WHERE ${on}) FROM t ORDER BY x`
        t.match(await plan(db, sql), /Hash Left Join \(scalar subquery\)/, `${key.name} ${agg}: a hash join`)
        t.same(await rows(db, sql), await rows(db, lateral(agg)), `${key.name} ${agg}`)
      }
    }
  })
}
