/**
 * COPY of a table whose history is Parquet: 10 DAY partitions of `perDay` rows (ts, s SYMBOL,
 * x LONG, d DOUBLE, e DOUBLE), the first nine converted to Parquet. `COPY t TO 'copied'` copies the
 * nine Parquet partitions byte for byte and encodes the last; `COPY (SELECT * FROM t) TO 'encoded'
 * ... PARTITION_BY DAY` encodes all ten (what `COPY t TO` did before). Alternated, `rounds` times
 * each, in one process; prints wall time and CPU (threads included) of each, and their ratios.
 *
 *   node --import tsx test/bench/parquet-copy.ts [perDay=500000] [rounds=3]
 *
 * Not a test: figures go to docs/benchmarks.md.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'

const perDay = Number(process.argv[2] ?? 500_000)
const rounds = Number(process.argv[3] ?? 3)
const DAY = 86_400_000_000
const BASE = Date.UTC(2024, 0, 1) * 1000

const dir = mkdtempSync(join(tmpdir(), 'epochdb-pq-copy-'))
const exp = join(dir, 'export')
mkdirSync(exp)
try {
  const db = await Database.open({ path: join(dir, 'data'), exportRoot: exp })
  await db.query(`CREATE TABLE t AS (SELECT timestamp_sequence(${BASE}, ${Math.floor(DAY / perDay)}) ts, rnd_symbol('a','b','c','d') s, x, rnd_double() d, rnd_double() e
    FROM long_sequence(${10 * perDay})) TIMESTAMP(ts) PARTITION BY DAY`)
  await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET WHERE ts < ${BASE + 9 * DAY}`)
  const cases = {
    copied: `COPY t TO 'copied' WITH FORMAT PARQUET`,
    encoded: `COPY (SELECT * FROM t) TO 'encoded' WITH FORMAT PARQUET PARTITION_BY DAY`,
  } as const
  const times: Record<keyof typeof cases, { wall: number[]; cpu: number[] }> = { copied: { wall: [], cpu: [] }, encoded: { wall: [], cpu: [] } }
  // a warm-up of each (the Parquet partitions' columns then in the cache for the encoded one, as a running server has them)
  for (const sql of Object.values(cases)) await db.query(sql)
  for (let r = 0; r < rounds; r++) {
    const order = (r % 2 === 0 ? ['copied', 'encoded'] : ['encoded', 'copied']) as (keyof typeof cases)[]
    for (const k of order) {
      const c0 = process.cpuUsage()
      const t0 = performance.now()
      await db.query(cases[k])
      times[k].wall.push(performance.now() - t0)
      const c = process.cpuUsage(c0)
      times[k].cpu.push((c.user + c.system) / 1000)
    }
  }
  await db.close()
  const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
  const out = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, { wallMs: v.wall.map(Math.round), cpuMs: v.cpu.map(Math.round) }]))
  console.log(JSON.stringify({ perDay, rows: 10 * perDay, ...out,
    wallRatio: +(med(times.copied.wall) / med(times.encoded.wall)).toFixed(2), cpuRatio: +(med(times.copied.cpu) / med(times.encoded.cpu)).toFixed(2) }))
} finally {
  rmSync(dir, { recursive: true, force: true })
}
