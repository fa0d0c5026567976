/**
 * A steady out-of-order stream into a durable table whose history is Parquet: 10 DAY partitions of
 * `perDay` rows (ts, s SYMBOL, x LONG, d DOUBLE), the first nine converted to Parquet; then for
 * `stream` rows a writer appends batches of `batch` rows whose timestamps fall in day `late` (1-based;
 * a moving 10-second window of it), awaiting each, with a checkpoint every 4 MiB of WAL. Prints
 * rows/s, the process's CPU (its threads' too) per row, the slowest append, the longest the event loop was
 * held (`loopMaxMs`, perf_hooks' event-loop delay: what another client waits at worst), how long `close`
 * took (it waits for pending writes back to Parquet) and how many partitions are Parquet after it.
 *
 *   node --import tsx test/bench/parquet-o3.ts [stream=600000] [perDay=300000] [late=9] [batch=10000] [libA libB ...]
 *
 * With library directories given (e.g. a checkout of the previous code's `lib` and this one's),
 * runs each in a child process, alternating, twice: the ratios come from one run on one machine.
 * Not a test: figures go to docs/benchmarks.md.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'

const stream = Number(process.argv[2] ?? 600_000)
const perDay = Number(process.argv[3] ?? 300_000)
const late = Number(process.argv[4] ?? 9)
const BATCH = Number(process.argv[5] ?? 10_000)
const libs = process.argv.slice(6)
const DAY = 86_400_000_000
const BASE = Date.UTC(2024, 0, 1) * 1000

async function run(lib: string): Promise<void> {
  const { Database } = await import(join(resolve(lib), 'index.js')) as typeof import('../../lib/index.js')
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-pq-o3-'))
  try {
    let db = await Database.open({ path: dir })
    await db.query(`CREATE TABLE t AS (SELECT timestamp_sequence(${BASE}, ${Math.floor(DAY / perDay)}) ts, rnd_symbol('a','b','c','d') s, x, rnd_double() d
      FROM long_sequence(${10 * perDay})) TIMESTAMP(ts) PARTITION BY DAY`)
    await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET WHERE ts < ${BASE + 9 * DAY}`)
    await db.close()
    db = await Database.open({ path: dir, checkpointBytes: 4 << 20 })
    let rows = 0
    let slowest = 0
    let k = 0
    const loop = monitorEventLoopDelay({ resolution: 5 })
    loop.enable()
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    while (rows < stream) {
      // late rows: a 10-second window of day `late`, moving forward batch by batch
      const from = BASE + (late - 1) * DAY + (k++ % 8000) * 10_000_000
      const ts = new Float64Array(BATCH)
      for (let i = 0; i < BATCH; i++) ts[i] = from + Math.floor(i * 10_000_000 / BATCH)
      const a = performance.now()
      await db.append('t', { ts, s: new Array<string>(BATCH).fill('z'), x: new Float64Array(BATCH).fill(-1), d: new Float64Array(BATCH).fill(0.5) })
      slowest = Math.max(slowest, performance.now() - a)
      rows += BATCH
    }
    const wall = (performance.now() - t0) / 1000
    const cpu = process.cpuUsage(cpu0)
    loop.disable()
    const c0 = performance.now()
    await db.close()
    const closeMs = performance.now() - c0
    db = await Database.open({ path: dir })
    const parquet = (await db.query(`SELECT count() FROM table_partitions('t') WHERE isParquet`)).rows[0]![0]
    await db.close()
    console.log(JSON.stringify({ lib, late, batch: BATCH, rows, wallS: +wall.toFixed(1), rowsPerSec: Math.round(rows / wall), cpuS: +((cpu.user + cpu.system) / 1e6).toFixed(1), cpuUsPerRow: +((cpu.user + cpu.system) / rows).toFixed(2), slowestAppendMs: Math.round(slowest), loopMaxMs: Math.round(loop.max / 1e6), loopP99Ms: Math.round(loop.percentile(99) / 1e6), closeMs: Math.round(closeMs), parquetNow: Number(parquet) }))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (libs[0] === '--one') await run(libs[1]!)
else if (libs.length === 0) await run(join(import.meta.dirname, '../../lib'))
else {
  for (let round = 0; round < 2; round++) {
    for (const lib of libs) {
      const r = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, String(stream), String(perDay), String(late), String(BATCH), '--one', lib], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
      process.stdout.write(r.stdout)
    }
  }
}
