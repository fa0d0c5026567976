/**
 * Bulk append, durable vs in memory (a benchmark, not a test):
 * `node --import tsx test/bench/tsbs/append.ts [--hosts 1000] [--days 1] [--mode both|memory|durable] [--via append|imp]`.
 *
 * Appends the TSBS cpu-only rows (`generate.ts`: 10 SYMBOL tags, 10 DOUBLE metrics, ts; chunks
 * of 360 10-second steps, i.e. 360k rows at 1,000 hosts) with `db.append` into a table
 * partitioned by day, in memory and into a data directory in the temporary directory (WAL group
 * commit per append, checkpoints every 64 MB of WAL, as by default). Rows are generated inside the
 * timed loop, the same way for both. Prints wall time, rows/s, the process's CPU time, the time
 * of the closing checkpoint and RSS growth (sampled every 20 ms and at the end). `--via imp` sends
 * each chunk as a CSV upload to REST `/imp` (one request per chunk, the CSV built before timing).
 * Also prints how long the engine held the event loop at most (the longest gap between ticks of a
 * 1 ms interval, not counting the bench's own generation of a chunk) and, with `--client`, how many
 * answers another client querying `select count() from cpu` every 5 ms got, and its slowest.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { Database } from '../../../lib/index.js'
import { type AddressInfo } from 'node:net'
import { createHttpServer } from '../../../adapters/http/index.js'
import { type Chunk, METRICS, TAGS, chunks, rowCount } from './generate.js'

const { values: args } = parseArgs({ options: { hosts: { type: 'string', default: '1000' }, days: { type: 'string', default: '1' }, mode: { type: 'string', default: 'both' }, via: { type: 'string', default: 'append' }, client: { type: 'boolean', default: false } } })
const shape = { hosts: Number(args.hosts), days: Number(args.days) }

async function load(durable: boolean): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-append-'))
  try {
    const db = await Database.open(durable ? { path: dir } : {})
    const cols = [...TAGS.map((t) => `${t} SYMBOL`), ...METRICS.map((m) => `${m} DOUBLE`), 'ts TIMESTAMP']
    await db.query(`CREATE TABLE cpu (${cols.join(', ')}) TIMESTAMP(ts) PARTITION BY DAY`)
    const viaImp = args.via === 'imp'
    const uploads = viaImp ? [...chunks(shape, 360)].map(csvOf) : []
    const server = viaImp ? createHttpServer(db) : undefined
    if (server !== undefined) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = server === undefined ? '' : `http://127.0.0.1:${(server.address() as AddressInfo).port}/imp?name=cpu`
    const rss0 = process.memoryUsage().rss
    let peak = rss0
    const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss) }, 20)
    // the longest gap between two ticks of a 1 ms interval after the bench's own chunk generation ended
    let gap = 0
    let last = performance.now()
    // the bench generates a chunk in [genStart, generated]: what the loop was held outside it is the engine's
    let genStart = 0
    let generated = 0
    const ticker = setInterval(() => {
      const now = performance.now()
      gap = Math.max(gap, generated > last ? Math.max(genStart - last, now - generated) : now - last)
      last = now
    }, 1)
    let querying = args.client
    let answered = 0
    let slowest = 0
    const client = (async () => {
      while (querying) {
        const q0 = performance.now()
        await db.query('select count() from cpu')
        slowest = Math.max(slowest, performance.now() - q0)
        answered++
        await new Promise((r) => setTimeout(r, 5))
      }
    })()
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    for (const body of uploads) {
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body: new Uint8Array(body) })
      if (!r.ok) throw new Error(`/imp answered ${r.status}: ${await r.text()}`)
      await r.arrayBuffer()
    }
    const it = (viaImp ? [] : chunks(shape, 360))[Symbol.iterator]()
    for (;;) {
      genStart = performance.now()
      const next = it.next()
      if (next.done === true) break
      const c = next.value
      const data: Record<string, ArrayLike<unknown>> = { ts: c.ts }
      TAGS.forEach((t, i) => { data[t] = c.tags[i]! })
      METRICS.forEach((m, i) => { data[m] = c.metrics[i]! })
      generated = performance.now()
      await db.append('cpu', data)
    }
    const ms = performance.now() - t0
    const cpu = process.cpuUsage(c0)
    querying = false
    await client
    clearInterval(ticker)
    peak = Math.max(peak, process.memoryUsage().rss)
    clearInterval(timer)
    const t1 = performance.now()
    server?.close()
    await db.close()
    const closeMs = performance.now() - t1
    const rows = rowCount(shape)
    console.log(`${durable ? 'durable  ' : 'in memory'}${viaImp ? ' /imp' : ''}: ${rows.toLocaleString('en-US')} rows in ${(ms / 1000).toFixed(2)} s = ${Math.round(rows / (ms / 1000)).toLocaleString('en-US')} rows/s; ` +
      `CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s; close ${closeMs.toFixed(0)} ms; RSS +${((peak - rss0) / 2 ** 20).toFixed(0)} MB at peak; ` +
      `loop held at most ${gap.toFixed(0)} ms${args.client === true ? `; ${answered} answers, slowest ${slowest.toFixed(0)} ms` : ''}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const BOUNDARY = 'epochdb-bench-boundary'

/** One chunk as a multipart CSV upload (header row, then the rows; timestamps as ISO text). */
function csvOf(c: Chunk): Buffer {
  const lines = [[...TAGS, ...METRICS, 'ts'].join(',')]
  for (let i = 0; i < c.length; i++) {
    lines.push([...TAGS.map((_, t) => c.tags[t]![i]!), ...METRICS.map((_, m) => String(c.metrics[m]![i]!)), new Date(c.ts[i]! / 1000).toISOString()].join(','))
  }
  return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="data"; filename="cpu.csv"\r\n\r\n${lines.join('\n')}\r\n--${BOUNDARY}--\r\n`)
}

async function main(): Promise<void> {
  console.log(`bulk append, ${shape.hosts} hosts x ${shape.days} day(s); node ${process.version}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
  if (args.mode !== 'durable') await load(false)
  if (args.mode !== 'memory') await load(true)
}

void main()
