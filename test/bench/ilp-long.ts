/**
 * The long ILP stream as a user runs it: the standalone server started the way `npm start` starts
 * it (`node --import tsx examples/launch.ts`, so on Linux/glibc the server is the launcher's child
 * with its allocator variables), a data directory of its own, and the real `@questdb/nodejs-client`
 * over HTTP (protocol 2, auto-flush defaults) writing 10-column rows (2 SYMBOL tags, 6 DOUBLE,
 * 1 LONG, the designated timestamp) in timestamp order into one durable table for `minutes`.
 * Every 10 s it samples the server process's RSS (from /proc, the child's when the launcher forked
 * one) and the rows written so far. The console bundle is not rebuilt (npm's `prestart`).
 *
 *   node --import tsx test/bench/ilp-long.ts [minutes=10] [rowsPerSecondCap=0 (none)]
 *
 * Rows are 20 ms apart (`STEP`): at the client's ~100k rows/s a DAY partition fills in about 45 s,
 * so partitions roll over and older ones are checkpointed and leave memory during the run.
 *
 * Not a test: figures go to docs/benchmarks.md.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Sender } from '@questdb/nodejs-client'

const minutes = Number(process.argv[2] ?? 10)
const root = fileURLToPath(new URL('../../', import.meta.url))
/** µs between rows (see the module comment) */
const STEP = 20_000

/** A free TCP port on 127.0.0.1. */
async function freePort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  const port = (s.address() as AddressInfo).port
  await new Promise((r) => s.close(r))
  return port
}

/** Resident set of process `pid` in MB, or NaN when it is gone. */
function rssMB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m === null ? NaN : Number(m[1]) / 1024
  } catch { return NaN }
}

/** The first child process of `pid` (the server the launcher spawned), or `pid` itself when it has none. */
function serverPid(pid: number): number {
  try {
    const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter((x) => x !== '')
    return kids.length > 0 ? Number(kids[0]) : pid
  } catch { return pid }
}

const dir = mkdtempSync(join(tmpdir(), 'epochdb-ilp-long-'))
const [http, pg, tcp] = [await freePort(), await freePort(), await freePort()]
const launcher = spawn(process.execPath, ['--import', 'tsx', 'examples/launch.ts'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'], // the server logs every request on stdout
  env: { ...process.env, QDB_CAIRO_ROOT: dir, QDB_HTTP_BIND_TO: `127.0.0.1:${http}`, QDB_PG_NET_BIND_TO: `127.0.0.1:${pg}`, QDB_LINE_TCP_NET_BIND_TO: `127.0.0.1:${tcp}` },
})
const exited = new Promise<number | null>((r) => launcher.once('exit', (code) => r(code)))

const count = async (): Promise<number> => {
  const r = await fetch(`http://127.0.0.1:${http}/exec?query=${encodeURIComponent('select count() from ilp_long')}`).catch(() => undefined)
  if (r === undefined || r.status !== 200) return 0
  const j = await r.json() as { dataset?: number[][] }
  return j.dataset?.[0]?.[0] ?? 0
}

try {
  // the server is up when /ping answers
  for (let i = 0; ; i++) {
    const r = await fetch(`http://127.0.0.1:${http}/ping`).catch(() => undefined)
    if (r?.status === 204) break
    if (i > 600) throw new Error('server did not start')
    await new Promise((r) => setTimeout(r, 100))
  }
  const pid = serverPid(launcher.pid!)
  console.log(`server pid ${pid} (launcher ${launcher.pid}), data ${dir}`)
  const sender = await Sender.fromConfig(`http::addr=127.0.0.1:${http};protocol_version=2`)
  const base = 1_700_000_000_000_000
  const syms = ['AAPL', 'MSFT', 'GOOG', 'AMZN', 'NVDA', 'META', 'TSLA', 'AMD']
  const t0 = performance.now()
  const end = t0 + minutes * 60_000
  let next = t0
  const samples: { s: number; rss: number; rows: number }[] = []
  let i = 0
  console.log('  s   RSS MB   rows written   rows/s (last 10 s)')
  for (;;) {
    // 10,000 rows between looks at the clock
    for (const stop = i + 10_000; i < stop; i++) {
      await sender.table('ilp_long').symbol('sym', syms[i & 7]!).symbol('venue', i & 1 ? 'X' : 'Y')
        .floatColumn('bid', 100 + (i % 100) / 8).floatColumn('ask', 100.5 + (i % 100) / 8).floatColumn('bid_sz', i % 1000)
        .floatColumn('ask_sz', (i * 7) % 1000).floatColumn('last', 100.25).floatColumn('vwap', 100.125)
        .intColumn('seq', i).at(base + i * STEP, 'us')
    }
    const now = performance.now()
    if (now >= next) {
      const rows = await count()
      const s = Math.round((now - t0) / 1000)
      const prev = samples[samples.length - 1]
      samples.push({ s, rss: rssMB(pid), rows })
      console.log(`${String(s).padStart(4)} ${rssMB(pid).toFixed(0).padStart(7)} ${String(rows).padStart(14)} ${prev === undefined ? '' : String(Math.round((rows - prev.rows) / (s - prev.s || 1))).padStart(10)}`)
      next += 10_000
    }
    if (now >= end) break
  }
  await sender.flush()
  await sender.close()
  const rows = await count()
  const s = (performance.now() - t0) / 1000
  const rss = samples.map((x) => x.rss).filter((x) => !Number.isNaN(x))
  const late = rss.slice(Math.floor(rss.length / 3))
  console.log(`rows ${rows} in ${s.toFixed(0)} s = ${Math.round(rows / s)} rows/s; RSS min ${Math.min(...rss).toFixed(0)} max ${Math.max(...rss).toFixed(0)} MB; after the first third: ${Math.min(...late).toFixed(0)}-${Math.max(...late).toFixed(0)} MB`)
} finally {
  launcher.kill('SIGTERM')
  console.log(`launcher exit ${await exited}`)
  rmSync(dir, { recursive: true, force: true })
}
