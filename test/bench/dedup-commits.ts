/**
 * Commits into a DEDUP table between two checkpoints: `batches` ILP batches of `per` 10-column
 * rows (the ILP benches' shape), each in timestamp order after the one before, into a durable
 * table with DEDUP UPSERT KEYS(timestamp, sym) and no checkpoint meanwhile. Measured: CPU time of
 * all the commits. Before table.ts `mergeDedup`, every DEDUP commit copied every in-memory row
 * (twice: a clone, then the sorted copy), so the cost grew with the rows since the last checkpoint.
 *
 *   node --import tsx test/bench/dedup-commits.ts [batches=40] [per=10000] [rounds=2]
 *
 * Not a test: figures go to docs/benchmarks.md.
 */
process.env.EPOCHDB_WORKERS ??= '0'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { ilpBody } from './ilp-body.js'

const batches = Number(process.argv[2] ?? 40)
const per = Number(process.argv[3] ?? 10_000)
const rounds = Number(process.argv[4] ?? 2)
const T0 = Date.UTC(2024, 0, 1) * 1000

const results: number[] = []
let count = 0n
for (let r = 0; r < rounds; r++) {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-dedup-bench-'))
  const db = await Database.open({ path: dir, checkpointBytes: 1 << 30 })
  await db.query(`create table t (sym symbol, venue symbol, bid double, ask double, bid_sz double, ask_sz double, last double, vwap double, seq long, timestamp timestamp)
    timestamp(timestamp) partition by day wal dedup upsert keys(timestamp, sym)`)
  const bodies = Array.from({ length: batches }, (_, b) => ilpBody('t', b * per, per, T0, 1000))
  const c0 = process.cpuUsage()
  for (const body of bodies) { const w = db.lineWriter(); w.write(body); await w.end() }
  const c = process.cpuUsage(c0)
  results.push((c.user + c.system) / 1000)
  count = (await db.query('select count() from t')).rows[0]![0] as bigint
  await db.close()
  rmSync(dir, { recursive: true, force: true })
}
console.log(`${batches} DEDUP commits of ${per} rows (10 columns), no checkpoint between, best of ${rounds}, CPU: ${Math.min(...results).toFixed(0)} ms (${results.map((x) => x.toFixed(0)).join(', ')}); rows ${count}`)
