/**
 * Benchmark (not a test): LATEST ON ... PARTITION BY over an interval. N rows (default 5M) over
 * 50 days in memory, 8 symbols on every row; the interval is the first 40 days. The backward scan
 * (this branch) reads from the end of the interval and stops once the 8 symbols and the null key
 * are found; the forward pass (before) read the whole interval. Prints the median CPU time of
 * EPOCHDB_BENCH_RUNS rounds (default 5) and the rows the backward scan read (LATEST_ON_STATS).
 *
 *   node --import tsx test/bench/latest-on-interval.ts [rows]
 */
import { loadavg } from 'node:os'
import { Database } from '../../lib/index.js'
import { LATEST_ON_STATS } from '../../lib/exec/operators/latest-on.js'

const ROWS = Number(process.argv[2] ?? 5_000_000)
const RUNS = Number(process.env['EPOCHDB_BENCH_RUNS'] ?? 5)
const DAYS = 50
const DAY = 86_400_000_000
const BASE = Date.UTC(2024, 0, 1) * 1000

const db = await Database.open()
await db.query('create table t (ts timestamp, sym symbol, v long) timestamp(ts) partition by day')
const step = Math.floor((DAYS * DAY) / ROWS)
const ts = Float64Array.from({ length: ROWS }, (_, i) => BASE + i * step)
// a null key near the interval's end, so the backward scan can stop without probing for it
const sym = Array.from({ length: ROWS }, (_, i) => (i === Math.floor(ROWS * 0.79) ? null : `s${i % 8}`))
const v = Float64Array.from({ length: ROWS }, (_, i) => i)
await db.append('t', { ts, sym, v })
const end = new Date((BASE + 40 * DAY) / 1000).toISOString()

const QUERIES: [string, string][] = [
  ['latest on, literal interval', `select sym, v from t where ts < '${end}' latest on ts partition by sym`],
  ['latest on, now()-style bound', `select sym, v from t where ts < dateadd('d', 40, '${new Date(BASE / 1000).toISOString()}'::timestamp) latest on ts partition by sym`],
  ['latest on, whole table', 'select sym, v from t latest on ts partition by sym'],
]
const cpu = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
console.log(`rows=${ROWS} runs=${RUNS} load=${loadavg().map((x) => x.toFixed(1)).join(' ')}`)
for (const [label, sql] of QUERIES) {
  const times: number[] = []
  let read = 0
  for (let r = 0; r < RUNS; r++) {
    LATEST_ON_STATS.rows = 0
    const t0 = cpu()
    const res = await db.query(sql)
    times.push(cpu() - t0)
    read = LATEST_ON_STATS.rows
    if (res.rows.length !== 9) throw new RangeError(`expected 9 keys, got ${res.rows.length}`)
  }
  console.log(`${label.padEnd(32)} ${median(times).toFixed(1).padStart(8)} ms CPU   rows read backward: ${read}`)
}
await db.close()
