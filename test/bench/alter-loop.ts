/**
 * How long DDL on a large durable table holds the event loop (issue #16): a table of `rows` rows
 * over `days` DAY partitions (a DOUBLE, a LONG, a VARCHAR), checkpointed and reopened so every
 * partition is cold, then each statement below runs while a 1 ms interval notes the longest gap
 * between its ticks and a client counts the `select count()` answers it got meanwhile.
 *
 *   node --import tsx test/bench/alter-loop.ts [rows=2000000] [days=200] [statements,comma-separated] [memory]
 *
 * With `memory` the table is in an in-memory database instead (no data directory). `updateFrom*`
 * join a small table `u` whose ids are in the first two days.
 *
 * Not a test: figures go to docs/benchmarks.md.
 */
process.env.EPOCHDB_WORKERS ??= '0'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'

const rows = Number(process.argv[2] ?? 2_000_000)
const days = Number(process.argv[3] ?? 200)
const dir = mkdtempSync(join(tmpdir(), 'epochdb-alter-loop-'))
const STATEMENTS: Record<string, string> = {
  add: 'alter table t add column extra int',
  rename: 'alter table t rename column b to b2',
  dropPartition: "alter table t drop partition where ts < '1970-04-11'",
  ttl: 'alter table t set ttl 100 days',
  insertAfterTtl: "insert into t (a, s, ts) values (1.5, 'x', '1970-07-20T00:00:00.000000Z')",
  truncate: 'truncate table t',
  drop: 'alter table t drop column b',
  update: 'update t set a = a + 1 where ts < \'1970-01-03\'',
  updateAll: 'update t set a = a + 1 where b % 1000 = 7',
  updateFrom: 'update t set a = t.a + u.d from u where t.b = u.b',
  updateFromTs: 'update t set a = t.a + u.d from u where t.b = u.b and t.ts < \'1970-01-03\'',
}
const chosen = (process.argv[4] ?? 'add,rename,dropPartition,ttl,insertAfterTtl,truncate').split(',')
const memory = process.argv[5] === 'memory'
let db = await Database.open(memory ? {} : { path: dir })
const step = Math.floor(days * 86_400_000_000 / rows)
const t0 = performance.now()
await db.query('create table t (a double, b long, s varchar, ts timestamp) timestamp(ts) partition by day')
await db.query(`insert into t select rnd_double(), x, 'v' || (x % 1000), cast(x * ${step} as timestamp) from long_sequence(${rows})`)
await db.query('create table u (b long, d long)')
await db.query(`insert into u values (1, 1), (2, 1), (${Math.floor(rows / days / 2)}, 1), (${Math.floor(rows / days) + 3}, 1)`)
if (!memory) {
  await db.close()
  db = await Database.open({ path: dir })
}
console.log(`${rows} rows over ${days} days built in ${(performance.now() - t0).toFixed(0)} ms`)
for (const name of chosen) {
  const sql = STATEMENTS[name]!
  let gap = 0
  let last = performance.now()
  const ticker = setInterval(() => { const now = performance.now(); gap = Math.max(gap, now - last); last = now }, 1)
  let answered = 0
  let querying = true
  const client = (async () => {
    while (querying) { await db.query('select count() from t'); answered++; await new Promise((r) => setTimeout(r, 2)) }
  })()
  await new Promise((r) => setTimeout(r, 50))
  const before = answered
  const q0 = performance.now()
  const c0 = process.cpuUsage()
  await db.query(sql)
  const c1 = process.cpuUsage(c0)
  const took = performance.now() - q0
  const during = answered - before
  querying = false
  await client
  clearInterval(ticker)
  console.log(`${name.padEnd(15)} ${took.toFixed(0).padStart(6)} ms (process CPU ${((c1.user + c1.system) / 1000).toFixed(0)} ms, the client's count() queries included), loop held at most ${gap.toFixed(0)} ms, ${during} queries answered meanwhile`)
}
await db.close()
rmSync(dir, { recursive: true, force: true })
