/**
 * An out-of-order commit after a checkpoint: a durable table holds `rows` 10-column ILP rows (the
 * ILP benches' shape) in one DAY partition, checkpointed and reopened (nothing in memory); then one
 * batch of `late` rows arrives whose timestamps interleave the partition's last `late` rows (a
 * second stream writing "now"). Measured: CPU time of that commit and of the checkpoint after it
 * (`db.close()`), and what the commit read (STORAGE_STATS). Before the cut (file-part.ts `cut`) the
 * commit read and copied the whole partition and the checkpoint rewrote it; after, it reads the
 * partition from the first late timestamp on and the checkpoint writes only those rows.
 *
 * With `dedup` the table is created first with DEDUP UPSERT KEYS(timestamp, sym) (the cut then
 * falls before the first row at the oldest late timestamp; before this, a DEDUP table read and
 * rewrote the whole partition).
 *
 * With `tail` the late rows are spread evenly over the partition's last `tail` rows (default: they
 * interleave the last `late` rows), so the commit moves `tail` rows to memory.
 *
 *   node --import tsx test/bench/o3-tail.ts [rows=2000000] [late=20000] [rounds=3] [dedup|plain] [tail=late]
 *
 * Not a test: figures go to docs/benchmarks.md.
 */
process.env.EPOCHDB_WORKERS ??= '0'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { STORAGE_STATS } from '../../lib/storage/durable/part-cache.js'
import { ilpBody } from './ilp-body.js'

const rows = Number(process.argv[2] ?? 2_000_000)
const late = Number(process.argv[3] ?? 20_000)
const rounds = Number(process.argv[4] ?? 3)
const dedup = process.argv[5] === 'dedup'
const tail = Number(process.argv[6] ?? late)
const T0 = Date.UTC(2024, 0, 1) * 1000
// `rows` even timestamps over 20 hours of one day; the late rows take odd ones among the last
const step = 2 * Math.floor(20 * 3_600_000_000 / (2 * rows))

const cpu = async (f: () => Promise<unknown>): Promise<number> => { const c0 = process.cpuUsage(); await f(); const c = process.cpuUsage(c0); return (c.user + c.system) / 1000 }
const results: { commit: number; checkpoint: number; mb: number; count: bigint }[] = []
for (let r = 0; r < rounds; r++) {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-o3-tail-bench-'))
  let db = await Database.open({ path: dir })
  if (dedup) {
    await db.query(`create table t (sym symbol, venue symbol, bid double, ask double, bid_sz double, ask_sz double, last double, vwap double, seq long, timestamp timestamp)
      timestamp(timestamp) partition by day wal dedup upsert keys(timestamp, sym)`)
  }
  const w = db.lineWriter()
  const chunk = 250_000
  for (let i = 0; i < rows; i += chunk) w.write(ilpBody('t', i, Math.min(chunk, rows - i), T0, step))
  await w.end()
  await db.close()
  db = await Database.open({ path: dir })
  // late row k at the odd timestamp after row rows - tail + k * (tail / late)
  const body = ilpBody('t', 0, late, T0 + (rows - tail) * step + step / 2, step * Math.floor(tail / late))
  const bytes0 = STORAGE_STATS.bytesLoaded
  const commit = await cpu(async () => { const l = db.lineWriter(); l.write(body); await l.end() })
  const mb = (STORAGE_STATS.bytesLoaded - bytes0) / 1048576
  const checkpoint = await cpu(() => db.close())
  db = await Database.open({ path: dir })
  const count = (await db.query('select count() from t')).rows[0]![0] as bigint
  await db.close()
  rmSync(dir, { recursive: true, force: true })
  results.push({ commit, checkpoint, mb, count })
}
const best = (k: 'commit' | 'checkpoint'): number => Math.min(...results.map((x) => x[k]))
console.log(`O3 commit of ${late} rows${dedup ? ' (DEDUP table)' : ''} among the last ${tail} of ${rows} checkpointed rows (one DAY partition, 10 columns), best of ${rounds}, CPU: commit ${best('commit').toFixed(0)} ms, checkpoint ${best('checkpoint').toFixed(0)} ms; read ${results[0]!.mb.toFixed(1)} MB; rows after ${results[0]!.count}`)
