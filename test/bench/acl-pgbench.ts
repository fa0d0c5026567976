/**
 * What access control costs per statement (issue #13 §5): pgbench against the pgwire adapter
 * with `acl.enabled` off (admin) and on (user `bench` with PGWIRE and SELECT ON ALL TABLES, so
 * every statement passes a real permission check), runs alternated to spread the noise of a
 * shared machine; then the engine alone (`db.execute` in a loop, no network).
 *
 * `node --import tsx test/bench/acl-pgbench.ts` (needs pgbench). `EPOCHDB_BENCH_SECONDS` per pgbench run
 * (default 5), `EPOCHDB_BENCH_CLIENTS` (default 4), `EPOCHDB_BENCH_REPS` alternations of off/on
 * (default 2; more, shorter runs spread a shared machine's noise), `EPOCHDB_BENCH_ONLY=select1`
 * for the `SELECT 1` pgbench runs alone (no engine figures).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { Database } from '../../lib/index.js'
import { type Endpoint, type PgbenchMode, pgbench } from './pgwire-clients.js'

const SECONDS = Number(process.env['EPOCHDB_BENCH_SECONDS'] ?? 5)
const CLIENTS = Number(process.env['EPOCHDB_BENCH_CLIENTS'] ?? 4)
const REPS = Number(process.env['EPOCHDB_BENCH_REPS'] ?? 2)
const ONLY_SELECT1 = process.env['EPOCHDB_BENCH_ONLY'] === 'select1'
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const SERVER = fileURLToPath(new URL('./acl-pgbench-server.ts', import.meta.url))

async function start(mode: 'off' | 'on'): Promise<{ port: number; cpuUs(): Promise<number>; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, mode], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const lines = createInterface({ input: child.stdout })
  const line = await new Promise<string>((resolve) => lines.once('line', resolve))
  return {
    port: (JSON.parse(line) as { port: number }).port,
    // the server process's CPU time: far less sensitive to a loaded machine than tps
    cpuUs: async () => {
      const answer = new Promise<string>((resolve) => lines.once('line', resolve))
      child.stdin.write('cpu\n')
      return (JSON.parse(await answer) as { cpuUs: number }).cpuUs
    },
    stop: async () => { child.kill('SIGTERM'); await exited },
  }
}

const dir = mkdtempSync(join(tmpdir(), 'epochdb-acl-bench-'))
const scripts = { 'SELECT 1': join(dir, 'select1.sql'), 'SELECT v FROM t': join(dir, 'select-t.sql') }
writeFileSync(scripts['SELECT 1'], 'SELECT 1;\n')
writeFileSync(scripts['SELECT v FROM t'], 'SELECT v FROM t;\n')

const off = await start('off')
const on = await start('on')
const servers = { off, on }
const endpoints: Record<'off' | 'on', Endpoint> = {
  off: { name: 'acl off (admin)', port: off.port, user: 'admin', password: 'quest', database: 'qdb' },
  on: { name: 'acl on (user bench)', port: on.port, user: 'bench', password: 'bench', database: 'qdb' },
}
console.log(`pgbench -c ${CLIENTS} -T ${SECONDS}, runs alternated off/on ${REPS} times; tps per run, mean and median`)
try {
  for (const [label, script] of Object.entries(scripts)) {
    if (ONLY_SELECT1 && label !== 'SELECT 1') continue
    for (const mode of ['simple', 'prepared'] as PgbenchMode[]) {
      const tps: Record<'off' | 'on', number[]> = { off: [], on: [] }
      const cpu: Record<'off' | 'on', number[]> = { off: [], on: [] }
      for (let rep = 0; rep < REPS; rep++) {
        // which side goes first alternates too, so a trend in the machine's load favours neither
        for (const k of rep % 2 === 0 ? ['off', 'on'] as const : ['on', 'off'] as const) {
          const c0 = await servers[k].cpuUs()
          const r = await pgbench(endpoints[k], script, mode, CLIENTS, SECONDS)
          tps[k].push(r.tps)
          // server CPU per transaction (the run's 4 logins included)
          cpu[k].push((await servers[k].cpuUs() - c0) / r.transactions)
        }
      }
      const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length
      const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2 }
      const d = (mean(tps.on) / mean(tps.off) - 1) * 100
      const dm = (median(tps.on) / median(tps.off) - 1) * 100
      console.log(`${label.padEnd(16)} ${mode.padEnd(9)} off ${tps.off.map(Math.round).join('/')} (mean ${Math.round(mean(tps.off))}, median ${Math.round(median(tps.off))})  on ${tps.on.map(Math.round).join('/')} (mean ${Math.round(mean(tps.on))}, median ${Math.round(median(tps.on))})  mean ${d >= 0 ? '+' : ''}${d.toFixed(1)} %, median ${dm >= 0 ? '+' : ''}${dm.toFixed(1)} %`)
      const dc = (median(cpu.on) / median(cpu.off) - 1) * 100
      console.log(`${''.padEnd(26)} server CPU per transaction: off ${cpu.off.map((x) => x.toFixed(1)).join('/')} µs (median ${median(cpu.off).toFixed(1)})  on ${cpu.on.map((x) => x.toFixed(1)).join('/')} µs (median ${median(cpu.on).toFixed(1)})  ${dc >= 0 ? '+' : ''}${dc.toFixed(1)} %`)
    }
  }
} finally {
  await off.stop()
  await on.stop()
  rmSync(dir, { recursive: true, force: true })
}

// CPU per `db.query('SELECT 1')` in this process, as the user vs the admin of an acl-off database:
// CPU time, unlike tps, hardly moves with the machine's load
{
  const cpuPerQuery = async (acl: boolean): Promise<number> => {
    const { db, session } = await engineDb(acl)
    for (let i = 0; i < 5000; i++) await db.query('SELECT 1', [], { session })
    const c0 = process.cpuUsage()
    for (let i = 0; i < 20000; i++) await db.query('SELECT 1', [], { session })
    const c = process.cpuUsage(c0)
    await db.close()
    return (c.user + c.system) / 20000
  }
  const cpu: Record<'off' | 'on', number[]> = { off: [], on: [] }
  for (let rep = 0; rep < 3; rep++) for (const k of ['off', 'on'] as const) cpu[k].push(await cpuPerQuery(k === 'on'))
  console.log(`db.query('SELECT 1') CPU per statement: off ${cpu.off.map((x) => x.toFixed(2)).join('/')} µs  on ${cpu.on.map((x) => x.toFixed(2)).join('/')} µs  (${((Math.min(...cpu.on) / Math.min(...cpu.off) - 1) * 100).toFixed(1)} % best vs best)`)
}
if (ONLY_SELECT1) process.exit(0)
// the engine alone: db.execute + reading the batches of the same statement object, in rounds
// alternated between the two databases; the fastest round of each is the figure (the others are
// the machine's noise)
async function engineDb(acl: boolean): Promise<{ db: Database; session: ReturnType<Database['session']> }> {
  const db = await Database.open(acl ? { acl: { enabled: true, passwordHashIterations: 1 } } : {})
  await db.query('create table t (ts timestamp, sym symbol, v double) timestamp(ts) partition by day')
  await db.query("insert into t values ('2024-01-01', 'a', 1.5)")
  if (!acl) return { db, session: db.session() }
  await db.query("create user bench with password 'bench'")
  await db.query('grant select on all tables to bench')
  return { db, session: db.session((await db.authenticate('bench', 'bench'))!) }
}
const engines = { off: await engineDb(false), on: await engineDb(true) }
const ROUND = 2000
for (const sql of ['SELECT 1', 'SELECT v FROM t']) {
  const best = { off: Infinity, on: Infinity }
  for (let round = 0; round < 12; round++) {
    for (const k of ['off', 'on'] as const) {
      const { db, session } = engines[k]
      const stmt = db.parse(sql)[0]!
      const t0 = performance.now()
      for (let i = 0; i < ROUND; i++) for await (const _ of (await db.execute(stmt, [], { session })).batches);
      best[k] = Math.min(best[k], ((performance.now() - t0) * 1000) / ROUND)
    }
  }
  console.log(`engine ${sql.padEnd(16)} off ${best.off.toFixed(2)} µs  on ${best.on.toFixed(2)} µs per statement (best of 12 rounds of ${ROUND})  ${((best.on / best.off - 1) * 100).toFixed(1)} %`)
}
// the check alone: the cached StatementInfo's permissions, and authorize against the user's grants
{
  const { db, session } = engines.on
  const acl = (db as unknown as { acl: { authorize(p: unknown, r: unknown): void } }).acl
  for (const sql of ['SELECT 1', 'SELECT v FROM t']) {
    const stmt = db.parse(sql)[0]!
    let best = Infinity
    for (let round = 0; round < 12; round++) {
      const t0 = performance.now()
      for (let i = 0; i < 20000; i++) acl.authorize(session.principal, db.statementInfo(stmt).permissions)
      best = Math.min(best, ((performance.now() - t0) * 1000) / 20000)
    }
    console.log(`check  ${sql.padEnd(16)} statementInfo + authorize ${best.toFixed(3)} µs per statement (best of 12 rounds of 20000)`)
  }
}
await engines.off.db.close()
await engines.on.db.close()
