/**
 * INSERT batches side by side (a benchmark, not a test):
 * `node --import tsx test/bench/tsbs/inserts.ts [--rows n] [--batch n]`.
 *
 * TSBS cpu rows (`generate.ts`, 21 values a row) sent as `INSERT INTO cpu VALUES (...), ...`
 * statements of `--batch` rows (default 1,000; `--rows` default 20,000), one after the other, to:
 * EpochDB in process (`db.query`, in memory and durable), EpochDB's pgwire (simple queries from
 * node `pg`) and REST `/exec` (GET) servers in a child process (`server-child.ts`, durable),
 * PostgreSQL 15 (simple queries from `pg`, default durability) and DuckDB (in process, in
 * memory). Every target receives the same statement texts; rows are counted after each run.
 * PostgreSQL is skipped with a message when its binaries are missing.
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

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '20000' }, batch: { type: 'string', default: '1000' } } })
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

interface Target { readonly name: string; run(sql: string): Promise<void>; count(): Promise<number>; close(): Promise<void> }

async function timeTarget(t: Target, stmts: readonly string[]): Promise<void> {
  const t0 = performance.now()
  for (const s of stmts) await t.run(s)
  const ms = performance.now() - t0
  const n = await t.count()
  console.log(`| ${t.name} | ${Math.round(ROWS / (ms / 1000)).toLocaleString('en-US')} | ${(ms / stmts.length).toFixed(1)} | ${n === ROWS ? 'ok' : `COUNT ${n} != ${ROWS}`} |`)
  await t.close()
}

async function epochInProcess(path?: string): Promise<Target> {
  const db = await Database.open(path === undefined ? {} : { path })
  await db.query(EPOCH_DDL)
  return {
    name: `EpochDB in process, ${path === undefined ? 'in memory' : 'durable'}`,
    run: async (sql) => { await db.query(sql) },
    count: async () => Number((await db.query('select count() from cpu')).rows[0]![0]),
    close: () => db.close(),
  }
}

async function serverChild(dir: string): Promise<{ pgwire: number; http: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./server-child.ts', import.meta.url)), dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
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

const stmts = statements()
console.log(`INSERT batches, ${new Date().toISOString()}; ${ROWS.toLocaleString('en-US')} rows in ${stmts.length} statements of ${BATCH} rows x 21 values (${Math.round(stmts[0]!.length / 1024)} KB each); load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`)
console.log('| target | rows/s | ms per statement | rows |')
console.log('| --- | ---: | ---: | --- |')
const tmp = mkdtempSync(join(tmpdir(), 'epochdb-bench-inserts-'))
try {
  await timeTarget(await epochInProcess(), stmts)
  await timeTarget(await epochInProcess(join(tmp, 'inproc')), stmts)
  for (const via of ['pgwire', 'REST /exec'] as const) {
    const srv = await serverChild(join(tmp, via === 'pgwire' ? 'pgwire' : 'rest'))
    if (via === 'pgwire') {
      const c = await pgClient(srv.pgwire, 'admin', 'quest', 'qdb')
      await c.query(EPOCH_DDL)
      await timeTarget({ name: 'EpochDB pgwire (simple query), durable', run: async (s) => { await c.query(s) }, count: async () => Number((await c.query('select count() from cpu')).rows[0].count), close: async () => { await c.end(); await srv.stop() } }, stmts)
    } else {
      const base = `http://127.0.0.1:${srv.http}`
      await exec(base, EPOCH_DDL)
      await timeTarget({ name: 'EpochDB REST /exec, durable', run: async (s) => { await exec(base, s) }, count: async () => Number(((await exec(base, 'select count() from cpu')) as { dataset: number[][] }).dataset[0]![0]), close: () => srv.stop() }, stmts)
    }
  }
  if (hasPostgres15()) {
    const pgs = await startPostgres15()
    try {
      const c = await pgClient(pgs.port, pgs.user, undefined, pgs.database)
      await c.query(PEER_DDL)
      await timeTarget({ name: 'PostgreSQL 15 (simple query), durable', run: async (s) => { await c.query(s) }, count: async () => Number((await c.query('select count(*) from cpu')).rows[0].count), close: () => c.end() }, stmts)
    } finally { await pgs.stop() }
  } else console.log(`(PostgreSQL skipped: no binaries in ${PG15_BIN})`)
  const duck = await import('@duckdb/node-api')
  const inst = await duck.DuckDBInstance.create(':memory:')
  const conn = await inst.connect()
  await conn.run(PEER_DDL)
  await timeTarget({ name: 'DuckDB in process, in memory', run: async (s) => { await conn.run(s) }, count: async () => Number((await conn.runAndReadAll('select count(*) from cpu')).getRows()[0]![0]), close: async () => { conn.closeSync(); inst.closeSync() } }, stmts)
} finally {
  rmSync(tmp, { recursive: true, force: true })
}
