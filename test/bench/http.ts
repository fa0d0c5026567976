/**
 * REST benchmark (not a test): `node --import tsx test/bench/http.ts`.
 *
 *  (a) `/exec?query=select 1` over keep-alive with 32 connections for 10 s, driven by
 *      autocannon in a child process (so the client does not share the server's event loop);
 *  (b) `/exp` of a 10M-row table (ts, sym, v), downloaded by curl in a child process:
 *      MB/s and the server's RSS growth (sampled every 50 ms) while streaming.
 * Environment: EPOCHDB_BENCH_ROWS (default 10M), EPOCHDB_BENCH_SECONDS (default 10).
 */
import { execFile } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { promisify } from 'node:util'
import { Database } from '../../lib/index.js'
import { createHttpServer } from '../../adapters/http/index.js'
import { generateRows } from './generate.js'

const run = promisify(execFile)
const ROWS = Number(process.env['EPOCHDB_BENCH_ROWS'] ?? 10_000_000)
const SECONDS = Number(process.env['EPOCHDB_BENCH_SECONDS'] ?? 10)
const mb = (b: number): string => (b / 2 ** 20).toFixed(0) + ' MB'

const db = await Database.open()
await db.query('CREATE TABLE t (ts TIMESTAMP, sym SYMBOL, v DOUBLE) TIMESTAMP(ts) PARTITION BY DAY')
const data = generateRows(ROWS)
for (let lo = 0; lo < ROWS; lo += 1_000_000) {
  const hi = Math.min(ROWS, lo + 1_000_000)
  await db.append('t', { ts: data.ts.subarray(lo, hi), sym: data.sym.slice(lo, hi), v: data.v.subarray(lo, hi) })
}
const server = createHttpServer(db)
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
console.log(`EpochDB REST benchmarks, ${new Date().toISOString()}, node ${process.version}`)

// (a) select 1, keep-alive, 32 connections
const { stdout } = await run(process.execPath, ['node_modules/autocannon/autocannon.js', '-c', '32', '-d', String(SECONDS), '-j', `${base}/exec?query=select%201`], { maxBuffer: 1 << 24 })
const ac = JSON.parse(stdout) as { requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number }
console.log(`(a) select 1, 32 keep-alive connections, ${SECONDS} s: ${Math.round(ac.requests.average).toLocaleString('en-US')} req/s ` +
  `(total ${ac.requests.total}, p50 ${ac.latency.p50} ms, p99 ${ac.latency.p99} ms, non-2xx ${ac.non2xx}, errors ${ac.errors})`)

// (b) /exp of the whole table
global.gc?.()
const rss0 = process.memoryUsage().rss
let peak = rss0
const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss) }, 50)
const t0 = performance.now()
const curl = await run('curl', ['-s', '-o', '/dev/null', '-w', '%{size_download}', `${base}/exp?query=select%20*%20from%20t`], { maxBuffer: 1 << 20 })
const ms = performance.now() - t0
clearInterval(sampler)
const bytes = Number(curl.stdout)
console.log(`(b) /exp of ${ROWS.toLocaleString('en-US')} rows: ${mb(bytes)} in ${(ms / 1000).toFixed(1)} s = ${(bytes / 2 ** 20 / (ms / 1000)).toFixed(1)} MB/s, ` +
  `${Math.round(ROWS / (ms / 1000)).toLocaleString('en-US')} rows/s; server RSS ${mb(rss0)} before, peak ${mb(peak)} (+${mb(peak - rss0)})`)

server.closeAllConnections()
server.close()
await db.close()
