/**
 * The real `@questdb/nodejs-client`'s own ceiling: how fast it builds the ILP bench's 10-column
 * rows (2 SYMBOL tags, 6 DOUBLE, 1 LONG, the designated timestamp; protocol 2) with no server,
 * used in several ways its docs allow, and how that scales with client processes on this machine.
 * Each row is built into the sender's buffer, which is reset every 75,000 rows (the HTTP
 * auto-flush size) instead of sent, so only the client's CPU is measured.
 *
 *   node --import tsx test/bench/ilp-client.ts [rows=600000] [procs=1,2,3,4]
 *
 * Variants (one after another in this process, same run):
 * - `bench`: what test/bench/ilp.ts does: `await sender...at(base + BigInt(i), 'us')` per row;
 * - `number ts`: the timestamp as a number (`at(ts, 'us')`, no BigInt of ours per row);
 * - `no await`: auto-flush off, `at()` not awaited (it only returns a promise for the flush,
 *   which cannot happen with auto-flush off), flushed by hand;
 * - `ms ts`: `at(Date-like ms number, 'ms')`, the unit a JS app has at hand;
 * - `default buffer`: `number ts` with the client's default buffer (64 KiB, doubled as rows
 *   arrive, up to its 100 MB cap) instead of 16 MiB up front;
 * - `ilpBody` (reference, not the client): the same bytes built by test/bench/ilp-body.ts, the
 *   floor of a JavaScript builder.
 * Then `procs` client processes at once (forked, as test/bench/ilp.ts's `http2`), each its own
 * sender (`number ts`), in wall time and their summed CPU (start-up excluded: CPU is counted from
 * the first row).
 *
 * Not a test: figures go to docs/benchmarks.md.
 */
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { Sender } from '@questdb/nodejs-client'
import { ilpBody } from './ilp-body.js'

const SYMS = ['AAPL', 'MSFT', 'GOOG', 'AMZN', 'NVDA', 'META', 'TSLA', 'AMD']
const CONF = 'http::addr=127.0.0.1:1;protocol_version=2;auto_flush=off;init_buf_size=16777216;max_buf_size=104857600'
const BASE = 1_700_000_000_000_000
type Variant = 'bench' | 'number ts' | 'no await' | 'ms ts' | 'default buffer'

/** Builds rows `from .. from + n - 1` with the client the way `variant` says; resolves when done. */
async function build(variant: Variant, from: number, n: number): Promise<void> {
  const sender = await Sender.fromConfig(variant === 'default buffer' ? CONF.replace(/;init_buf_size=\d+;max_buf_size=\d+/, '') : CONF)
  const big = BigInt(BASE)
  for (let i = from; i < from + n; i++) {
    const row = sender.table('bench_http').symbol('sym', SYMS[i & 7]!).symbol('venue', i & 1 ? 'X' : 'Y')
      .floatColumn('bid', 100 + (i % 100) / 8).floatColumn('ask', 100.5 + (i % 100) / 8).floatColumn('bid_sz', i % 1000)
      .floatColumn('ask_sz', (i * 7) % 1000).floatColumn('last', 100.25).floatColumn('vwap', 100.125)
      .intColumn('seq', i)
    if (variant === 'bench') await row.at(big + BigInt(i), 'us')
    else if (variant === 'number ts' || variant === 'default buffer') await row.at(BASE + i, 'us')
    else if (variant === 'ms ts') await row.at(1_700_000_000_000 + i, 'ms')
    else void row.at(BASE + i, 'us')
    if (i % 75_000 === 74_999) sender.reset()
  }
  sender.reset()
}

/** CPU seconds of this process (user + system) since `c0`. */
const cpuSince = (c0: NodeJS.CpuUsage): number => { const c = process.cpuUsage(c0); return (c.user + c.system) / 1e6 }

if (process.argv[2] === '--worker') {
  // one of several client processes: `--worker <from> <count>`; reports its CPU seconds
  const c0 = process.cpuUsage()
  await build('number ts', Number(process.argv[3]), Number(process.argv[4]))
  process.send!(cpuSince(c0), () => process.exit(0))
} else {
  const n = Number(process.argv[2] ?? 600_000)
  const procs = (process.argv[3] ?? '1,2,3,4').split(',').map(Number)
  const line = (name: string, rows: number, s: number, cpu: number): void =>
    console.log(`${name.padEnd(26)} ${rows} rows in ${s.toFixed(2)} s = ${Math.round(rows / s).toLocaleString('en-US').padStart(9)} rows/s, ${(1e6 * cpu / rows).toFixed(2)} µs CPU/row`)
  await build('bench', 0, 50_000) // warm-up
  for (const v of ['bench', 'number ts', 'no await', 'ms ts', 'default buffer'] as const) {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    await build(v, 0, n)
    line(v, n, (performance.now() - t0) / 1000, cpuSince(c0))
  }
  {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    for (let r = 0; r < n; r += 75_000) ilpBody('bench_http', r, Math.min(75_000, n - r))
    line('ilpBody (not the client)', n, (performance.now() - t0) / 1000, cpuSince(c0))
  }
  for (const k of procs) {
    const share = Math.ceil(n / k)
    const t0 = performance.now()
    const cpus = await Promise.all(Array.from({ length: k }, (_, w) => new Promise<number>((resolve, reject) => {
      const child = fork(fileURLToPath(import.meta.url), ['--worker', String(w * share), String(share)], { execArgv: ['--import', 'tsx'] })
      child.once('message', (m) => resolve(m as number))
      child.once('error', reject)
    })))
    line(`${k} client process${k > 1 ? 'es' : ''}`, k * share, (performance.now() - t0) / 1000, cpus.reduce((a, b) => a + b, 0))
  }
}
