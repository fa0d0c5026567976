/**
 * Benchmark (not a test): sum/avg/min/max over N DECIMAL(18,4) values (10M by default,
 * EPOCHDB_BENCH_DECIMAL_ROWS to change), without keys and grouped by an INT key of 100 values
 * (`k = x % 100`), EpochDB and DuckDB's DECIMAL(18,4) in the same run; the keyed `sum` also over a
 * DOUBLE column `w` of the same values (the key path is shared, so it tells the key's cost from the
 * DECIMAL kernel's).
 * The values are the same in both engines: ((x * 7919) mod 10^8) / 10^4, so every value has
 * fraction digits and the sum passes 2^53 in scaled units (the exact carry path runs).
 *
 *   node --import tsx test/bench/decimal.ts
 *
 * EPOCHDB_BENCH_DECIMAL_ONLY=<substring> runs only the queries whose text contains it (e.g. `min(v), max`).
 */
import { cpus } from 'node:os'
import { performance } from 'node:perf_hooks'
import { Database } from '../../lib/index.js'
import { PIECE_STATS } from '../../lib/exec/parallel/pieces.js'
import { warmWorkers } from './warm-workers.js'

const ROWS = Number(process.env['EPOCHDB_BENCH_DECIMAL_ROWS'] ?? 10_000_000)
const RUNS = 5
const ONLY = process.env['EPOCHDB_BENCH_DECIMAL_ONLY']
const ALL = [
  'SELECT sum(v) FROM d', 'SELECT avg(v) FROM d', 'SELECT min(v) FROM d', 'SELECT max(v) FROM d', 'SELECT min(v), max(v) FROM d',
  'SELECT k, sum(v) FROM d GROUP BY k ORDER BY k', 'SELECT k, avg(v) FROM d GROUP BY k ORDER BY k',
  'SELECT k, min(v), max(v) FROM d GROUP BY k ORDER BY k', 'SELECT k, last(v) FROM d GROUP BY k ORDER BY k',
  'SELECT k, sum(w) FROM d GROUP BY k ORDER BY k',
]
const SQL = ONLY === undefined ? ALL : ALL.filter((q) => q.includes(ONLY))
/** The first row's last value (the whole row for the keyed queries' key 0). */
const show = (row: readonly unknown[]): string => row.map(String).join(' ')

async function best(fn: () => Promise<string>): Promise<{ ms: number; out: string }> {
  const out = await fn()
  let ms = Infinity
  for (let k = 0; k < RUNS; k++) { const t0 = performance.now(); await fn(); ms = Math.min(ms, performance.now() - t0) }
  return { ms, out }
}

console.log(`DECIMAL(18,4) sum/avg/min/max, ${ROWS.toLocaleString('en-US')} rows, ${new Date().toISOString()}, ${cpus().length} x ${cpus()[0]?.model ?? '?'}, node ${process.version}`)
const db = await Database.open()
await db.query('CREATE TABLE d (k INT, v DECIMAL(18,4), w DOUBLE)')
// loaded through the bulk append as exact text (the slow edge path; the load is not what is measured)
const t0 = performance.now()
const CHUNK = 1_000_000
for (let lo = 1; lo <= ROWS; lo += CHUNK) {
  const n = Math.min(CHUNK, ROWS - lo + 1)
  const v = new Array<string>(n)
  const k = new Array<number>(n)
  const w = new Float64Array(n)
  for (let i = 0; i < n; i++) { k[i] = (lo + i) % 100; const u = ((lo + i) * 7919) % 100000000; v[i] = `${Math.floor(u / 10000)}.${String(u % 10000).padStart(4, '0')}`; w[i] = u / 10000 }
  await db.append('d', { k, v, w })
}
console.log(`EpochDB load: ${(performance.now() - t0).toFixed(0)} ms`)
// the workers load the engine for seconds from sources: time nothing before they take part
console.log(`EpochDB workers ready after ${await warmWorkers(new URL('../../lib', import.meta.url).pathname, () => db.query('SELECT k, count() FROM d GROUP BY k'))} ms`)
const { DuckDBInstance } = await import('@duckdb/node-api')
const inst = await DuckDBInstance.create(':memory:')
const conn = await inst.connect()
await conn.run(`CREATE TABLE d AS SELECT (((x * 7919) % 100000000)::DECIMAL(18,0) / 10000)::DECIMAL(18,4) AS v, (x % 100)::INTEGER AS k, ((x * 7919) % 100000000) / 10000.0 AS w FROM range(1, ${ROWS + 1}) t(x)`)
// each query on both engines back to back, so both see the same load
for (const q of SQL) {
  const mine = PIECE_STATS.mine, workers = PIECE_STATS.workers
  const e = await best(async () => show((await db.query(q)).rows[0]!))
  const d = await best(async () => show((await conn.runAndReadAll(q)).getRows()[0]!))
  // pieces of the parallel aggregation this thread and the workers took over the query's runs (a worker still
  // loading the engine, or run late by the OS, takes none: the statement's thread then does all the rows)
  const pieces = `pieces this thread ${PIECE_STATS.mine - mine} / workers ${PIECE_STATS.workers - workers}`
  console.log(`${q}\n  EpochDB ${e.ms.toFixed(1)} ms = ${e.out} (${pieces})\n  DuckDB  ${d.ms.toFixed(1)} ms = ${d.out}\n  EpochDB/DuckDB time ${(e.ms / d.ms).toFixed(2)}x`)
}
await db.close()
conn.closeSync()
inst.closeSync()
