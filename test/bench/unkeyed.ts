/**
 * Benchmark (not a test): unkeyed `count`, `sum` and `avg` over DECIMAL(18,4), DOUBLE and LONG
 * columns, on two EpochDB trees and DuckDB in one process, each query on the engines in turn for
 * several rounds so all see the same load. Reports best and median CPU time (`process.cpuUsage`,
 * every thread of the process) and wall time, each also as a ratio of DuckDB's.
 *
 *   node --import tsx test/bench/unkeyed.ts [<base tree> [rows [rounds]]]
 *
 * `<base tree>` is a directory holding another copy of `lib/` (e.g. `git archive <commit> lib |
 * tar -x -C /tmp/base`); `-` or nothing runs only this tree and DuckDB. `EPOCHDB_WORKERS=0` and
 * `EPOCHDB_BENCH_DUCK_THREADS=1` run both engines on one thread. `EPOCHDB_BENCH_ONLY=<substring>`
 * keeps the queries whose text contains it. `EPOCHDB_BENCH_DURABLE=<dir>` puts the EpochDB tables
 * in data directories under `<dir>` (checkpointed into DAY partitions and reopened, so the rows are
 * read from partition files) instead of in memory.
 *
 * Data as `decimal.ts`: v DECIMAL(18,4) = ((x * 7919) mod 10^8) / 10^4, w the same as DOUBLE,
 * l = x * 3 (LONG), n = w but null on every 10th row (DOUBLE), ts one row a second.
 */
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { join, resolve } from 'node:path'
import { mkdirSync, rmSync } from 'node:fs'

const BASE = process.argv[2] !== undefined && process.argv[2] !== '-' ? resolve(process.argv[2]) : undefined
const ROWS = Number(process.argv[3] ?? 4_000_000)
const ROUNDS = Number(process.argv[4] ?? 11)
const ONLY = process.env['EPOCHDB_BENCH_ONLY']
const DUCK_THREADS = process.env['EPOCHDB_BENCH_DUCK_THREADS']
const DURABLE = process.env['EPOCHDB_BENCH_DURABLE']
const ALL = [
  'SELECT count() FROM d', 'SELECT count(v) FROM d', 'SELECT count(w) FROM d', 'SELECT count(l) FROM d', 'SELECT count(n) FROM d',
  'SELECT sum(v) FROM d', 'SELECT avg(v) FROM d', 'SELECT sum(w) FROM d', 'SELECT avg(w) FROM d',
  'SELECT sum(l) FROM d', 'SELECT avg(l) FROM d', 'SELECT count(v), sum(v), avg(w) FROM d',
]
const SQL = ONLY === undefined ? ALL : ALL.filter((q) => q.includes(ONLY))

interface Engine { name: string; run(q: string): Promise<string>; close(): Promise<void> }

function cpuMs(): number { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }

async function openEpoch(name: string, lib: string): Promise<Engine> {
  const { Database } = await import(pathToFileURL(resolve(lib, 'index.ts')).href) as typeof import('../../lib/index.js')
  const path = DURABLE === undefined ? undefined : join(resolve(DURABLE), name)
  if (path !== undefined) { rmSync(path, { recursive: true, force: true }); mkdirSync(path, { recursive: true }) }
  let db = await Database.open({ path })
  await db.query(`CREATE TABLE d (ts TIMESTAMP, v DECIMAL(18,4), w DOUBLE, l LONG, n DOUBLE)${path === undefined ? '' : ' TIMESTAMP(ts) PARTITION BY DAY'}`)
  const CHUNK = 1_000_000
  const T0 = Date.UTC(2024, 0, 1) * 1000
  for (let lo = 1; lo <= ROWS; lo += CHUNK) {
    const cnt = Math.min(CHUNK, ROWS - lo + 1)
    const ts = new Float64Array(cnt), v = new Array<string>(cnt), w = new Float64Array(cnt), l = new Float64Array(cnt), n = new Float64Array(cnt)
    for (let i = 0; i < cnt; i++) {
      const x = lo + i, u = (x * 7919) % 100000000
      ts[i] = T0 + x * 1_000_000
      v[i] = `${Math.floor(u / 10000)}.${String(u % 10000).padStart(4, '0')}`; w[i] = u / 10000; l[i] = x * 3
      n[i] = x % 10 === 0 ? NaN : u / 10000
    }
    await db.append('d', { ts, v, w, l, n })
  }
  if (path !== undefined) { await db.close(); db = await Database.open({ path }) }
  return { name, run: async (q) => (await db.query(q)).rows.map((r) => r.map(String).join(' ')).join('|'), close: () => db.close() }
}

const engines: Engine[] = []
if (BASE !== undefined) engines.push(await openEpoch('base', resolve(BASE, 'lib')))
engines.push(await openEpoch('this', resolve(import.meta.dirname, '../../lib')))
const { DuckDBInstance } = await import('@duckdb/node-api')
const inst = await DuckDBInstance.create(':memory:')
const conn = await inst.connect()
if (DUCK_THREADS !== undefined) await conn.run(`SET threads = ${Number(DUCK_THREADS)}`)
await conn.run(`CREATE TABLE d AS SELECT (((x * 7919) % 100000000)::DECIMAL(18,0) / 10000)::DECIMAL(18,4) AS v, ((x * 7919) % 100000000) / 10000.0 AS w, (x * 3)::BIGINT AS l, CASE WHEN x % 10 = 0 THEN NULL ELSE ((x * 7919) % 100000000) / 10000.0 END AS n FROM range(1, ${ROWS + 1}) t(x)`)
engines.push({ name: 'duckdb', run: async (q) => (await conn.runAndReadAll(q)).getRows().map((r) => r.map(String).join(' ')).join('|'), close: async () => {} })

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]! }
console.log(`unkeyed aggregates vs DuckDB, ${ROWS.toLocaleString('en-US')} rows, ${ROUNDS} rounds, ${new Date().toISOString()}, workers=${process.env['EPOCHDB_WORKERS'] ?? 'default'}, duck threads=${DUCK_THREADS ?? 'default'}, ${DURABLE === undefined ? 'in memory' : 'durable'}`)
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
  console.log(`${q}  = ${outs[d]}`)
  for (let i = 0; i < engines.length; i++) {
    const cb = Math.min(...cpu[i]!), cm = median(cpu[i]!), wb = Math.min(...wall[i]!), wm = median(wall[i]!)
    const rel = i === d ? '' : `  (/duck cpu ${(cb / Math.min(...cpu[d]!)).toFixed(2)}x best ${(cm / median(cpu[d]!)).toFixed(2)}x med; wall ${(wb / Math.min(...wall[d]!)).toFixed(2)}x best ${(wm / median(wall[d]!)).toFixed(2)}x med)`
    const same = i < d && outs[i] !== outs[d] ? `  ANSWER ${outs[i]}` : ''
    console.log(`  ${engines[i]!.name.padEnd(6)} cpu ${cb.toFixed(1)} / ${cm.toFixed(1)} ms  wall ${wb.toFixed(1)} / ${wm.toFixed(1)} ms${rel}${same}`)
  }
}
for (const e of engines) await e.close()
conn.closeSync()
inst.closeSync()
process.exit(0)
