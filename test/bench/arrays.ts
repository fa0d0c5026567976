/**
 * Benchmark (not a test): `node --import tsx test/bench/arrays.ts`.
 *
 * array_sum over N rows of DOUBLE[8] (default 1M) in EpochDB against DuckDB's list_sum over
 * the same shape, in one run: both tables are built inside each engine from random doubles,
 * then `sum(array_sum(a))` / `sum(list_sum(a))` is timed (warm-up, then best of RUNS), and
 * `array_sum(a)` streamed per row (results counted, not converted to JS rows). DuckDB runs
 * with one thread and with its default, EpochDB on its own event loop.
 * Environment: EPOCHDB_BENCH_ROWS, EPOCHDB_BENCH_RUNS (default 5).
 */
import { performance } from 'node:perf_hooks'
import { cpus } from 'node:os'
import { Database } from '../../lib/index.js'

const ROWS = Number(process.env['EPOCHDB_BENCH_ROWS'] ?? 1_000_000)
const RUNS = Number(process.env['EPOCHDB_BENCH_RUNS'] ?? 5)
const EIGHT = Array.from({ length: 8 }, () => 'rnd_double()').join(', ')
const EIGHT_DUCK = Array.from({ length: 8 }, () => 'random()').join(', ')

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

const rate = (ms: number): string => `${Math.round(ROWS / (ms / 1000)).toLocaleString('en-US')} rows/s`

console.log(`array_sum over ${ROWS.toLocaleString('en-US')} DOUBLE[8] rows; ${cpus().length} cpus, node ${process.version}`)

const db = await Database.open()
let t0 = performance.now()
await db.query(`CREATE TABLE t AS (SELECT ARRAY[${EIGHT}] a FROM long_sequence(${ROWS}))`)
console.log(`EpochDB build: ${(performance.now() - t0).toFixed(0)} ms`)
const epochAgg = await bestOf(async () => Number((await db.query('SELECT sum(array_sum(a)) FROM t')).rows[0]![0]))
console.log(`EpochDB sum(array_sum(a)): ${epochAgg.ms.toFixed(1)} ms, ${rate(epochAgg.ms)}`)
const epochRows = await bestOf(async () => { let n = 0; for await (const b of db.stream('SELECT array_sum(a) FROM t')) n += b.length; return n })
console.log(`EpochDB array_sum(a) per row, streamed: ${epochRows.ms.toFixed(1)} ms, ${rate(epochRows.ms)}`)
await db.close()

const { DuckDBInstance } = await import('@duckdb/node-api')
for (const threads of [1, 0]) {
  const instance = await DuckDBInstance.create(':memory:')
  const con = await instance.connect()
  if (threads > 0) await con.run(`SET threads = ${threads}`)
  t0 = performance.now()
  await con.run(`CREATE TABLE t AS SELECT [${EIGHT_DUCK}]::DOUBLE[8] a FROM range(${ROWS})`)
  const label = threads > 0 ? `${threads} thread` : 'default threads'
  console.log(`DuckDB (${label}) build: ${(performance.now() - t0).toFixed(0)} ms`)
  const agg = await bestOf(async () => { const r = await con.runAndReadAll('SELECT sum(list_sum(a)) FROM t'); return r.getRows().length })
  console.log(`DuckDB (${label}) sum(list_sum(a)): ${agg.ms.toFixed(1)} ms, ${rate(agg.ms)}; EpochDB/DuckDB time ${(epochAgg.ms / agg.ms).toFixed(2)}x`)
  const rows = await bestOf(async () => {
    const r = await con.stream('SELECT list_sum(a) FROM t')
    let n = 0
    for (let c = await r.fetchChunk(); c !== null && c.rowCount > 0; c = await r.fetchChunk()) n += c.rowCount
    return n
  })
  console.log(`DuckDB (${label}) list_sum(a) per row, streamed: ${rows.ms.toFixed(1)} ms, ${rate(rows.ms)}; EpochDB/DuckDB time ${(epochRows.ms / rows.ms).toFixed(2)}x`)
  con.closeSync?.()
}
