/**
 * Benchmark (not a test): a filter alone, on one thread vs split across the worker threads
 * (`Async Filter`, PHYSICAL_TUNING.filters; `EPOCHDB_PARALLEL_FILTER=1`), over the bench rows of
 * generate.ts, at several selectivities. Both plans run in turn in one process (interleaved,
 * median of EPOCHDB_BENCH_RUNS, default 5), results counted from streamed batches.
 *
 *   node --import tsx test/bench/parallel-filter.ts [rows...]     (default 1000000 10000000)
 */
import { performance } from 'node:perf_hooks'
import { loadavg } from 'node:os'
import { Database } from '../../lib/index.js'
import { PHYSICAL_TUNING } from '../../lib/plan/physical/index.js'
import { parallelWorkers } from '../../lib/exec/parallel/pool.js'
import { generateRows } from './generate.js'

const RUNS = Number(process.env['EPOCHDB_BENCH_RUNS'] ?? 5)
const SIZES = process.argv.slice(2).map(Number).filter((n) => n > 0)

// v is uniform in [0, 256): v > 255.97 keeps 0.01 %, v < 2.56 1 %, v < 25.6 10 %, v < 128 50 %
// the last one reads the first half of the table's time span (rows every 10 ms)
const half = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 5).toISOString()
const QUERIES: [string, (n: number) => string][] = [
  ['0.01 %, all columns', () => 'select * from t where v > 255.9744'],
  ['1 %, all columns', () => 'select * from t where v < 2.56'],
  ['10 %, all columns', () => 'select * from t where v < 25.6'],
  ['50 %, all columns', () => 'select * from t where v < 128'],
  ['10 %, one column', () => 'select v from t where v < 25.6'],
  ['1 %, symbol and value', () => "select sym, v from t where sym = 'SYM007' and v < 128"],
  ['10 %, first half in time', (n) => `select * from t where v < 25.6 and ts < '${half(n)}'`],
]

async function main(): Promise<void> {
  console.log(`workers ${parallelWorkers()}, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`)
  for (const n of SIZES.length > 0 ? SIZES : [1_000_000, 10_000_000]) {
    const data = generateRows(n)
    const db = await Database.open()
    await db.query('CREATE TABLE t (ts TIMESTAMP, sym SYMBOL, v DOUBLE) TIMESTAMP(ts) PARTITION BY DAY')
    for (let lo = 0; lo < n; lo += 1_000_000) {
      const hi = Math.min(n, lo + 1_000_000)
      await db.append('t', { ts: data.ts.subarray(lo, hi), sym: data.sym.slice(lo, hi), v: data.v.subarray(lo, hi) })
    }
    console.log(`\n${n.toLocaleString('en-US')} rows`)
    for (const [label, query] of QUERIES) {
      const sql = query(n)
      const times: Record<'serial' | 'split', number[]> = { serial: [], split: [] }
      let rows = 0
      for (let k = 0; k <= RUNS; k++) {
        for (const mode of ['serial', 'split'] as const) {
          PHYSICAL_TUNING.filters = mode === 'split'
          const t0 = performance.now()
          let out = 0
          for await (const b of db.stream(sql)) out += b.length
          if (k > 0) times[mode].push(performance.now() - t0)
          rows = out
        }
      }
      PHYSICAL_TUNING.filters = true
      const plan = (await db.query(`explain ${sql}`)).rows.some((r) => String(r[0]).includes('Async Filter')) ? 'Async Filter' : 'not split: fewer rows than minRows'
      const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!
      const s = med(times.serial)
      const p = med(times.split)
      console.log(`${label.padEnd(28)} ${String(rows).padStart(9)} rows  serial ${s.toFixed(1).padStart(7)} ms  split ${p.toFixed(1).padStart(7)} ms  split/serial ${(p / s).toFixed(2)}  (${plan})`)
    }
    await db.close()
  }
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`)
}

await main()
