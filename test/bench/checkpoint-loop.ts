/**
 * How long a checkpoint (WAL -> table files) holds the event loop: a durable database takes one
 * large ILP batch (`rows` 10-column rows spanning `days` DAY partitions, over the 64 MiB WAL
 * threshold, so its commit starts a checkpoint) while another client queries the table every
 * 5 ms. Prints the event loop's delay (perf_hooks.monitorEventLoopDelay), the slowest query
 * answer and how long the checkpoint took (until the WAL is empty).
 *
 *   node --import tsx test/bench/checkpoint-loop.ts [rows=1500000] [days=4] [index]
 *   (`index`: both SYMBOL tags indexed, so the checkpoint also writes their index files)
 *   EPOCHDB_BENCH_TRACE=1 ...   # and every query's start and end (ms after the commit started)
 *
 * Not a test: figures go to docs/benchmarks.md.
 */
// queries on one thread: the first parallel query's worker start-up (seconds under tsx on a loaded
// machine) would otherwise be what the slowest answer measures
process.env.EPOCHDB_WORKERS ??= '0'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { ilpBody } from './ilp-body.js'

const rows = Number(process.argv[2] ?? 1_500_000)
const days = Number(process.argv[3] ?? 4)
const dir = mkdtempSync(join(tmpdir(), 'epochdb-ckpt-loop-'))
const db = await Database.open({ path: dir })
const indexed = process.argv[4] === 'index'
if (indexed) await db.query('create table t (sym symbol index, venue symbol index, bid double, ask double, bid_sz double, ask_sz double, last double, vwap double, seq long, timestamp timestamp) timestamp(timestamp) partition by day')
// the table exists and is checkpointed before the measured batch
const first = db.lineWriter()
first.write(ilpBody('t', 0, 1000, 1_600_000_000_000_000))
await first.end()
const body = ilpBody('t', 0, rows, 1_700_000_000_000_000, Math.floor(days * 86_400_000_000 / rows))
const wal = (): number => statSync(join(dir, 'wal.log')).size

// the batch is parsed first (a server parses it chunk by chunk as it arrives); measured from its commit on
const w = db.lineWriter()
for (let o = 0; o < body.length; o += 65536) w.write(body.subarray(o, Math.min(body.length, o + 65536)))
const h = monitorEventLoopDelay({ resolution: 5 })
h.enable()
// the longest gap between two ticks of a 1 ms interval: the longest the loop was held
let gap = 0
let last = performance.now()
const ticker = setInterval(() => { const now = performance.now(); gap = Math.max(gap, now - last); last = now }, 1)
let t0 = performance.now()
let slowest = 0
let answered = 0
let querying = true
const client = (async () => {
  while (querying) {
    const q0 = performance.now()
    await db.query(process.env.EPOCHDB_BENCH_QUERY ?? 'select count() from t')
    slowest = Math.max(slowest, performance.now() - q0)
    if (process.env.EPOCHDB_BENCH_TRACE !== undefined) console.log(`query ${(q0 - t0).toFixed(0)} .. ${(performance.now() - t0).toFixed(0)} ms`)
    answered++
    await new Promise((r) => setTimeout(r, 5))
  }
})()
await new Promise((r) => setTimeout(r, 100))
const walBefore = wal()
t0 = performance.now()
await w.end()
const committed = performance.now() - t0
const walAfterCommit = wal()
// the checkpoint runs after the commit: until the WAL is emptied
while (wal() > 0 && performance.now() - t0 < 120_000) await new Promise((r) => setTimeout(r, 5))
const done = performance.now() - t0
querying = false
await client
clearInterval(ticker)
h.disable()
const ms = (ns: number): string => (ns / 1e6).toFixed(1)
console.log(`${rows} rows over ${days} days${indexed ? ', symbols indexed' : ''} (ILP body ${(body.length / 1048576).toFixed(0)} MB; WAL ${(walBefore / 1048576).toFixed(0)} MB before the commit, ${(walAfterCommit / 1048576).toFixed(0)} MB when it resolved): commit ${committed.toFixed(0)} ms, WAL empty after ${done.toFixed(0)} ms`)
console.log(`loop held at most ${gap.toFixed(0)} ms; event loop delay: max ${ms(h.max)} ms, p99 ${ms(h.percentile(99))} ms, mean ${ms(h.mean)} ms; slowest query answer ${slowest.toFixed(0)} ms (${answered} answers)`)
await db.close()
rmSync(dir, { recursive: true, force: true })
