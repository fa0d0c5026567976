/**
 * WHERE conjuncts pushed below joins (optimizer rule `push-filters-into-joins`): a durable table t
 * of `days` DAY partitions (`perDay` rows: ts, k INT, v DOUBLE), a small table p (ts, k, name), and
 * joins filtered to one day of t. Base is the same code with the rule switched off
 * (EPOCHDB_DISABLE_RULES=push-filters-into-joins); base and branch alternate, each round a fresh
 * child process that opens the checkpointed table (nothing loaded) and runs each query twice:
 * cold (loads partitions) and warm. Measured: CPU time of each query in the child, and partitions
 * loaded (STORAGE_STATS). Figures: best of `rounds`.
 *
 *   node --import tsx test/bench/join-pushdown.ts [days=30] [perDay=200000] [rounds=3]
 *
 * Not a test: figures go to docs/benchmarks.md.
 */
process.env.EPOCHDB_WORKERS ??= '0'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Database } from '../../lib/index.js'
import { STORAGE_STATS, resetStorageStats } from '../../lib/storage/durable/part-cache.js'

const DAY = 86_400_000_000
const T0 = Date.UTC(2024, 0, 1) * 1000
const QUERIES: readonly [string, string][] = [
  ['inner', "select count(), sum(t.v) from t join p on t.k = p.k where t.ts in '2024-01-15'"],
  ['left', "select count(), sum(t.v) from t left join p on t.k = p.k where t.ts in '2024-01-15' and t.v > 10"],
  ['asof', "select count(), sum(t.v) from t asof join p on (k) where t.ts in '2024-01-15'"],
]

const cpu = async (f: () => Promise<unknown>): Promise<number> => { const c0 = process.cpuUsage(); await f(); const c = process.cpuUsage(c0); return (c.user + c.system) / 1000 }

if (process.argv[2] === 'child') {
  const db = await Database.open({ path: process.argv[3]! })
  const out: Record<string, { cold: number; warm: number; parts: number; answer: string }> = {}
  for (const [name, sql] of QUERIES) {
    resetStorageStats()
    let answer = ''
    const cold = await cpu(async () => { answer = JSON.stringify((await db.query(sql)).rows, (_, v) => (typeof v === 'bigint' ? String(v) : v)) })
    const parts = STORAGE_STATS.partitionLoads
    const warm = await cpu(() => db.query(sql))
    out[name] = { cold, warm, parts, answer }
  }
  await db.close()
  console.log(JSON.stringify(out))
} else {
  const days = Number(process.argv[2] ?? 30)
  const perDay = Number(process.argv[3] ?? 200_000)
  const rounds = Number(process.argv[4] ?? 3)
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-join-pushdown-bench-'))
  const db = await Database.open({ path: dir })
  await db.query('create table t (ts timestamp, k int, v double) timestamp(ts) partition by day')
  await db.query('create table p (ts timestamp, k int, name string) timestamp(ts) partition by day')
  for (let d = 0; d < days; d++) {
    const ts = new Float64Array(perDay)
    const k = new Int32Array(perDay)
    const v = new Float64Array(perDay)
    for (let i = 0; i < perDay; i++) { ts[i] = T0 + d * DAY + Math.floor(i * (DAY / perDay)); k[i] = i % 1000; v[i] = (i % 97) / 4 }
    await db.append('t', { ts, k, v })
  }
  const pts = new Float64Array(2000)
  const pk = new Int32Array(2000)
  const names: string[] = []
  for (let i = 0; i < 2000; i++) { pts[i] = T0 + Math.floor(i * (days * DAY / 2000)); pk[i] = (i * 7) % 1200; names.push(`n${i % 13}`) }
  await db.append('p', { ts: pts, k: pk, name: names })
  await db.close()
  const self = fileURLToPath(import.meta.url)
  type Figures = Record<string, { cold: number; warm: number; parts: number; answer: string }>
  const runs: { base: Figures[]; branch: Figures[] } = { base: [], branch: [] }
  for (let r = 0; r < rounds; r++) {
    for (const side of ['base', 'branch'] as const) {
      const env = { ...process.env, EPOCHDB_DISABLE_RULES: side === 'base' ? 'push-filters-into-joins' : '' }
      runs[side].push(JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', self, 'child', dir], { env, encoding: 'utf8' })) as Figures)
    }
  }
  rmSync(dir, { recursive: true, force: true })
  console.log(`t: ${days} DAY partitions x ${perDay} rows, p: 2000 rows; one day of t; best of ${rounds} alternating rounds, CPU ms`)
  for (const [name] of QUERIES) {
    const best = (side: 'base' | 'branch', k: 'cold' | 'warm') => Math.min(...runs[side].map((f) => f[name]![k]))
    const same = runs.base.every((f, i) => f[name]!.answer === runs.branch[i]![name]!.answer)
    console.log(`${name.padEnd(6)} cold base ${best('base', 'cold').toFixed(0)} branch ${best('branch', 'cold').toFixed(0)} (${(best('base', 'cold') / best('branch', 'cold')).toFixed(1)}x)` +
      `  warm base ${best('base', 'warm').toFixed(0)} branch ${best('branch', 'warm').toFixed(0)} (${(best('base', 'warm') / best('branch', 'warm')).toFixed(1)}x)` +
      `  partitions loaded base ${runs.base[0]![name]!.parts} branch ${runs.branch[0]![name]!.parts}  answers ${same ? `equal ${runs.base[0]![name]!.answer}` : `DIFFER ${runs.base[0]![name]!.answer} ${runs.branch[0]![name]!.answer}`}`)
  }
}
