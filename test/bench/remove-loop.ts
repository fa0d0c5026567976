/**
 * How long statements that replace or drop a durable table's files hold the event loop: a table of
 * `rows` rows x 10 DOUBLE columns over 4 DAY partitions is checkpointed and written back to disk
 * (`sync`), then TRUNCATE, and DROP TABLE of a second copy, each timed (statement wall time and
 * the longest gap between ticks of a 1 ms interval while it ran).
 *
 *   node --import tsx test/bench/remove-loop.ts [rows=2000000]
 *
 * Not a test: figures go to docs/benchmarks.md.
 */
import { execSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'

const rows = Number(process.argv[2] ?? 2_000_000)
const dir = mkdtempSync(join(tmpdir(), 'epochdb-remove-loop-'))
const db = await Database.open({ path: dir })
const cols = Array.from({ length: 10 }, (_, i) => `c${i}`)
for (const name of ['a', 'b']) {
  await db.query(`create table ${name} (${cols.map((c) => `${c} double`).join(', ')}, ts timestamp) timestamp(ts) partition by day`)
  const data: Record<string, Float64Array> = { ts: new Float64Array(rows).map((_, i) => 1_700_000_000_000_000 + Math.floor(i * (4 * 86_400_000_000 / rows))) }
  for (const c of cols) data[c] = new Float64Array(rows).map((_, i) => i)
  await db.append(name, data)
}
// every row in partition files, written back to disk
await db.close()
const db2 = await Database.open({ path: dir })
execSync('sync')

async function timed(sql: string): Promise<string> {
  let gap = 0
  let last = performance.now()
  const ticker = setInterval(() => { const now = performance.now(); gap = Math.max(gap, now - last); last = now }, 1)
  await new Promise((r) => setTimeout(r, 20))
  gap = 0
  last = performance.now()
  const t0 = performance.now()
  await db2.query(sql)
  const ms = performance.now() - t0
  await new Promise((r) => setTimeout(r, 50))
  clearInterval(ticker)
  return `${sql}: ${ms.toFixed(0)} ms, loop held at most ${gap.toFixed(0)} ms`
}

console.log(`${rows} rows x 11 columns per table (${(rows * 88 / 2 ** 20).toFixed(0)} MB of column files)`)
console.log(await timed('truncate table a'))
console.log(await timed('drop table b'))
await db2.close()
rmSync(dir, { recursive: true, force: true })
