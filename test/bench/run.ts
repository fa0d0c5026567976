/**
 * Benchmarks (not tests): `npm run bench`.
 *
 * Generates N rows once (default 10M: ts every 10 ms from 2024-01-01, sym one of 100 symbols,
 * v a double), then
 *  (a) appends them to EpochDB through `db.append` and prints rows/s;
 *  (b) times `select sym, avg(v), min(v), max(v) from t` on EpochDB (warm-up + best of N);
 *  (c) loads the same rows into DuckDB through its appender and times the same aggregation.
 * Environment: EPOCHDB_BENCH_ROWS (row count), EPOCHDB_BENCH_RUNS (timed runs, default 5),
 * EPOCHDB_BENCH_SKIP_DUCKDB=1.
 */
import { cpus, totalmem, platform, release, arch } from 'node:os'
import { performance } from 'node:perf_hooks'
import { Database } from '../../lib/index.js'
import { generateRows, type BenchRows } from './generate.js'

const ROWS = Number(process.env['EPOCHDB_BENCH_ROWS'] ?? 10_000_000)
const RUNS = Number(process.env['EPOCHDB_BENCH_RUNS'] ?? 5)
const CHUNK = 1_000_000
const QUERY = 'select sym, avg(v), min(v), max(v) from t'
/** DuckDB has no implicit GROUP BY */
const DUCKDB_QUERY = QUERY + ' group by sym'

function rate(rows: number, ms: number): string {
  return `${Math.round(rows / (ms / 1000)).toLocaleString('en-US')} rows/s`
}

async function bestOf(label: string, fn: () => Promise<number>): Promise<number> {
  const groups = await fn() // warm-up
  let best = Infinity
  for (let k = 0; k < RUNS; k++) {
    const t0 = performance.now()
    await fn()
    best = Math.min(best, performance.now() - t0)
  }
  console.log(`${label}: best of ${RUNS} ${best.toFixed(1)} ms, ${rate(ROWS, best)} (${groups} groups)`)
  return best
}

async function benchEpochDb(data: BenchRows): Promise<number> {
  const db = await Database.open()
  await db.query('CREATE TABLE t (ts TIMESTAMP, sym SYMBOL, v DOUBLE) TIMESTAMP(ts) PARTITION BY DAY')
  const t0 = performance.now()
  for (let lo = 0; lo < ROWS; lo += CHUNK) {
    const hi = Math.min(ROWS, lo + CHUNK)
    await db.append('t', { ts: data.ts.subarray(lo, hi), sym: data.sym.slice(lo, hi), v: data.v.subarray(lo, hi) })
  }
  const appendMs = performance.now() - t0
  console.log(`(a) EpochDB append: ${appendMs.toFixed(0)} ms, ${rate(ROWS, appendMs)}`)
  const best = await bestOf('(b) EpochDB aggregation', async () => (await db.query(QUERY)).rows.length)
  await db.close()
  return best
}

async function benchDuckDb(data: BenchRows): Promise<number> {
  const { DuckDBInstance, DuckDBTimestampValue } = await import('@duckdb/node-api')
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  await conn.run('CREATE TABLE t (ts TIMESTAMP, sym VARCHAR, v DOUBLE)')
  const t0 = performance.now()
  const app = await conn.createAppender('t')
  for (let i = 0; i < ROWS; i++) {
    app.appendTimestamp(new DuckDBTimestampValue(BigInt(data.ts[i]!)))
    app.appendVarchar(data.sym[i]!)
    app.appendDouble(data.v[i]!)
    app.endRow()
  }
  app.closeSync()
  const loadMs = performance.now() - t0
  console.log(`(c) DuckDB appender load: ${loadMs.toFixed(0)} ms, ${rate(ROWS, loadMs)}`)
  const best = await bestOf('(c) DuckDB aggregation', async () => (await conn.runAndReadAll(DUCKDB_QUERY)).getRows().length)
  conn.closeSync()
  instance.closeSync()
  return best
}

console.log(`EpochDB benchmarks, ${new Date().toISOString()}`)
console.log(`machine: ${platform()} ${release()} ${arch()}, ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB`)
console.log(`node ${process.version}; ${ROWS.toLocaleString('en-US')} rows; query: ${QUERY}`)
const g0 = performance.now()
const data = generateRows(ROWS)
console.log(`generated in ${(performance.now() - g0).toFixed(0)} ms`)
const epoch = await benchEpochDb(data)
if (process.env['EPOCHDB_BENCH_SKIP_DUCKDB'] !== '1') {
  const duck = await benchDuckDb(data)
  console.log(`aggregation ratio EpochDB / DuckDB time: ${(epoch / duck).toFixed(2)}x`)
}
