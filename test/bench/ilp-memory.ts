/**
 * ILP memory over a long stream: the server (REST adapter over a data-directory database, in a
 * child process) takes protocol-2 bodies of 75,000 10-column rows (what the Node client sends
 * per auto-flush) back to back for `minutes`, with rising timestamps (each request spans about
 * half a day, so DAY partitions roll over and older ones are checkpointed); every 10 s it reports
 * its heap, external memory (typed arrays and Buffers; `arrayBuffers` is the part of it in
 * (Shared)ArrayBuffers, where column data lives), RSS, and the store's memory budget: the bytes
 * it counts and the bytes the counted columns keep alive (their whole buffers). Flat means: after the first minutes the
 * figures stop rising with the rows written. The table's in-memory data is bounded by the
 * database's memory budget (`budgetMB`, default the library's 1 GiB).
 *
 *   node --import tsx test/bench/ilp-memory.ts [minutes=10] [budgetMB]
 *
 * Not a test: figures go to docs/benchmarks.md.
 */
import { fork } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { glibcVersion, mallocEnv, v8Args } from '../../examples/launch.js'

type Sample = { s: number; heap: number; external: number; arrayBuffers: number; rss: number; counted: number; retained: number }

/**
 * What the store's memory budget counts (bytes of loaded columns) and what those columns really
 * keep alive: the distinct ArrayBuffers behind them, whole (a view keeps its entire buffer).
 * Reads the cache's internals: a bench, not an API.
 */
function budgetFigures(db: object): { counted: number; retained: number } {
  type Cache = { bytes: number; entries: Map<string, { owner: { cols: ({ data: unknown } | undefined)[] }; c: number }> }
  const cache = (db as { store?: { cache: Cache } }).store?.cache
  if (cache === undefined) return { counted: 0, retained: 0 }
  const seen = new Set<ArrayBufferLike>()
  let retained = 0
  for (const e of cache.entries.values()) {
    const d = e.owner.cols[e.c]?.data as { buffer?: ArrayBufferLike } | undefined
    if (d?.buffer === undefined || seen.has(d.buffer)) continue
    seen.add(d.buffer)
    retained += d.buffer.byteLength
  }
  return { counted: cache.bytes, retained }
}

if (process.argv[2] === '--server') {
  const { Database } = await import('../../lib/index.js')
  const { createHttpServer } = await import('../../adapters/http/index.js')
  const budget = process.argv[4] === undefined ? undefined : Number(process.argv[4]) * 1048576
  const db = await Database.open({ path: process.argv[3]!, memoryBudget: budget })
  const http = createHttpServer(db)
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r))
  const t0 = performance.now()
  const sample = (): void => {
    const m = process.memoryUsage()
    process.send!({ s: Math.round((performance.now() - t0) / 1000), heap: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, rss: m.rss, ...budgetFigures(db) } satisfies Sample)
  }
  setInterval(sample, 10_000).unref()
  process.send!({ port: (http.address() as AddressInfo).port })
  process.on('message', () => { void db.close().then(() => process.exit(0)) })
} else {
  const minutes = Number(process.argv[2] ?? 10)
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-ilp-mem-'))
  // the server runs as `npm start` runs it: examples/launch.ts's V8 flags and glibc allocator tunables (EPOCHDB_V8_TUNING=0 / EPOCHDB_MALLOC_TUNING=0: without)
  const child = fork(fileURLToPath(import.meta.url), ['--server', dir, ...(process.argv[3] === undefined ? [] : [process.argv[3]])], { env: { ...process.env, ...mallocEnv(process.env, glibcVersion()) }, execArgv: ['--import', 'tsx', ...v8Args([], process.env)] })
  const samples: Sample[] = []
  const mb = (n: number): string => (n / 1048576).toFixed(0).padStart(6)
  let rows = 0
  console.log('     s  heap MB  external MB  arrayBuffers MB  rss MB  counted MB  retained MB  rows')
  const port = await new Promise<number>((r) => child.on('message', (m) => {
    if ('port' in (m as object)) { r((m as { port: number }).port); return }
    // printed as they come, so a long run interrupted still leaves its curve
    const x = m as Sample
    samples.push(x)
    console.log(`${String(x.s).padStart(6)} ${mb(x.heap)}   ${mb(x.external)}       ${mb(x.arrayBuffers)}        ${mb(x.rss)}    ${mb(x.counted)}     ${mb(x.retained)}  ${rows}`)
  }))
  const syms = ['AAPL', 'MSFT', 'GOOG', 'AMZN', 'NVDA', 'META', 'TSLA', 'AMD']
  const per = 75_000
  // one body, its timestamps (fixed-width text) rewritten in place for each request
  const parts: Buffer[] = []
  const tsAt: number[] = []
  let len = 0
  const dbl = (name: string, v: number): Buffer => { const b = Buffer.alloc(name.length + 11); b.write(`${name}==`); b[name.length + 2] = 0x10; b.writeDoubleLE(v, name.length + 3); return b }
  for (let i = 0; i < per; i++) {
    const row = [Buffer.from(`mem,sym=${syms[i & 7]},venue=${i & 1 ? 'X' : 'Y'} `), dbl('bid', 100 + (i % 100) / 8), Buffer.from(','), dbl('ask', 100.5), Buffer.from(','),
      dbl('bid_sz', i % 1000), Buffer.from(','), dbl('ask_sz', 3), Buffer.from(','), dbl('last', 100.25), Buffer.from(','), dbl('vwap', 100.125), Buffer.from(`,seq=${i}i `)]
    for (const b of row) { parts.push(b); len += b.length }
    tsAt.push(len)
    const ts = Buffer.from('0000000000000000t\n')
    parts.push(ts)
    len += ts.length
  }
  const body = Buffer.concat(parts)
  let ts = 1_700_000_000_000_000
  const end = performance.now() + minutes * 60_000
  const t0 = performance.now()
  while (performance.now() < end) {
    for (const at of tsAt) { body.write(String(ts), at, 16, 'latin1'); ts += 576_000 }
    const r = await fetch(`http://127.0.0.1:${port}/write`, { method: 'POST', body })
    if (r.status !== 204) throw new Error(`${r.status} ${await r.text()}`)
    rows += per
  }
  const s = (performance.now() - t0) / 1000
  await new Promise((r) => setTimeout(r, 10_500))
  console.log(`${rows.toLocaleString('en-US')} rows in ${s.toFixed(0)} s (${Math.round(rows / s).toLocaleString('en-US')} rows/s)`)
  const after = (from: number): Sample[] => samples.filter((x) => x.s >= from)
  const range = (xs: Sample[], k: keyof Sample): string => xs.length === 0 ? '-' : `${mb(Math.min(...xs.map((x) => x[k])))}-${mb(Math.max(...xs.map((x) => x[k]))).trim()}`
  for (const [label, xs] of [['first minute', samples.filter((x) => x.s < 60)], ['after 2 min', after(120)], ['last 3 min', after(s - 180)]] as const) {
    console.log(`${label.padEnd(13)} heap ${range(xs, 'heap')} MB, external ${range(xs, 'external')} MB, arrayBuffers ${range(xs, 'arrayBuffers')} MB, rss ${range(xs, 'rss')} MB, budget counted ${range(xs, 'counted')} MB, retained ${range(xs, 'retained')} MB`)
  }
  child.send('stop')
  await new Promise((r) => child.once('exit', r))
  rmSync(dir, { recursive: true, force: true })
}
