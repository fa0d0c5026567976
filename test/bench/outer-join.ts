/**
 * Benchmark (not a test): INNER / LEFT / RIGHT / FULL joins, hash (equality key) and nested loop
 * (a `<` condition), EpochDB and DuckDB in one process, each query on both in turn for several
 * rounds so both see the same load. Reports best and median CPU time (`process.cpuUsage`, every
 * thread) and the ratio to DuckDB's. DuckDB runs on one thread (our joins use one).
 *
 *   node --import tsx test/bench/outer-join.ts [rows [rounds [<base tree>]]]
 *
 * `<base tree>` is a directory holding another copy of `lib/` (e.g. `git archive <commit> lib |
 * tar -x -C /tmp/base`): then its engine runs too, in turn with this tree's and DuckDB's, so base
 * and branch are compared under the same load. `EPOCHDB_BENCH_ONLY=<substring>` keeps the queries
 * whose text contains it.
 *
 * Data: f (rows rows): k = x mod (rows / 5) INT, v DOUBLE; d (rows / 10 rows): k = 2x mod (rows / 3),
 * w DOUBLE, so each side has keys the other lacks. The nested loops join 2,000 x 2,000 rows (INNER, LEFT,
 * RIGHT, FULL on `<`, INNER on an OR of `=` and `<`) and 20,000 x 200 rows.
 */
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'

const ROWS = Number(process.argv[2] ?? 1_000_000)
const ROUNDS = Number(process.argv[3] ?? 5)
const BASE = process.argv[4] !== undefined ? resolve(process.argv[4]) : undefined
const ONLY = process.env['EPOCHDB_BENCH_ONLY']
const ALL = [
  'SELECT count(*), sum(f.v), sum(d.w) FROM f JOIN d ON f.k = d.k',
  'SELECT count(*), sum(f.v), sum(d.w) FROM f LEFT JOIN d ON f.k = d.k',
  'SELECT count(*), sum(f.v), sum(d.w) FROM f RIGHT JOIN d ON f.k = d.k',
  'SELECT count(*), sum(f.v), sum(d.w) FROM f FULL JOIN d ON f.k = d.k',
  'SELECT count(*), sum(f.v), sum(d.w) FROM f FULL JOIN d ON f.k = d.k AND d.w > f.v',
  'SELECT count(*), sum(f.v), sum(d.w) FROM f LEFT JOIN d ON f.k = d.k AND d.w > f.v',
  'SELECT count(*), sum(a.v), sum(b.v) FROM (SELECT * FROM f LIMIT 2000) a JOIN (SELECT * FROM f LIMIT 2000) b ON a.v < b.v - 0.5',
  'SELECT count(*), sum(a.v), sum(b.v) FROM (SELECT * FROM f LIMIT 2000) a LEFT JOIN (SELECT * FROM f LIMIT 2000) b ON a.v < b.v - 0.5',
  'SELECT count(*), sum(a.v), sum(b.v) FROM (SELECT * FROM f LIMIT 2000) a RIGHT JOIN (SELECT * FROM f LIMIT 2000) b ON a.v < b.v - 0.5',
  'SELECT count(*), sum(a.v), sum(b.v) FROM (SELECT * FROM f LIMIT 2000) a FULL JOIN (SELECT * FROM f LIMIT 2000) b ON a.v < b.v - 0.5',
  'SELECT count(*), sum(a.v), sum(b.v) FROM (SELECT * FROM f LIMIT 2000) a JOIN (SELECT * FROM f LIMIT 2000) b ON a.k = b.k OR a.v < b.v - 0.9',
  'SELECT count(*), sum(a.v), sum(b.v) FROM (SELECT * FROM f LIMIT 20000) a JOIN (SELECT * FROM f LIMIT 200) b ON a.v < b.v - 0.5',
]
const SQL = ONLY === undefined ? ALL : ALL.filter((q) => q.includes(ONLY))

function cpuMs(): number { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }

const nf = ROWS, nd = Math.floor(ROWS / 10), kf = Math.floor(ROWS / 5), kd = Math.floor(ROWS / 3)
/** An EpochDB of the tree at `lib` with tables f and d. */
async function openEpoch(lib: string): Promise<import('../../lib/index.js').Database> {
  const { Database } = await import(pathToFileURL(resolve(lib, 'index.ts')).href) as typeof import('../../lib/index.js')
  const db = await Database.open()
  await db.query('CREATE TABLE f (k INT, v DOUBLE)')
  await db.query('CREATE TABLE d (k INT, w DOUBLE)')
  const k = new Int32Array(nf), v = new Float64Array(nf)
  for (let i = 0; i < nf; i++) { k[i] = (i + 1) % kf; v[i] = ((i * 7919) % 1000) / 1000 }
  await db.append('f', { k, v })
  const k2 = new Int32Array(nd), w = new Float64Array(nd)
  for (let i = 0; i < nd; i++) { k2[i] = (2 * (i + 1)) % kd; w[i] = ((i * 104729) % 1000) / 1000 }
  await db.append('d', { k: k2, w })
  return db
}
const dbs = [...(BASE === undefined ? [] : [{ name: 'base', db: await openEpoch(resolve(BASE, 'lib')) }]), { name: 'epochdb', db: await openEpoch(resolve(import.meta.dirname, '../../lib')) }]
const { DuckDBInstance } = await import('@duckdb/node-api')
const inst = await DuckDBInstance.create(':memory:')
const conn = await inst.connect()
await conn.run('SET threads = 1')
await conn.run(`CREATE TABLE f AS SELECT ((x + 1) % ${kf})::INTEGER k, ((x * 7919) % 1000) / 1000.0 v FROM range(0, ${nf}) t(x) ORDER BY x`)
await conn.run(`CREATE TABLE d AS SELECT ((2 * (x + 1)) % ${kd})::INTEGER k, ((x * 104729) % 1000) / 1000.0 w FROM range(0, ${nd}) t(x) ORDER BY x`)

const text = (x: unknown): string => (typeof x === 'number' ? x.toFixed(3) : String(x))
const engines = [
  ...dbs.map(({ name, db }) => ({ name, run: async (q: string) => (await db.query(q)).rows.map((r) => r.map(text).join(' ')).join('|') })),
  { name: 'duckdb', run: async (q: string) => (await conn.runAndReadAll(q)).getRows().map((r) => r.map(text).join(' ')).join('|') },
]
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]! }
console.log(`joins vs DuckDB (1 thread), f ${nf.toLocaleString('en-US')} x d ${nd.toLocaleString('en-US')} rows, ${ROUNDS} rounds, ${new Date().toISOString()}`)
for (const q of SQL) {
  const cpu = engines.map(() => [] as number[])
  const outs: string[] = []
  for (const e of engines) outs.push(await e.run(q)) // warm-up, and the answers must agree
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < engines.length; i++) {
      const c0 = cpuMs(), t0 = performance.now()
      await engines[i]!.run(q)
      void (performance.now() - t0)
      cpu[i]!.push(cpuMs() - c0)
    }
  }
  const stats = cpu.map((c) => ({ best: Math.min(...c), median: median(c) }))
  const duck = stats[stats.length - 1]!
  console.log(q)
  for (let i = 0; i < engines.length - 1; i++) {
    const ours = stats[i]!
    const same = outs[i] === outs[engines.length - 1] ? '' : `  ANSWERS DIFFER: ${outs[i]} vs ${outs[engines.length - 1]}`
    console.log(`  ${engines[i]!.name.padEnd(7)} CPU best ${ours.best.toFixed(0)} ms vs ${duck.best.toFixed(0)} ms (${(ours.best / duck.best).toFixed(2)}x), median ${ours.median.toFixed(0)} vs ${duck.median.toFixed(0)} (${(ours.median / duck.median).toFixed(2)}x)${same}`)
  }
}
for (const { db } of dbs) await db.close()
conn.closeSync()
inst.closeSync()
