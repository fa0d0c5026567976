/**
 * WHERE conjuncts pushed into grouping subqueries and LATERAL joins (optimizer rules
 * `push-filters-into-subqueries`, `push-filters-into-lateral`): a durable table t of `days` DAY
 * partitions (`perDay` rows: ts, s SYMBOL INDEX with 100 values, k INT with 1,000 values, v
 * DOUBLE) and a small table p (200 rows: k, name), queried through a WHERE over a GROUP BY
 * subquery, a GROUP BY CTE, a GROUP BY view, a SAMPLE BY, a view over a UNION ALL, and a LATERAL
 * join. Base is the same code with both rules
 * switched off (EPOCHDB_DISABLE_RULES); base and branch alternate, each round one fresh child
 * process per query that opens the checkpointed table (nothing loaded) and runs the query twice:
 * cold (loads partitions) and warm. Measured: CPU time of each query in the child. Figures: best of
 * `rounds`.
 *
 *   node --import tsx test/bench/subquery-pushdown.ts [days=30] [perDay=100000] [rounds=3]
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

const DAY = 86_400_000_000
const T0 = Date.UTC(2024, 0, 1) * 1000
const RULES = 'push-filters-into-subqueries,push-filters-into-lateral'
const QUERIES: readonly [string, string][] = [
  ['group by symbol', "select * from (select s, count() c, sum(v) sv from t group by s) where s = 's7'"],
  ['group by int', 'with g as (select k, count() c, sum(v) sv from t group by k) select * from g where k = 7'],
  ['view, 2 keys', "select * from per_key where s = 's7' and k < 100"],
  ['sample by', "select count(), sum(sv) from (select ts, s, sum(v) sv from t sample by 1h) where s = 's7'"],
  ['union all view', "select count(), sum(v) from both_days where ts in '2024-01-15' and s = 's7'"],
  ['lateral', "select count(), sum(x.m) from p join lateral (select max(v) m from t where t.ts in '2024-01-15T10' and t.k < p.k) x where p.name = 'n3'"],
]

const cpu = async (f: () => Promise<unknown>): Promise<number> => { const c0 = process.cpuUsage(); await f(); const c = process.cpuUsage(c0); return (c.user + c.system) / 1000 }

if (process.argv[2] === 'child') {
  const db = await Database.open({ path: process.argv[3]! })
  const out: Record<string, { cold: number; warm: number; answer: string }> = {}
  for (const [name, sql] of QUERIES.filter(([n]) => n === process.argv[4])) {
    let answer = ''
    const cold = await cpu(async () => { answer = JSON.stringify((await db.query(sql)).rows, (_, v) => (typeof v === 'bigint' ? String(v) : v)) })
    const warm = await cpu(() => db.query(sql))
    out[name] = { cold, warm, answer }
  }
  await db.close()
  console.log(JSON.stringify(out))
} else {
  const days = Number(process.argv[2] ?? 30)
  const perDay = Number(process.argv[3] ?? 100_000)
  const rounds = Number(process.argv[4] ?? 3)
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-subquery-pushdown-bench-'))
  const db = await Database.open({ path: dir })
  await db.query('create table t (ts timestamp, s symbol index, k int, v double) timestamp(ts) partition by day')
  await db.query('create table p (k int, name string)')
  await db.query('create view per_key as (select s, k, count() c, sum(v) sv from t group by s, k)')
  await db.query('create view both_days as (select ts, s, v from t union all select ts, s, -v from t)')
  const syms = Array.from({ length: 100 }, (_, i) => `s${i}`)
  for (let d = 0; d < days; d++) {
    const ts = new Float64Array(perDay)
    const s: string[] = []
    const k = new Int32Array(perDay)
    const v = new Float64Array(perDay)
    for (let i = 0; i < perDay; i++) { ts[i] = T0 + d * DAY + Math.floor(i * (DAY / perDay)); s.push(syms[(i * 7 + d) % 100]!); k[i] = (i * 13) % 1000; v[i] = (i % 97) / 4 }
    await db.append('t', { ts, s, k, v })
  }
  const pk = new Int32Array(200)
  const names: string[] = []
  for (let i = 0; i < 200; i++) { pk[i] = (i * 37) % 1000; names.push(`n${i % 13}`) }
  await db.append('p', { k: pk, name: names })
  await db.close()
  const self = fileURLToPath(import.meta.url)
  type Figures = Record<string, { cold: number; warm: number; answer: string }>
  const runs: { base: Figures[]; branch: Figures[] } = { base: [], branch: [] }
  for (let r = 0; r < rounds; r++) {
    for (const side of ['base', 'branch'] as const) {
      const env = { ...process.env, EPOCHDB_DISABLE_RULES: side === 'base' ? RULES : '' }
      // one child per query: each cold figure starts with nothing loaded
      const figures: Figures = {}
      for (const [name] of QUERIES) Object.assign(figures, JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', self, 'child', dir, name], { env, encoding: 'utf8', maxBuffer: 1 << 26 })) as Figures)
      runs[side].push(figures)
    }
  }
  rmSync(dir, { recursive: true, force: true })
  console.log(`t: ${days} DAY partitions x ${perDay} rows, p: 200 rows; best of ${rounds} alternating rounds, CPU ms`)
  for (const [name] of QUERIES) {
    const best = (side: 'base' | 'branch', k: 'cold' | 'warm') => Math.min(...runs[side].map((f) => f[name]![k]))
    const same = runs.base.every((f, i) => f[name]!.answer === runs.branch[i]![name]!.answer)
    const shown = (a: string) => (a.length > 80 ? `${a.slice(0, 80)}...` : a)
    console.log(`${name.padEnd(16)} cold base ${best('base', 'cold').toFixed(0)} branch ${best('branch', 'cold').toFixed(0)} (${(best('base', 'cold') / best('branch', 'cold')).toFixed(1)}x)` +
      `  warm base ${best('base', 'warm').toFixed(0)} branch ${best('branch', 'warm').toFixed(0)} (${(best('base', 'warm') / best('branch', 'warm')).toFixed(1)}x)` +
      `  answers ${same ? `equal ${shown(runs.base[0]![name]!.answer)}` : `DIFFER ${shown(runs.base[0]![name]!.answer)} ${shown(runs.branch[0]![name]!.answer)}`}`)
  }
}
