/**
 * ILP ingestion speed: rows per second through the real `@questdb/nodejs-client` over HTTP
 * (protocol 2, auto-flush defaults) and over TCP into a durable table of 10 columns (2 SYMBOL
 * tags, 6 DOUBLE, 1 LONG, the designated timestamp). The server (REST adapter + ILP/TCP
 * adapter over a data-directory database) runs in a child process, the client here, so each
 * has its own core.
 *
 *   node --import tsx test/bench/ilp.ts [rows=2000000] [only=raw,rawtcp,raw2,client,http,tcp,http1,http2,tcp2]
 *   EPOCHDB_BENCH_PROF=/tmp/prof node --import tsx test/bench/ilp.ts 1500000 raw   # and a CPU profile of the server
 *   node --import tsx test/bench/ilp.ts --cpu   # the engine alone, in CPU time (a loaded machine's wall time says little)
 *   node --import tsx test/bench/ilp.ts --cpu2 [rows]  # the engine alone, two interleaved streams (the out-of-order merge), CPU time
 *
 * `raw` POSTs prebuilt protocol-2 bodies (the server alone, no client cost), `rawtcp` writes them to
 * one TCP connection, `raw2` POSTs two interleaving in-order streams on two connections at once
 * (the out-of-order merge); `client` builds the
 * rows with the Node client and throws them away (the client alone, no server); `http2` / `tcp2`
 * (any count) send the rows from that many client processes at once, each its own connection.
 * The server is warmed up first (a small request over HTTP and TCP, and its worker pool loaded),
 * so that loading modules on first use is not counted in the first figure. The server runs with the V8 flags and the
 * glibc allocator tunables `npm start` gives it (examples/launch.ts `V8_DEFAULTS`, `GLIBC_TUNABLE_DEFAULTS`;
 * `EPOCHDB_V8_TUNING=0` / `EPOCHDB_MALLOC_TUNING=0` run it without, for a before/after); each figure gives the server's CPU per row and the part of it its main thread
 * spent in GC pauses. Knobs for experiments: `NODEARGS` (more node flags for the server),
 * `TCPROWS` (the TCP endpoint's `maxUncommittedRows`).
 *
 * Not a test: figures go to docs/benchmarks.md.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect, type AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { Sender } from '@questdb/nodejs-client'
import { PerformanceObserver } from 'node:perf_hooks'

/** Server CPU seconds and GC pause seconds. */
type Cpu = [number, number]
import { ilpBody } from './ilp-body.js'
import { glibcVersion, mallocEnv, v8Args } from '../../examples/launch.js'

if (process.argv[2] === '--cpu') {
  // parse + commit of 5 prebuilt 75,000-row protocol-2 bodies into a durable table, in this process's CPU time
  const { Database } = await import('../../lib/index.js')
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-ilp-cpu-'))
  const db = await Database.open({ path: dir })
  const per = 75_000
  const bodies = Array.from({ length: 6 }, (_, r) => ilpBody('cpu', r * per, per))
  let parse = 0, commit = 0
  for (let r = 0; r < 6; r++) {
    const body = bodies[r]!
    const c0 = process.cpuUsage()
    const w = db.lineWriter()
    for (let o = 0; o < body.length; o += 65536) w.write(body.subarray(o, Math.min(body.length, o + 65536)))
    const c1 = process.cpuUsage(c0)
    await w.end()
    const c2 = process.cpuUsage(c0)
    if (r === 0) continue // warm-up
    parse += (c1.user + c1.system) / 1e6
    commit += (c2.user + c2.system - c1.user - c1.system) / 1e6
  }
  const rows = 5 * per
  console.log(`engine: ${rows} rows, parse ${parse.toFixed(2)} CPU-s, commit ${commit.toFixed(2)} CPU-s = ${Math.round(rows / (parse + commit)).toLocaleString('en-US')} rows per CPU-second (${(1e6 * (parse + commit) / rows).toFixed(2)} µs/row)`)
  await db.close()
  rmSync(dir, { recursive: true, force: true })
} else if (process.argv[2] === '--cpu2') {
  // two interleaved in-order streams (stream k at µs 2i + k), 75,000-row bodies alternating, each
  // committed before the next (what raw2's group commits see, without HTTP): this process's CPU time
  const rows = Number(process.argv[3] ?? 1_500_000)
  const { Database } = await import('../../lib/index.js')
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-ilp-cpu2-'))
  const db = await Database.open({ path: dir })
  const per = 75_000
  const requests = Math.max(1, Math.round(rows / per / 2))
  const t0s = 1_700_000_000_000_000
  const bodies = Array.from({ length: 2 * requests }, (_, b) => ilpBody('cpu2', 0, per, t0s + (b & 1) + 2 * (b >> 1) * per, 2))
  const c0 = process.cpuUsage()
  const w0 = performance.now()
  for (const body of bodies) {
    const w = db.lineWriter()
    w.write(body)
    await w.end()
  }
  const c = process.cpuUsage(c0)
  const n = 2 * requests * per
  console.log(`engine, 2 streams: ${n} rows, ${((c.user + c.system) / 1e6).toFixed(2)} CPU-s (${(c.system / 1e6).toFixed(2)} sys), ${((performance.now() - w0) / 1000).toFixed(2)} s wall = ${(1e6 * (c.user + c.system) / 1e6 / n).toFixed(2)} µs/row`)
  await db.close()
  rmSync(dir, { recursive: true, force: true })
} else if (process.argv[2] === '--client') {
  // one of several client processes: `--client <conf> <table> <from> <count> <stride>`
  const [conf, table, from, count, stride] = process.argv.slice(3) as [string, string, string, string, string]
  await sendRows(conf, table, Number(from), Number(count), Number(stride))
  process.exit(0)
} else if (process.argv[2] === '--server') {
  const { Database } = await import('../../lib/index.js')
  const { createHttpServer } = await import('../../adapters/http/index.js')
  const { createIlpTcpServer } = await import('../../adapters/ilp/index.js')
  const db = await Database.open({ path: process.argv[3]! })
  // the parallel workers start loading once a table holds a quarter of a parallel plan's rows
  // (lib/exec/parallel/warm.ts): a one-off of 1–2.5 CPU-s from TypeScript sources under load,
  // which otherwise lands inside the first figure (half of its server CPU for 2M rows). Loaded
  // here, before anything is measured (a checkout whose pool cannot say when it is ready is left
  // as it is). EPOCHDB_BENCH_COLD_WORKERS=1 leaves them to load during the run, as before.
  if (process.env.EPOCHDB_BENCH_COLD_WORKERS !== '1') {
    const pool = (await import('../../lib/exec/parallel/pool.js')) as { workerPool?: () => { whenReady?: () => Promise<void> } | undefined }
    const warm = await import('../../lib/exec/parallel/warm.js').catch(() => undefined)
    if (warm !== undefined) await pool.workerPool?.()?.whenReady?.()
  }
  const http = createHttpServer(db)
  const tcp = createIlpTcpServer(db, { commitInterval: 200, ...(process.env.TCPROWS ? { maxUncommittedRows: Number(process.env.TCPROWS) } : {}) })
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r))
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r))
  process.send!({ http: (http.address() as AddressInfo).port, tcp: (tcp.address() as AddressInfo).port })
  /** the main thread's GC pauses so far, in ms (part of the CPU figure) */
  let gcMs = 0
  new PerformanceObserver((list) => { for (const e of list.getEntries()) gcMs += e.duration }).observe({ entryTypes: ['gc'] })
  /** Rows of `table` now (0 before it exists), by a query in this process: no HTTP request and connection per look. */
  const rows = async (table: string): Promise<number> => {
    try { return Number((await db.query(`select count() from ${table}`)).rows[0]![0]) } catch { return 0 }
  }
  process.on('message', (m) => {
    if (m === 'cpu') { const c = process.cpuUsage(); process.send!({ cpu: [(c.user + c.system) / 1e6, gcMs / 1000] }); return }
    if (typeof m === 'object' && m !== null && 'until' in m) {
      // waits here until the table has the rows (looked at every 20 ms), then answers
      const { until, n } = m as { until: string; n: number }
      const look = (): void => { void rows(until).then((r) => { if (r >= n) process.send!({ reached: until }); else setTimeout(look, 20) }) }
      look()
      return
    }
    void db.close().then(() => process.exit(0))
  })
} else {
  const n = Number(process.argv[2] ?? 2_000_000)
  const only = new Set((process.argv[3] ?? 'raw,rawtcp,client,http,tcp,http1').split(','))
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-ilp-bench-'))
  // EPOCHDB_BENCH_PROF=<dir>: the server writes a CPU profile there (node --cpu-prof)
  const prof = process.env.EPOCHDB_BENCH_PROF
  // the server's environment as `npm start` gives it (examples/launch.ts: glibc's allocator tunables; EPOCHDB_MALLOC_TUNING=0 for without)
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--server', dir], { env: { ...process.env, ...mallocEnv(process.env, glibcVersion()) }, execArgv: ['--import', 'tsx', ...v8Args([], process.env), ...(process.env.NODEARGS ? process.env.NODEARGS.split(' ') : []), ...(prof === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${prof}`])] })
  const ports = await new Promise<{ http: number; tcp: number }>((r) => child.once('message', (m) => r(m as { http: number; tcp: number })))
  /** The server's CPU seconds so far, and the seconds of it its main thread spent in GC pauses. */
  const serverCpu = (): Promise<Cpu> => new Promise((r) => { child.once('message', (m) => r((m as { cpu: Cpu }).cpu)); child.send('cpu') })
  const since = async (c0: Cpu): Promise<Cpu> => { const c = await serverCpu(); return [c[0] - c0[0], c[1] - c0[1]] }
  /**
   * Waits until `table` has `rows` rows. The server looks itself (an in-process query every 20 ms):
   * polling over HTTP cost about 2.5 ms of server CPU per look (a request on a new connection),
   * which the TCP figures counted and the HTTP ones (each request awaited) did not.
   */
  const until = (table: string, rows: number): Promise<void> => new Promise((resolve) => {
    const on = (m: unknown): void => { if ((m as { reached?: string }).reached === table) { child.off('message', on); resolve() } }
    child.on('message', on)
    child.send({ until: table, n: rows })
  })
  const run = async (name: string, conf: string, table: string): Promise<void> => {
    const cpu0 = await serverCpu()
    const t0 = performance.now()
    await sendRows(conf, table, 0, n)
    await until(table, n)
    report(name, n, t0, await since(cpu0))
  }
  /** `clients` client processes at once, each sending its share of the rows (interleaved in time) on its own connection. */
  const runMany = async (name: string, conf: string, table: string, clients: number): Promise<void> => {
    const share = Math.ceil(n / clients)
    const cpu0 = await serverCpu()
    const t0 = performance.now()
    await Promise.all(Array.from({ length: clients }, (_, k) => {
      const c = fork(fileURLToPath(import.meta.url), ['--client', conf, table, String(k), String(Math.min(share, Math.ceil((n - k) / clients))), String(clients)], { execArgv: ['--import', 'tsx'] })
      return new Promise((r) => c.once('exit', r))
    }))
    await until(table, n)
    report(`${name}, ${clients} clients`, n, t0, await since(cpu0))
  }
  /** Loads what the server loads on first use (ILP over HTTP and TCP, a table, a query) before anything is measured. */
  const warmUp = async (): Promise<void> => {
    const r = await fetch(`http://127.0.0.1:${ports.http}/write`, { method: 'POST', body: ilpBody('bench_warmup', 0, 1000) })
    if (r.status !== 204) throw new Error(`${r.status} ${await r.text()}`)
    const socket = connect(ports.tcp, '127.0.0.1')
    await new Promise((r) => socket.once('connect', r))
    socket.write(ilpBody('bench_warmup', 1000, 1000))
    await new Promise<void>((r) => socket.end(r))
    await until('bench_warmup', 2000)
  }
  /** The server alone: 75,000-row protocol-2 bodies (what the client sends per auto-flush) built beforehand, POSTed back to back. */
  const serverOnly = async (): Promise<void> => {
    const per = 75_000
    const requests = Math.max(1, Math.round(n / per))
    const bodies = Array.from({ length: requests }, (_, r) => ilpBody('bench_raw', r * per, per))
    const cpu0 = await serverCpu()
    const t0 = performance.now()
    for (const body of bodies) {
      const r = await fetch(`http://127.0.0.1:${ports.http}/write`, { method: 'POST', body })
      if (r.status !== 204) throw new Error(`${r.status} ${await r.text()}`)
    }
    report('server only, HTTP (prebuilt)', requests * per, t0, await since(cpu0))
  }
  /** The server alone over TCP: the same bodies written to one connection, timed until every row is counted. */
  const serverOnlyTcp = async (): Promise<void> => {
    const per = 75_000
    const requests = Math.max(1, Math.round(n / per))
    const bodies = Array.from({ length: requests }, (_, r) => ilpBody('bench_raw_tcp', r * per, per))
    const cpu0 = await serverCpu()
    const t0 = performance.now()
    const socket = connect(ports.tcp, '127.0.0.1')
    await new Promise((r) => socket.once('connect', r))
    for (const body of bodies) if (!socket.write(body)) await new Promise((r) => socket.once('drain', r))
    await new Promise<void>((r) => socket.end(r))
    const rows = requests * per
    await until('bench_raw_tcp', rows)
    report('server only, TCP (prebuilt)', rows, t0, await since(cpu0))
  }
  /**
   * The server alone with two producers: two connections POST prebuilt bodies at once, each stream
   * in timestamp order, the two interleaving (stream k at µs `2i + k`), so their batches meet in
   * group commits out of order: the out-of-order merge on every commit.
   */
  const serverOnly2 = async (): Promise<void> => {
    const per = 75_000
    const requests = Math.max(1, Math.round(n / per / 2))
    const t0s = 1_700_000_000_000_000
    const bodies = [0, 1].map((k) => Array.from({ length: requests }, (_, r) => ilpBody('bench_raw2', 0, per, t0s + k + 2 * r * per, 2)))
    const cpu0 = await serverCpu()
    const t0 = performance.now()
    await Promise.all(bodies.map(async (list) => {
      for (const body of list) {
        const r = await fetch(`http://127.0.0.1:${ports.http}/write`, { method: 'POST', body })
        if (r.status !== 204) throw new Error(`${r.status} ${await r.text()}`)
      }
    }))
    report('server only, HTTP, 2 streams', 2 * requests * per, t0, await since(cpu0))
  }
  const report = (name: string, rows: number, t0: number, [cpu, gc]: Cpu): void => {
    const s = (performance.now() - t0) / 1000
    console.log(`${name.padEnd(30)} ${rows} rows in ${s.toFixed(2)} s = ${Math.round(rows / s).toLocaleString('en-US')} rows/s (${Math.round(rows / cpu).toLocaleString('en-US')} rows per server CPU-second, ${(1e6 * cpu / rows).toFixed(2)} µs/row, of it GC ${(1e6 * gc / rows).toFixed(2)})`)
  }
  /** The client alone: rows built into its buffer, which is reset every 75,000 rows instead of sent. */
  const clientOnly = async (): Promise<void> => {
    const sender = await Sender.fromConfig('http::addr=127.0.0.1:1;protocol_version=2;auto_flush=off;init_buf_size=16777216;max_buf_size=104857600')
    const base = 1_700_000_000_000_000n
    const syms = ['AAPL', 'MSFT', 'GOOG', 'AMZN', 'NVDA', 'META', 'TSLA', 'AMD']
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    for (let i = 0; i < n; i++) {
      await sender.table('t').symbol('sym', syms[i & 7]!).symbol('venue', i & 1 ? 'X' : 'Y')
        .floatColumn('bid', 100 + (i % 100) / 8).floatColumn('ask', 100.5 + (i % 100) / 8).floatColumn('bid_sz', i % 1000)
        .floatColumn('ask_sz', (i * 7) % 1000).floatColumn('last', 100.25).floatColumn('vwap', 100.125)
        .intColumn('seq', i).at(base + BigInt(i), 'us')
      if (i % 75_000 === 74_999) sender.reset()
    }
    const c = process.cpuUsage(c0)
    const s = (performance.now() - t0) / 1000
    console.log(`${'client alone (no server)'.padEnd(28)} ${n} rows in ${s.toFixed(2)} s = ${Math.round(n / s).toLocaleString('en-US')} rows/s (${Math.round(n / ((c.user + c.system) / 1e6)).toLocaleString('en-US')} rows per CPU-second)`)
  }
  try {
    await warmUp()
    if (only.has('raw')) await serverOnly()
    if (only.has('rawtcp')) await serverOnlyTcp()
    if (only.has('raw2')) await serverOnly2()
    if (only.has('client')) await clientOnly()
    if (only.has('http')) await run('HTTP, protocol 2', `http::addr=127.0.0.1:${ports.http};protocol_version=2`, 'bench_http')
    if (only.has('tcp')) await run('TCP, protocol 2', `tcp::addr=127.0.0.1:${ports.tcp};protocol_version=2`, 'bench_tcp')
    if (only.has('http1')) await run('HTTP, protocol 1 (text)', `http::addr=127.0.0.1:${ports.http};protocol_version=1`, 'bench_http_v1')
    for (const mode of only) {
      const many = /^(http|tcp)(\d+)$/.exec(mode)
      if (many === null || mode === 'http1') continue
      const http = many[1] === 'http'
      await runMany(`${http ? 'HTTP' : 'TCP'}, protocol 2`, http ? `http::addr=127.0.0.1:${ports.http};protocol_version=2` : `tcp::addr=127.0.0.1:${ports.tcp};protocol_version=2`, `bench_${mode}`, Number(many[2]))
    }
  } finally {
    child.send('stop')
    await new Promise((r) => child.once('exit', r))
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Sends `count` rows through a Node client configured by `conf` (auto-flush defaults), then
 * flushes and closes it. Row `k` is row number `from + k * stride` of the whole stream, so that
 * `stride` clients sending `from = 0 .. stride - 1` interleave their timestamps as producers
 * writing "now" do (contiguous shares would make every flush but the newest client's out of
 * order, which measures the out-of-order merge rather than ingestion). The timestamp is passed
 * as a number of µs: the client converts it to BigInt itself, so a BigInt of ours per row is
 * pure cost (test/bench/ilp-client.ts).
 */
async function sendRows(conf: string, table: string, from: number, count: number, stride = 1): Promise<void> {
  const sender = await Sender.fromConfig(conf)
  if (conf.startsWith('tcp')) await sender.connect()
  const base = 1_700_000_000_000_000
  const syms = ['AAPL', 'MSFT', 'GOOG', 'AMZN', 'NVDA', 'META', 'TSLA', 'AMD']
  for (let k = 0; k < count; k++) {
    const i = from + k * stride
    await sender.table(table).symbol('sym', syms[i & 7]!).symbol('venue', i & 1 ? 'X' : 'Y')
      .floatColumn('bid', 100 + (i % 100) / 8).floatColumn('ask', 100.5 + (i % 100) / 8).floatColumn('bid_sz', i % 1000)
      .floatColumn('ask_sz', (i * 7) % 1000).floatColumn('last', 100.25).floatColumn('vwap', 100.125)
      .intColumn('seq', i).at(base + i, 'us')
  }
  await sender.flush()
  await sender.close()
}
