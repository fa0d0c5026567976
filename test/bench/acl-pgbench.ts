/**
 * What access control costs per statement (issue #13 §5): pgbench against the pgwire adapter
 * with `acl.enabled` off (admin) and on (user `bench` with PGWIRE and SELECT ON ALL TABLES, so
 * every statement passes a real permission check), runs alternated to spread the noise of a
 * shared machine; then the engine alone (`db.execute` in a loop, no network).
 *
 * `node --import tsx test/bench/acl-pgbench.ts` (needs pgbench). `EPOCHDB_BENCH_SECONDS` per pgbench run
 * (default 5), `EPOCHDB_BENCH_CLIENTS` (default 4).
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
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const SERVER = fileURLToPath(new URL('./acl-pgbench-server.ts', import.meta.url))

async function start(mode: 'off' | 'on'): Promise<{ port: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, mode], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve))
  return { port: (JSON.parse(line) as { port: number }).port, stop: async () => { child.kill('SIGTERM'); await exited } }
}

const dir = mkdtempSync(join(tmpdir(), 'epochdb-acl-bench-'))
const scripts = { 'SELECT 1': join(dir, 'select1.sql'), 'SELECT v FROM t': join(dir, 'select-t.sql') }
writeFileSync(scripts['SELECT 1'], 'SELECT 1;\n')
writeFileSync(scripts['SELECT v FROM t'], 'SELECT v FROM t;\n')

const off = await start('off')
const on = await start('on')
const endpoints: Record<'off' | 'on', Endpoint> = {
  off: { name: 'acl off (admin)', port: off.port, user: 'admin', password: 'quest', database: 'qdb' },
  on: { name: 'acl on (user bench)', port: on.port, user: 'bench', password: 'bench', database: 'qdb' },
}
console.log(`pgbench -c ${CLIENTS} -T ${SECONDS}, runs alternated off/on twice; tps per run and mean`)
try {
  for (const [label, script] of Object.entries(scripts)) {
    for (const mode of ['simple', 'prepared'] as PgbenchMode[]) {
      const tps: Record<'off' | 'on', number[]> = { off: [], on: [] }
      for (let rep = 0; rep < 2; rep++) {
        for (const k of ['off', 'on'] as const) tps[k].push((await pgbench(endpoints[k], script, mode, CLIENTS, SECONDS)).tps)
      }
      const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length
      const d = (mean(tps.on) / mean(tps.off) - 1) * 100
      console.log(`${label.padEnd(16)} ${mode.padEnd(9)} off ${tps.off.map(Math.round).join('/')} (${Math.round(mean(tps.off))})  on ${tps.on.map(Math.round).join('/')} (${Math.round(mean(tps.on))})  ${d >= 0 ? '+' : ''}${d.toFixed(1)} %`)
    }
  }
} finally {
  await off.stop()
  await on.stop()
  rmSync(dir, { recursive: true, force: true })
}

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
