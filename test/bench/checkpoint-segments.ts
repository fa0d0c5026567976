/**
 * The checkpoint of rows two interleaved ILP streams left in memory as frozen segments (table.ts):
 * `pairs` pairs of `per`-row batches (10 columns, the ILP benches' shape), stream B's rows falling
 * between stream A's, committed one batch at a time with no checkpoint in between; then the
 * checkpoint (`db.close()`) is measured in CPU time. Before held-rows.ts it first joined every
 * segment into one version (a copy of every in-memory row), then encoded; after, it encodes the
 * segments as they are held.
 *
 *   node --import tsx test/bench/checkpoint-segments.ts [pairs=16] [per=50000] [rounds=3]
 *
 * Not a test: figures go to docs/benchmarks.md.
 */
process.env.EPOCHDB_WORKERS ??= '0'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { ilpBody } from './ilp-body.js'

const pairs = Number(process.argv[2] ?? 16)
const per = Number(process.argv[3] ?? 50_000)
const rounds = Number(process.argv[4] ?? 3)
const T0 = Date.UTC(2024, 0, 1) * 1000

const times: number[] = []
let count = 0n
for (let r = 0; r < rounds; r++) {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-ckpt-seg-bench-'))
  let db = await Database.open({ path: dir, checkpointBytes: 1 << 30 })
  for (let b = 0; b < pairs; b++) {
    // stream A at even µs steps, stream B at the odd ones among them
    for (const k of [0, 1]) {
      const w = db.lineWriter()
      w.write(ilpBody('t', b * per, per, T0 + k * 1000, 2000))
      await w.end()
    }
  }
  const c0 = process.cpuUsage()
  await db.close()
  const c = process.cpuUsage(c0)
  times.push((c.user + c.system) / 1000)
  db = await Database.open({ path: dir })
  count = (await db.query('select count() from t')).rows[0]![0] as bigint
  await db.close()
  rmSync(dir, { recursive: true, force: true })
}
console.log(`checkpoint of ${2 * pairs * per} interleaved rows (${pairs} pairs of ${per}, 10 columns), best of ${rounds}, CPU: ${Math.min(...times).toFixed(0)} ms (all: ${times.map((x) => x.toFixed(0)).join(', ')}); rows after ${count}`)
