/**
 * Benchmarks (not tests): `npm run bench`.
 *
 * Generates N rows once (default 10M: ts every 10 ms from 2024-01-01, sym one of 100 symbols,
 * v a double), loads them into EpochDB (through `db.append`) and DuckDB (its appender), and
 * times the same queries side by side in one run (warm-up + best of N):
 *  (a) append rows/s;  (b) `select sym, avg(v), min(v), max(v) from t`;
 *  (d) SAMPLE BY 1m keyed by sym vs DuckDB's time_bucket;  (e) LATEST ON ts PARTITION BY sym;
 *  (f) ASOF JOIN of 1M trades to the 10M quotes on sym.
 * Results are counted from streamed batches on EpochDB and from result chunks on DuckDB, so
 * neither side pays for converting rows to JS objects.
 * Environment: EPOCHDB_BENCH_ROWS, EPOCHDB_BENCH_RUNS (default 5), EPOCHDB_BENCH_SKIP_DUCKDB=1.
 */
import { cpus, totalmem, platform, release, arch } from 'node:os'
import { performance } from 'node:perf_hooks'
import { Database } from '../../lib/index.js'
import { generateRows, type BenchRows } from './generate.js'

const ROWS = Number(process.env['EPOCHDB_BENCH_ROWS'] ?? 10_000_000)
const RUNS = Number(process.env['EPOCHDB_BENCH_RUNS'] ?? 5)
const TRADES = Math.max(1, Math.floor(ROWS / 10))
const CHUNK = 1_000_000

interface Case { readonly label: string; readonly epoch: string; readonly duck: string; readonly rows: number }

const CASES: Case[] = [
  { label: '(b) group by sym', epoch: 'select sym, avg(v), min(v), max(v) from t', duck: 'select sym, avg(v), min(v), max(v) from t group by sym', rows: ROWS },
  {
    label: '(d) sample by 1m, keyed', epoch: 'select ts, sym, avg(v), min(v), max(v) from t sample by 1m',
    duck: "select time_bucket(interval '1 minute', ts) as ts, sym, avg(v), min(v), max(v) from t group by all", rows: ROWS,
  },
  {
    label: '(e) latest on ts partition by sym', epoch: 'select * from t latest on ts partition by sym',
    duck: 'select * from t qualify row_number() over (partition by sym order by ts desc) = 1', rows: ROWS,
  },
  {
    label: `(f) asof join ${TRADES.toLocaleString('en-US')} trades x ${ROWS.toLocaleString('en-US')} quotes`, epoch: 'select tr.ts, tr.sym, tr.qty, q.v from trades tr asof join t q on (sym)',
    duck: 'select tr.ts, tr.sym, tr.qty, q.v from trades tr asof join t q on tr.sym = q.sym and tr.ts >= q.ts', rows: TRADES,
  },
]

function rate(rows: number, ms: number): string {
  return `${Math.round(rows / (ms / 1000)).toLocaleString('en-US')} rows/s`
}

async function bestOf(fn: () => Promise<number>): Promise<{ ms: number; out: number }> {
  const out = await fn()
  let ms = Infinity
  for (let k = 0; k < RUNS; k++) {
    const t0 = performance.now()
    await fn()
    ms = Math.min(ms, performance.now() - t0)
  }
  return { ms, out }
}

function trades(data: BenchRows): { ts: Float64Array; sym: string[]; qty: Float64Array } {
  const step = (data.ts[data.ts.length - 1]! - data.ts[0]!) / TRADES
  const ts = new Float64Array(TRADES)
  const qty = new Float64Array(TRADES)
  const sym = new Array<string>(TRADES)
  for (let i = 0; i < TRADES; i++) {
    ts[i] = Math.floor(data.ts[0]! + i * step)
    sym[i] = data.sym[(i * 7919) % data.sym.length]!
    qty[i] = i % 100
  }
  return { ts, sym, qty }
}

async function epochDb(data: BenchRows): Promise<Map<string, number>> {
  const db = await Database.open()
  await db.query('CREATE TABLE t (ts TIMESTAMP, sym SYMBOL, v DOUBLE) TIMESTAMP(ts) PARTITION BY DAY')
  await db.query('CREATE TABLE trades (ts TIMESTAMP, sym SYMBOL, qty DOUBLE) TIMESTAMP(ts) PARTITION BY DAY')
  const t0 = performance.now()
  for (let lo = 0; lo < ROWS; lo += CHUNK) {
    const hi = Math.min(ROWS, lo + CHUNK)
    await db.append('t', { ts: data.ts.subarray(lo, hi), sym: data.sym.slice(lo, hi), v: data.v.subarray(lo, hi) })
  }
  const ms = performance.now() - t0
  console.log(`(a) EpochDB append: ${ms.toFixed(0)} ms, ${rate(ROWS, ms)}`)
  await db.append('trades', trades(data))
  const times = new Map<string, number>()
  for (const c of CASES) {
    const r = await bestOf(async () => { let n = 0; for await (const b of db.stream(c.epoch)) n += b.length; return n })
    console.log(`${c.label}: EpochDB ${r.ms.toFixed(1)} ms, ${rate(c.rows, r.ms)} (${r.out} result rows)`)
    times.set(c.label, r.ms)
  }
  await db.close()
  return times
}

async function duckDb(data: BenchRows, epoch: Map<string, number>): Promise<void> {
  const { DuckDBInstance, DuckDBTimestampValue } = await import('@duckdb/node-api')
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  await conn.run('CREATE TABLE t (ts TIMESTAMP, sym VARCHAR, v DOUBLE)')
  await conn.run('CREATE TABLE trades (ts TIMESTAMP, sym VARCHAR, qty DOUBLE)')
  const t0 = performance.now()
  const app = await conn.createAppender('t')
  for (let i = 0; i < ROWS; i++) {
    app.appendTimestamp(new DuckDBTimestampValue(BigInt(data.ts[i]!)))
    app.appendVarchar(data.sym[i]!)
    app.appendDouble(data.v[i]!)
    app.endRow()
  }
  app.closeSync()
  const tr = trades(data)
  const app2 = await conn.createAppender('trades')
  for (let i = 0; i < TRADES; i++) {
    app2.appendTimestamp(new DuckDBTimestampValue(BigInt(tr.ts[i]!)))
    app2.appendVarchar(tr.sym[i]!)
    app2.appendDouble(tr.qty[i]!)
    app2.endRow()
  }
  app2.closeSync()
  console.log(`(c) DuckDB appender load: ${(performance.now() - t0).toFixed(0)} ms (per-value JS appender, not comparable to (a))`)
  for (const c of CASES) {
    const r = await bestOf(async () => (await conn.runAndReadAll(c.duck)).currentRowCount)
    const e = epoch.get(c.label)!
    console.log(`${c.label}: DuckDB ${r.ms.toFixed(1)} ms, ${rate(c.rows, r.ms)} (${r.out} result rows); EpochDB/DuckDB time ${(e / r.ms).toFixed(2)}x`)
  }
  conn.closeSync()
  instance.closeSync()
}

console.log(`EpochDB benchmarks, ${new Date().toISOString()}`)
console.log(`machine: ${platform()} ${release()} ${arch()}, ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB`)
console.log(`node ${process.version}; ${ROWS.toLocaleString('en-US')} rows, ${TRADES.toLocaleString('en-US')} trades`)
const g0 = performance.now()
const data = generateRows(ROWS)
console.log(`generated in ${(performance.now() - g0).toFixed(0)} ms`)
const epoch = await epochDb(data)
if (process.env['EPOCHDB_BENCH_SKIP_DUCKDB'] !== '1') await duckDb(data, epoch)
