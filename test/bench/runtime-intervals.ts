/**
 * Benchmark (not a test): runtime-constant timestamp bounds (`ts IN today()`,
 * `ts > dateadd('h', -1, now())`, `ts > $1`) against the same condition read by a full scan
 * (`OR v < 0`, never true, keeps the condition out of the scan: what every build before the
 * runtime interval scan did) and against the literal interval. N rows (default 10M) over 100
 * days in memory, 100k a day; the clock is fixed at noon of day 50, so "today" is one day in the
 * middle. The queries run in turn, EPOCHDB_BENCH_RUNS rounds (default 5); each prints the median
 * of CPU time (user + system of the process, so worker threads count) and of wall time.
 *
 *   node --import tsx test/bench/runtime-intervals.ts [rows]
 */
import { performance } from 'node:perf_hooks'
import { loadavg } from 'node:os'
import { Database } from '../../lib/index.js'

const ROWS = Number(process.argv[2] ?? 10_000_000)
const RUNS = Number(process.env['EPOCHDB_BENCH_RUNS'] ?? 5)
const DAYS = 100
const DAY = 86_400_000_000
const BASE = Date.UTC(2024, 0, 1) * 1000
const NOW = BASE + 50 * DAY + DAY / 2
const TODAY = new Date(BASE / 1000 + 50 * DAY / 1000).toISOString().slice(0, 10)

const QUERIES: [string, string, unknown[]][] = [
  ['ts IN today()', 'select count() from t where ts in today()', []],
  ['  same, full scan', 'select count() from t where ts in today() or v < 0', []],
  [`  literal ts IN '${TODAY}'`, `select count() from t where ts in '${TODAY}'`, []],
  ["ts > dateadd('h', -1, now())", "select count(), sum(v) from t where ts > dateadd('h', -1, now()) and ts <= now()", []],
  ['  same, full scan', "select count(), sum(v) from t where (ts > dateadd('h', -1, now()) and ts <= now()) or v < 0", []],
  ['ts BETWEEN $1 AND $2 (one day)', 'select count(), sum(v) from t where ts between $1 and $2', [`${TODAY}T00:00:00Z`, `${TODAY}T23:59:59.999999Z`]],
  ['  same, full scan', 'select count(), sum(v) from t where ts between $1 and $2 or v < 0', [`${TODAY}T00:00:00Z`, `${TODAY}T23:59:59.999999Z`]],
]

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!

async function main(): Promise<void> {
  console.log(`${ROWS} rows over ${DAYS} days, ${RUNS} rounds; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`)
  const db = await Database.open({ clock: () => NOW })
  await db.query('create table t (ts timestamp, v double) timestamp(ts) partition by day')
  const step = (DAYS * DAY) / ROWS
  for (let lo = 0; lo < ROWS; lo += 1_000_000) {
    const n = Math.min(1_000_000, ROWS - lo)
    const ts = new Float64Array(n)
    const v = new Float64Array(n)
    for (let i = 0; i < n; i++) { ts[i] = BASE + Math.floor((lo + i) * step); v[i] = (lo + i) % 1000 }
    await db.append('t', { ts, v })
  }
  const cpu: number[][] = QUERIES.map(() => [])
  const wall: number[][] = QUERIES.map(() => [])
  const answers: string[] = QUERIES.map(() => '')
  for (let r = 0; r < RUNS + 1; r++) {
    for (let q = 0; q < QUERIES.length; q++) {
      const [, sql, params] = QUERIES[q]!
      const c0 = process.cpuUsage()
      const t0 = performance.now()
      const res = await db.query(sql, params)
      const ms = performance.now() - t0
      const c = process.cpuUsage(c0)
      answers[q] = JSON.stringify(res.rows, (_k, x) => (typeof x === 'bigint' ? String(x) : x))
      if (r === 0) continue // the first round compiles the code paths
      cpu[q]!.push((c.user + c.system) / 1000)
      wall[q]!.push(ms)
    }
  }
  for (let q = 0; q < QUERIES.length; q++) {
    console.log(`${QUERIES[q]![0].padEnd(36)} cpu ${median(cpu[q]!).toFixed(1).padStart(8)} ms  wall ${median(wall[q]!).toFixed(1).padStart(8)} ms  ${answers[q]}`)
  }
  console.log(`load average after ${loadavg().map((x) => x.toFixed(1)).join(' ')}`)
  await db.close()
}

await main()
