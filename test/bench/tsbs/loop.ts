/**
 * One TSBS query in a loop, in process (a profiling aid, not a test):
 * `node --cpu-prof --import tsx test/bench/tsbs/loop.ts --query single-groupby-1-1-12 [--hosts 1000] [--days 1] [--index] [--n 200]`.
 *
 * Loads the TSBS cpu-only rows (`generate.ts`) into an in-memory EpochDB (hostname indexed with
 * `--index`), runs each named query (`queries.ts`, exact names, comma-separated) once to warm up, then `--n` times,
 * and prints the mean and best time per run and the process's CPU time per run (all threads; steadier than wall time on a loaded machine). `--explain` prints the plan first. Under
 * `--cpu-prof` the profile is dominated by the loop, not the load, when `--n` is large enough.
 */
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { Database } from '../../../lib/index.js'
import { loadEpoch } from './load-epoch.js'
import { tsbsQueries } from './queries.js'

const { values: args } = parseArgs({
  options: {
    query: { type: 'string', default: 'single-groupby-1-1-12' },
    hosts: { type: 'string', default: '1000' },
    days: { type: 'string', default: '1' },
    n: { type: 'string', default: '200' },
    index: { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
  },
})
const shape = { hosts: Number(args.hosts), days: Number(args.days) }
const all = tsbsQueries(shape)
const picked = args.query.split(',').map((name) => {
  const q = all.find((x) => x.name === name)
  if (q === undefined) throw new Error(`no query ${name}: ${all.map((x) => x.name).join(', ')}`)
  return q
})

const db = await Database.open()
await loadEpoch(db, shape, { index: args.index === true })
const n = Number(args.n)
for (const q of picked) {
  if (args.explain) console.log((await db.query(`EXPLAIN ${q.epoch}`)).rows.map((r) => r[0]).join('\n'))
  const rowsOf = async (): Promise<number> => { let k = 0; for await (const b of db.stream(q.epoch)) k += b.length; return k }
  const rows = await rowsOf()
  let best = Infinity
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    await rowsOf()
    best = Math.min(best, performance.now() - t)
  }
  const cpu = process.cpuUsage(c0)
  console.log(`${q.name}: ${rows} rows, mean ${((performance.now() - t0) / n).toFixed(3)} ms, best ${best.toFixed(3)} ms over ${n} runs; process CPU ${((cpu.user + cpu.system) / 1000 / n).toFixed(3)} ms per run`)
}
await db.close()
