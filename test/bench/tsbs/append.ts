/**
 * Bulk append, durable vs in memory (a benchmark, not a test):
 * `node --import tsx test/bench/tsbs/append.ts [--hosts 1000] [--days 1] [--mode both|memory|durable]`.
 *
 * Appends the TSBS cpu-only rows (`generate.ts`: 10 SYMBOL tags, 10 DOUBLE metrics, ts; chunks
 * of 360 10-second steps, i.e. 360k rows at 1,000 hosts) with `db.append` into a table
 * partitioned by day, in memory and into a data directory in the temporary directory (WAL group
 * commit per append, checkpoints every 64 MB of WAL, as by default). Rows are generated inside the
 * timed loop, the same way for both. Prints wall time, rows/s, the process's CPU time, the time
 * of the closing checkpoint and RSS growth (sampled every 20 ms and at the end).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { Database } from '../../../lib/index.js'
import { METRICS, TAGS, chunks, rowCount } from './generate.js'

const { values: args } = parseArgs({ options: { hosts: { type: 'string', default: '1000' }, days: { type: 'string', default: '1' }, mode: { type: 'string', default: 'both' } } })
const shape = { hosts: Number(args.hosts), days: Number(args.days) }

async function load(durable: boolean): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-append-'))
  try {
    const db = await Database.open(durable ? { path: dir } : {})
    const cols = [...TAGS.map((t) => `${t} SYMBOL`), ...METRICS.map((m) => `${m} DOUBLE`), 'ts TIMESTAMP']
    await db.query(`CREATE TABLE cpu (${cols.join(', ')}) TIMESTAMP(ts) PARTITION BY DAY`)
    const rss0 = process.memoryUsage().rss
    let peak = rss0
    const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss) }, 20)
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    for (const c of chunks(shape, 360)) {
      const data: Record<string, ArrayLike<unknown>> = { ts: c.ts }
      TAGS.forEach((t, i) => { data[t] = c.tags[i]! })
      METRICS.forEach((m, i) => { data[m] = c.metrics[i]! })
      await db.append('cpu', data)
    }
    const ms = performance.now() - t0
    const cpu = process.cpuUsage(c0)
    peak = Math.max(peak, process.memoryUsage().rss)
    clearInterval(timer)
    const t1 = performance.now()
    await db.close()
    const closeMs = performance.now() - t1
    const rows = rowCount(shape)
    console.log(`${durable ? 'durable  ' : 'in memory'}: ${rows.toLocaleString('en-US')} rows in ${(ms / 1000).toFixed(2)} s = ${Math.round(rows / (ms / 1000)).toLocaleString('en-US')} rows/s; ` +
      `CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s; close ${closeMs.toFixed(0)} ms; RSS +${((peak - rss0) / 2 ** 20).toFixed(0)} MB at peak`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  console.log(`bulk append, ${shape.hosts} hosts x ${shape.days} day(s); node ${process.version}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
  if (args.mode !== 'durable') await load(false)
  if (args.mode !== 'memory') await load(true)
}

void main()
