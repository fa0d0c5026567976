/**
 * INSERT batches side by side (a benchmark, not a test):
 * `node --import tsx test/bench/tsbs/inserts.ts [--rows n] [--batch n] [--rounds n]`.
 *
 * TSBS cpu rows (`generate.ts`, 21 values a row) sent as `INSERT INTO cpu VALUES (...), ...`
 * statements of `--batch` rows (default 1,000; `--rows` default 20,000), one after the other, to:
 * EpochDB in process (`db.query`, in memory and durable), EpochDB's pgwire (simple queries from
 * node `pg`) and REST `/exec` (GET) servers in a child process (`server-child.ts`, one in memory
 * and one durable), PostgreSQL 15 (simple queries from `pg`, default durability) and DuckDB (in
 * process, in memory). Every target receives the same statement texts.
 *
 * The targets take turns: a first round (cold: JIT, lazy module loading) and then `--rounds`
 * rounds (default 3), each into a fresh table (dropped and created again), the order rotated
 * each round, so every target meets the same load on this shared machine; rows are counted
 * after each round. Printed per target: the cold round, the median and the best of the others,
 * and the median's ratio to PostgreSQL's median. PostgreSQL is skipped with a message when its
 * binaries are missing. With `--base <dir>` (another checkout of EpochDB, e.g. `git archive` of an
 * older commit with node_modules linked in), its in-process, pgwire and REST targets run in the
 * same turns, marked "(base)": before and after in one run.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { Database } from '../../../lib/index.js'
import { PG15_BIN, hasPostgres15, startPostgres15 } from '../postgres15.js'
import { METRICS, TAGS, chunks } from './generate.js'

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '20000' }, batch: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '3' }, base: { type: 'string' } } })
const ROUNDS = Math.max(1, Number(args.rounds))
const BATCH = Number(args.batch)
const ROWS = Math.max(BATCH, Math.floor(Number(args.rows) / BATCH) * BATCH)
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** `2016-01-01 00:00:10` */
const sqlTs = (micros: number): string => new Date(micros / 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '')

/** The statement texts: ROWS rows in statements of BATCH. */
function statements(): string[] {
  const rows: string[] = []
  for (const c of chunks({ hosts: 100, days: 1 }, 10)) {
    for (let i = 0; i < c.length && rows.length < ROWS; i++) {
      const vals = [...TAGS.map((_, t) => `'${c.tags[t]![i]!}'`), ...METRICS.map((_, m) => String(c.metrics[m]![i]!)), `'${sqlTs(c.ts[i]!)}'`]
      rows.push(`(${vals.join(', ')})`)
    }
    if (rows.length >= ROWS) break
  }
  const out: string[] = []
  for (let i = 0; i < rows.length; i += BATCH) out.push(`INSERT INTO cpu VALUES ${rows.slice(i, i + BATCH).join(', ')}`)
  return out
}

const EPOCH_DDL = `CREATE TABLE cpu (${[...TAGS.map((t) => `${t} SYMBOL`), ...METRICS.map((m) => `${m} DOUBLE`), 'ts TIMESTAMP'].join(', ')}) TIMESTAMP(ts) PARTITION BY DAY`
const PEER_DDL = `CREATE TABLE cpu (${[...TAGS.map((t) => `${t} TEXT`), ...METRICS.map((m) => `${m} DOUBLE PRECISION`), 'ts TIMESTAMP'].join(', ')})`

/** A target: runs statements; `reset` makes an empty `cpu` table; `count` counts its rows. */
interface Target { readonly name: string; run(sql: string): Promise<void>; reset(): Promise<void>; count(): Promise<number>; close(): Promise<void> }

/** One round: a fresh table, every statement, the count checked; returns rows/s. */
async function round(t: Target, stmts: readonly string[]): Promise<number> {
  await t.reset()
  const t0 = performance.now()
  for (const s of stmts) await t.run(s)
  const ms = performance.now() - t0
  const n = await t.count()
  if (n !== ROWS) throw new Error(`${t.name}: COUNT ${n} != ${ROWS}`)
  return ROWS / (ms / 1000)
}

/** A target that runs SQL text: `reset` drops the table (after the first time) and creates it. */
function sqlTarget(name: string, run: (sql: string) => Promise<void>, count: () => Promise<number>, ddl: string, close: () => Promise<void>): Target {
  let made = false
  return {
    name, run, count, close,
    reset: async () => { if (made) await run('DROP TABLE cpu'); await run(ddl); made = true },
  }
}

async function epochInProcess(path?: string, base?: string): Promise<Target> {
  const Db = base === undefined ? Database : (await import(join(base, 'lib/index.ts')) as { Database: typeof Database }).Database
  const db = await Db.open(path === undefined ? {} : { path })
  return sqlTarget(`EpochDB${base === undefined ? '' : ' (base)'} in process, ${path === undefined ? 'in memory' : 'durable'}`, async (sql) => { await db.query(sql) },
    async () => Number((await db.query('select count() from cpu')).rows[0]![0]), EPOCH_DDL, () => db.close())
}

async function serverChild(dir?: string, base?: string): Promise<{ pgwire: number; http: number; stop(): Promise<void> }> {
  const root = base ?? ROOT
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test/bench/tsbs/server-child.ts'), ...(dir === undefined ? [] : [dir])], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve)
    void exited.then(() => reject(new Error('the server exited before listening')))
  })
  const ports = JSON.parse(line) as { pgwire: number; http: number }
  return { ...ports, stop: async () => { if (child.exitCode === null) child.kill('SIGTERM'); await exited } }
}

async function pgClient(port: number, user: string, password: string | undefined, database: string): Promise<import('pg').Client> {
  const pg = (await import('pg')).default
  const c = new pg.Client({ host: '127.0.0.1', port, user, database, ...(password === undefined ? {} : { password }) })
  await c.connect()
  return c
}

async function exec(base: string, sql: string): Promise<unknown> {
  const res = await fetch(`${base}/exec?query=${encodeURIComponent(sql)}`)
  const body = await res.json() as { error?: string }
  if (!res.ok || body.error !== undefined) throw new Error(`HTTP ${res.status}: ${JSON.stringify(body).slice(0, 200)}`)
  return body
}

/** pgwire and REST targets, each with its own server child (in memory, or durable under `dir`). */
async function wireTargets(dir: string | undefined, base?: string): Promise<Target[]> {
  const how = dir === undefined ? 'in memory' : 'durable'
  const tag = base === undefined ? 'EpochDB' : 'EpochDB (base)'
  const pgSrv = await serverChild(dir === undefined ? undefined : join(dir, 'pgwire'), base)
  const c = await pgClient(pgSrv.pgwire, 'admin', 'quest', 'qdb')
  const pgwire = sqlTarget(`${tag} pgwire (simple query), ${how}`, async (s) => { await c.query(s) },
    async () => Number((await c.query('select count() from cpu')).rows[0].count), EPOCH_DDL, async () => { await c.end(); await pgSrv.stop() })
  const restSrv = await serverChild(dir === undefined ? undefined : join(dir, 'rest'), base)
  const url = `http://127.0.0.1:${restSrv.http}`
  const rest = sqlTarget(`${tag} REST /exec, ${how}`, async (s) => { await exec(url, s) },
    async () => Number(((await exec(url, 'select count() from cpu')) as { dataset: number[][] }).dataset[0]![0]), EPOCH_DDL, () => restSrv.stop())
  return [pgwire, rest]
}

const stmts = statements()
console.log(`INSERT batches, ${new Date().toISOString()}; ${ROWS.toLocaleString('en-US')} rows in ${stmts.length} statements of ${BATCH} rows x 21 values (${Math.round(stmts[0]!.length / 1024)} KB each); a cold round and ${ROUNDS} more, targets taking turns; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`)
const tmp = mkdtempSync(join(tmpdir(), 'epochdb-bench-inserts-'))
const targets: Target[] = []
const closers: (() => Promise<void>)[] = []
try {
  targets.push(await epochInProcess(), await epochInProcess(join(tmp, 'inproc')))
  targets.push(...await wireTargets(undefined), ...await wireTargets(join(tmp, 'server')))
  if (args.base !== undefined) {
    targets.push(await epochInProcess(undefined, args.base), await epochInProcess(join(tmp, 'base-inproc'), args.base))
    targets.push(...await wireTargets(undefined, args.base), ...await wireTargets(join(tmp, 'base-server'), args.base))
  }
  if (hasPostgres15()) {
    const pgs = await startPostgres15()
    closers.push(() => pgs.stop())
    const c = await pgClient(pgs.port, pgs.user, undefined, pgs.database)
    targets.push(sqlTarget('PostgreSQL 15 (simple query), durable', async (s) => { await c.query(s) }, async () => Number((await c.query('select count(*) from cpu')).rows[0].count), PEER_DDL, () => c.end()))
  } else console.log(`(PostgreSQL skipped: no binaries in ${PG15_BIN})`)
  const duck = await import('@duckdb/node-api')
  const inst = await duck.DuckDBInstance.create(':memory:')
  const conn = await inst.connect()
  targets.push(sqlTarget('DuckDB in process, in memory', async (s) => { await conn.run(s) }, async () => Number((await conn.runAndReadAll('select count(*) from cpu')).getRows()[0]![0]), PEER_DDL, async () => { conn.closeSync(); inst.closeSync() }))
  const rates = targets.map(() => [] as number[])
  for (let r = 0; r <= ROUNDS; r++) {
    for (let k = 0; k < targets.length; k++) {
      const i = (k + r) % targets.length
      rates[i]!.push(await round(targets[i]!, stmts))
    }
  }
  const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2 }
  const fmt = (x: number): string => Math.round(x).toLocaleString('en-US')
  const pgAt = targets.findIndex((t) => t.name.startsWith('PostgreSQL'))
  const pgMedian = pgAt < 0 ? NaN : median(rates[pgAt]!.slice(1))
  console.log('| target | cold rows/s | median rows/s | best rows/s | median vs PostgreSQL |')
  console.log('| --- | ---: | ---: | ---: | ---: |')
  targets.forEach((t, i) => {
    const warm = rates[i]!.slice(1)
    const m = median(warm)
    console.log(`| ${t.name} | ${fmt(rates[i]![0]!)} | ${fmt(m)} | ${fmt(Math.max(...warm))} | ${Number.isNaN(pgMedian) ? '' : `${(m / pgMedian).toFixed(2)}x`} |`)
  })
} finally {
  for (const t of targets) await t.close().catch(() => {})
  for (const c of closers) await c().catch(() => {})
  rmSync(tmp, { recursive: true, force: true })
}
