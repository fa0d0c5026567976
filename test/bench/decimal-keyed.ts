/**
 * Benchmark (not a test): the keyed aggregations of `decimal.ts` (plus negative INT and LONG keys)
 * on two EpochDB trees and DuckDB in one process, each query on the three in turn for several
 * rounds, so all three see the same load. Reports best and median CPU time (`process.cpuUsage`,
 * every thread of the process) and wall time, and each as a ratio of DuckDB's.
 *
 *   node --import tsx test/bench/decimal-keyed.ts [<base tree> [rows [rounds]]]
 *
 * `<base tree>` is a directory holding another copy of `lib/` (e.g. `git archive <commit> lib |
 * tar -x -C /tmp/base`); without it only this tree and DuckDB run. `EPOCHDB_WORKERS=0` and
 * `EPOCHDB_BENCH_DUCK_THREADS=1` run both engines on one thread (CPU time then equals the work).
 * `EPOCHDB_BENCH_ONLY=<substring>` keeps the queries whose text contains it; `EPOCHDB_BENCH_SQL=<q>|<q>…` runs
 * exactly these queries in this order (the first query of a run also pays the workers' start-up and JIT).
 * Data as `decimal.ts`: v DECIMAL(18,4) = ((x * 7919) mod 10^8) / 10^4, w the same as DOUBLE,
 * k = x mod 100 (INT), nk = k - 50 (INT), l = 10^12 + k (LONG).
 */
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'
import { warmWorkers } from './warm-workers.js'

const BASE = process.argv[2] !== undefined && process.argv[2] !== '-' ? resolve(process.argv[2]) : undefined
const ROWS = Number(process.argv[3] ?? 4_000_000)
const ROUNDS = Number(process.argv[4] ?? 11)
const ONLY = process.env['EPOCHDB_BENCH_ONLY']
const DUCK_THREADS = process.env['EPOCHDB_BENCH_DUCK_THREADS']
const ALL = [
  'SELECT k, sum(v) FROM d GROUP BY k ORDER BY k', 'SELECT k, avg(v) FROM d GROUP BY k ORDER BY k',
  'SELECT k, sum(w) FROM d GROUP BY k ORDER BY k', 'SELECT nk, sum(v) FROM d GROUP BY nk ORDER BY nk',
  'SELECT l, sum(v) FROM d GROUP BY l ORDER BY l', 'SELECT k, min(v), max(v) FROM d GROUP BY k ORDER BY k',
  'SELECT k, count(v) FROM d GROUP BY k ORDER BY k', 'SELECT sum(v) FROM d', 'SELECT avg(v) FROM d', 'SELECT count(v) FROM d',
]
const LIST = process.env['EPOCHDB_BENCH_SQL']
const SQL = LIST !== undefined ? LIST.split('|') : ONLY === undefined ? ALL : ALL.filter((q) => q.includes(ONLY))

interface Engine { name: string; run(q: string): Promise<string> }

function cpuMs(): number { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }

async function openEpoch(name: string, lib: string): Promise<Engine> {
  const { Database } = await import(pathToFileURL(resolve(lib, 'index.ts')).href) as typeof import('../../lib/index.js')
  const db = await Database.open()
  await db.query('CREATE TABLE d (k INT, nk INT, l LONG, v DECIMAL(18,4), w DOUBLE)')
  const CHUNK = 1_000_000
  for (let lo = 1; lo <= ROWS; lo += CHUNK) {
    const n = Math.min(CHUNK, ROWS - lo + 1)
    const v = new Array<string>(n), k = new Int32Array(n), nk = new Int32Array(n), l = new Float64Array(n), w = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      const x = lo + i, u = (x * 7919) % 100000000
      k[i] = x % 100; nk[i] = k[i]! - 50; l[i] = 1e12 + k[i]!
      v[i] = `${Math.floor(u / 10000)}.${String(u % 10000).padStart(4, '0')}`; w[i] = u / 10000
    }
    await db.append('d', { k, nk, l, v, w })
  }
  // the workers load the engine for seconds from sources: time nothing before they take part
  console.log(`${name}: workers ready after ${await warmWorkers(lib, () => db.query('SELECT k, count() FROM d GROUP BY k'))} ms`)
  return { name, run: async (q) => (await db.query(q)).rows.map((r) => r.map(String).join(' ')).join('|') }
}

const engines: Engine[] = []
if (BASE !== undefined) engines.push(await openEpoch('base', resolve(BASE, 'lib')))
engines.push(await openEpoch('this', resolve(import.meta.dirname, '../../lib')))
const { DuckDBInstance } = await import('@duckdb/node-api')
const inst = await DuckDBInstance.create(':memory:')
const conn = await inst.connect()
if (DUCK_THREADS !== undefined) await conn.run(`SET threads = ${Number(DUCK_THREADS)}`)
await conn.run(`CREATE TABLE d AS SELECT (((x * 7919) % 100000000)::DECIMAL(18,0) / 10000)::DECIMAL(18,4) AS v, (x % 100)::INTEGER AS k, ((x % 100) - 50)::INTEGER AS nk, (1000000000000 + (x % 100))::BIGINT AS l, ((x * 7919) % 100000000) / 10000.0 AS w FROM range(1, ${ROWS + 1}) t(x)`)
engines.push({ name: 'duckdb', run: async (q) => (await conn.runAndReadAll(q)).getRows().map((r) => r.map(String).join(' ')).join('|') })

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]! }
console.log(`keyed DECIMAL/DOUBLE vs DuckDB, ${ROWS.toLocaleString('en-US')} rows, ${ROUNDS} rounds, ${new Date().toISOString()}, workers=${process.env['EPOCHDB_WORKERS'] ?? 'default'}, duck threads=${DUCK_THREADS ?? 'default'}`)
for (const q of SQL) {
  const cpu = engines.map(() => [] as number[]), wall = engines.map(() => [] as number[])
  const outs: string[] = []
  for (const e of engines) outs.push(await e.run(q))
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < engines.length; i++) {
      const c0 = cpuMs(), t0 = performance.now()
      await engines[i]!.run(q)
      wall[i]!.push(performance.now() - t0); cpu[i]!.push(cpuMs() - c0)
    }
  }
  const d = engines.length - 1
  console.log(q)
  for (let i = 0; i < engines.length; i++) {
    const cb = Math.min(...cpu[i]!), cm = median(cpu[i]!), wb = Math.min(...wall[i]!), wm = median(wall[i]!)
    const rel = i === d ? '' : `  (/duck cpu ${(cb / Math.min(...cpu[d]!)).toFixed(2)}x best ${(cm / median(cpu[d]!)).toFixed(2)}x med; wall ${(wb / Math.min(...wall[d]!)).toFixed(2)}x best ${(wm / median(wall[d]!)).toFixed(2)}x med)`
    const same = i < d && i > 0 && outs[i] !== outs[0] ? '  ANSWER DIFFERS FROM BASE' : ''
    console.log(`  ${engines[i]!.name.padEnd(6)} cpu ${cb.toFixed(1)} / ${cm.toFixed(1)} ms  wall ${wb.toFixed(1)} / ${wm.toFixed(1)} ms${rel}${same}`)
  }
}
conn.closeSync()
inst.closeSync()
process.exit(0)
