/**
 * Storage benchmark (not a test): `node --import tsx test/bench/storage.ts`.
 * Prints: durable ingest of N rows (default 10M) in batches of 10k through `db.append`, cold
 * open of the directory, a one-hour count()/avg() out of 30 days (cold: the first query after
 * open, which loads one partition's columns; and warm), and peak RSS while scanning the whole
 * table with a 256 MB budget (with the storage cache's peak loaded bytes).
 * Environment: EPOCHDB_BENCH_ROWS, EPOCHDB_BENCH_DIR.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Database } from '../../lib/index.js'
import { STORAGE_STATS, resetStorageStats } from '../../lib/storage/durable/part-cache.js'
import type { DurableStore } from '../../lib/storage/durable/store.js'

const ROWS = Number(process.env['EPOCHDB_BENCH_ROWS'] ?? 10_000_000)
const BATCH = 10_000
const SPAN = 30 * 86_400_000_000
const BASE = Date.UTC(2024, 0, 1) * 1000
const dir = process.env['EPOCHDB_BENCH_DIR'] ?? mkdtempSync(join(tmpdir(), 'epochdb-bench-'))
const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`
const kb = (b: number) => `${(b / 1024).toFixed(0)} KB`

async function main(): Promise<void> {
  let db = await Database.open({ path: dir })
  await db.query('create table t (ts timestamp, sym symbol, v double) timestamp(ts) partition by day')
  const syms = Array.from({ length: 100 }, (_, i) => `s${i}`)
  const step = SPAN / ROWS
  let t0 = performance.now()
  for (let b = 0; b < ROWS; b += BATCH) {
    const ts = new Float64Array(BATCH)
    const v = new Float64Array(BATCH)
    const sym: string[] = new Array(BATCH)
    for (let i = 0; i < BATCH; i++) { ts[i] = BASE + Math.floor((b + i) * step); v[i] = (b + i) % 1000; sym[i] = syms[(b + i) % 100]! }
    await db.append('t', { ts, sym, v })
  }
  const ingest = performance.now() - t0
  t0 = performance.now()
  await db.close()
  const closeMs = performance.now() - t0
  console.log(`durable ingest: ${ROWS} rows in ${(ingest / 1000).toFixed(2)} s = ${(ROWS / ingest * 1000 / 1e6).toFixed(2)} M rows/s (+ final checkpoint on close ${closeMs.toFixed(0)} ms)`)

  t0 = performance.now()
  db = await Database.open({ path: dir, memoryBudget: 256 << 20 })
  console.log(`cold open: ${(performance.now() - t0).toFixed(1)} ms`)
  const q = "select count(), avg(v) from t where ts in '2024-01-15T10'"
  resetStorageStats()
  t0 = performance.now()
  await db.query(q)
  console.log(`one hour count()/avg(), cold (first query after open, engine code not yet compiled): ${(performance.now() - t0).toFixed(1)} ms, ${STORAGE_STATS.partitionLoads} partition(s) loaded whole, ${kb(STORAGE_STATS.bytesLoaded)} read`)
  // cold data with warm code: the same query shape on other days' partitions, none of them loaded yet
  const coldTimes: number[] = []
  for (let day = 2; day <= 28; day += 2) {
    const qd = `select count(), avg(v) from t where ts in '2024-01-${String(day).padStart(2, '0')}T10'`
    if (day === 14) continue
    resetStorageStats()
    t0 = performance.now()
    await db.query(qd)
    coldTimes.push(performance.now() - t0)
  }
  coldTimes.sort((a, b) => a - b)
  console.log(`one hour count()/avg() on a partition not in memory (engine warm): median ${coldTimes[coldTimes.length >> 1]!.toFixed(1)} ms over ${coldTimes.length} days, ${kb(STORAGE_STATS.bytesLoaded)} read for the last`)
  let best = Infinity
  for (let i = 0; i < 20; i++) { t0 = performance.now(); await db.query(q); best = Math.min(best, performance.now() - t0) }
  console.log(`one hour count()/avg(), warm: ${best.toFixed(2)} ms`)
  let peak = process.memoryUsage().rss
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss) }, 5)
  t0 = performance.now()
  let n = 0
  for await (const b of db.stream('select ts, sym, v from t')) { n += b.length; peak = Math.max(peak, process.memoryUsage().rss) }
  clearInterval(timer)
  const cache = (db as unknown as { store: DurableStore }).store.cache
  console.log(`full scan of ${n} rows with a 256 MB budget: ${(performance.now() - t0).toFixed(0)} ms, peak RSS ${mb(peak)}, peak loaded ${mb(cache.peakBytes)}, ${mb(STORAGE_STATS.bytesLoaded)} read`)
  await db.close()
  if (process.env['EPOCHDB_BENCH_DIR'] === undefined) rmSync(dir, { recursive: true, force: true })
}

void main()
