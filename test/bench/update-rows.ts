/**
 * Benchmark (not a test): UPDATE on a durable 1M-row table (DAY partitions) on two EpochDB trees in
 * one process, alternating, CPU time of each statement (run with `EPOCHDB_WORKERS=0`). Checks that
 * both trees end with equal sums after each statement.
 *
 *   node --import tsx test/bench/update-rows.ts   (base tree in .bench-base/lib: `git archive <commit> lib | tar -x -C .bench-base`)
 */
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
const ROWS = 1_000_000
function cpuMs(): number { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
const trees = [['base', resolve('.bench-base/lib')], ['this', resolve('lib')]]
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- two trees' Database classes
const dbs: [string, any][] = []
const dirs: string[] = []
for (const [name, lib] of trees) {
  const { Database } = await import(pathToFileURL(resolve(lib!, 'index.ts')).href)
  const dir = mkdtempSync(resolve(tmpdir(), 'small1-upd-')); dirs.push(dir)
  const db = await Database.open({ path: dir })
  await db.query('CREATE TABLE t (ts TIMESTAMP, k INT, v DOUBLE, l LONG, s SYMBOL) TIMESTAMP(ts) PARTITION BY DAY')
  const ts = Float64Array.from({ length: ROWS }, (_, i) => 1704067200000000 + i * 400_000_000 / 1000)
  const k = Int32Array.from({ length: ROWS }, (_, i) => i % 100)
  const v = Float64Array.from({ length: ROWS }, (_, i) => i / 7)
  const l = Float64Array.from({ length: ROWS }, (_, i) => 1e12 + i)
  const s = Array.from({ length: ROWS }, (_, i) => `s${i % 50}`)
  await db.append('t', { ts, k, v, l, s })
    dbs.push([name!, db])
}
const qs = ['UPDATE t SET v = v + 1 WHERE k < 10', 'UPDATE t SET l = l + 1, s = \'x\' WHERE k < 10', 'UPDATE t SET v = 0 WHERE k < 50']
console.log(`UPDATE base vs this, ${ROWS} rows, ${new Date().toISOString()}`)
for (const q of qs) {
  const res: Record<string, number[]> = { base: [], this: [] }
  for (let r = 0; r < 5; r++) for (const [name, db] of dbs) { const c0 = cpuMs(); await db.query(q); res[name]!.push(cpuMs() - c0) }
  console.log(q)
  for (const n of ['base', 'this']) { const xs = res[n]!.sort((a, b) => a - b); console.log(`  ${n}: cpu best ${xs[0]!.toFixed(0)} ms, median ${xs[2]!.toFixed(0)} ms`) }
  const a = (await dbs[0]![1].query('SELECT sum(v), sum(l), count_distinct(s) FROM t')).rows, b = (await dbs[1]![1].query('SELECT sum(v), sum(l), count_distinct(s) FROM t')).rows
  console.log(`  answers ${JSON.stringify(a, (_k, x) => typeof x === 'bigint' ? String(x) : x) === JSON.stringify(b, (_k, x) => typeof x === 'bigint' ? String(x) : x) ? 'equal' : 'DIFFER'}`)
}
for (const [, db] of dbs) await db.close()
for (const d of dirs) rmSync(d, { recursive: true, force: true })
process.exit(0)
