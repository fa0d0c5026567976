/**
 * PostgreSQL wire protocol benchmark (not a test): `npm run bench:pgwire`.
 *
 * EpochDB's pgwire server runs in a child process (`pgwire-server.ts`, durable data directory in
 * a temporary directory) and a real PostgreSQL 15 is started beside it (`postgres15.ts`); every
 * figure is measured on both in the same run:
 *  (a) pgbench, custom `SELECT 1` script, 8 clients, `-M simple`, `-M extended`, `-M prepared`;
 *  (b) bulk insert through a pipelined named prepared INSERT from node `pg` (at most
 *      {@link IN_FLIGHT} unanswered): one row per statement each committing on its own, then all
 *      in one transaction, then 100 rows per statement (`values ($1, $2, $3), ...`) each
 *      committing on its own; row count verified with count(*). First the same single-row
 *      INSERTs go to `pgwire-null-server.ts`, which answers without running anything: the
 *      client's own ceiling on this machine;
 *  (c) `select * from t` (ts, sym, v generated server-side) streamed to psycopg 3 with
 *      `cursor.stream()`: MB/s, rows/s, and EpochDB's RSS (VmRSS of /proc/<pid>/status every
 *      50 ms) before and at its peak, on a freshly started server (partitions read from disk)
 *      and once more with them cached.
 * Environment: EPOCHDB_BENCH_ROWS (streamed rows, default 10M), EPOCHDB_BENCH_INSERT_ROWS
 * (default a tenth of that), EPOCHDB_BENCH_SECONDS (pgbench duration, default 10),
 * EPOCHDB_BENCH_SKIP_POSTGRES=1 (EpochDB only).
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { IN_FLIGHT, bulkInsert, pgbench, sql, streamPsycopg, writeSelect1Script, type Endpoint, type InsertRow, type PgbenchMode, type StreamResult } from './pgwire-clients.js'
import { hasPostgres15, startPostgres15, type Postgres } from './postgres15.js'
import { generateRows } from './generate.js'

const ROWS = Number(process.env['EPOCHDB_BENCH_ROWS'] ?? 10_000_000)
/** Rows per statement of the multi-row INSERT case. */
const BATCH = 100
const INSERT_ROWS = Math.max(BATCH, Math.floor(Number(process.env['EPOCHDB_BENCH_INSERT_ROWS'] ?? ROWS / 10) / BATCH) * BATCH)
const SECONDS = Number(process.env['EPOCHDB_BENCH_SECONDS'] ?? 10)
const SKIP_POSTGRES = process.env['EPOCHDB_BENCH_SKIP_POSTGRES'] === '1'
const CLIENTS = 8
const MODES: readonly PgbenchMode[] = ['simple', 'extended', 'prepared']
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const SERVER_SCRIPT = fileURLToPath(new URL('./pgwire-server.ts', import.meta.url))
const NULL_SERVER_SCRIPT = fileURLToPath(new URL('./pgwire-null-server.ts', import.meta.url))

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')
const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MB`

/** A server child process. */
interface EpochChild { readonly port: number; readonly pid: number; stop(): Promise<void> }

/** Starts `pgwire-server.ts` on `dir` and waits for the port it prints. */
function startEpochDb(dir: string): Promise<EpochChild> {
  return startChild(SERVER_SCRIPT, dir)
}

/** Starts a server script (it prints `{"port":N}` first) and waits for its port. */
async function startChild(script: string, ...args: string[]): Promise<EpochChild> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve)
    void exited.then(() => reject(new Error('the EpochDB server exited before listening')))
  })
  const { port } = JSON.parse(line) as { port: number }
  return { port, pid: child.pid!, stop: async () => { if (child.exitCode === null) child.kill('SIGTERM'); await exited } }
}

/** The resident set size of process `pid` in bytes. */
function rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m === null ? 0 : Number(m[1]) * 1024
}

/** Runs `fn` while sampling `pid`'s RSS every 50 ms; returns its result, RSS before and peak. */
async function withRss<T>(pid: number, fn: () => Promise<T>): Promise<{ out: T; before: number; peak: number }> {
  const before = rss(pid)
  let peak = before
  const timer = setInterval(() => { peak = Math.max(peak, rss(pid)) }, 50)
  try {
    const out = await fn()
    return { out, before, peak: Math.max(peak, rss(pid)) }
  } finally {
    clearInterval(timer)
  }
}

/** Runs a step, printing its error instead of ending the run. */
async function attempt<T>(label: string, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn()
  } catch (e) {
    // a failed child process: its last line of stderr says why
    const why = String((e as { stderr?: unknown }).stderr ?? '').trim().split('\n').pop() || (e as Error).message.split('\n')[0]
    console.log(`${label}: FAILED: ${why}`)
    return undefined
  }
}

/** `a / b` as a ratio, or n/a when either is missing. */
const ratio = (a: number | undefined, b: number | undefined): string => a !== undefined && b !== undefined ? `${(a / b).toFixed(2)}x` : 'n/a'

async function benchPgbench(servers: readonly Endpoint[], dir: string): Promise<void> {
  const script = writeSelect1Script(dir)
  for (const mode of MODES) {
    const tps: (number | undefined)[] = []
    for (const e of servers) {
      const r = await attempt(`(a) pgbench -M ${mode}, ${e.name}`, () => pgbench(e, script, mode, CLIENTS, SECONDS))
      if (r !== undefined) console.log(`(a) pgbench -M ${mode}, ${CLIENTS} clients, ${SECONDS} s, ${e.name}: ${fmt(r.tps)} tps (${fmt(r.transactions)} transactions, latency ${r.latencyMs.toFixed(3)} ms)`)
      tps.push(r?.tps)
    }
    if (servers.length > 1) console.log(`(a) pgbench -M ${mode}: EpochDB / PostgreSQL = ${ratio(tps[0], tps[1])}`)
  }
}

async function benchInsert(servers: readonly Endpoint[], ddl: readonly string[]): Promise<void> {
  const data = generateRows(INSERT_ROWS)
  const row: InsertRow = (i) => [new Date(data.ts[i]! / 1000).toISOString(), data.sym[i]!, data.v[i]!]
  console.log(`(b) ${fmt(INSERT_ROWS)} rows, pipeline window ${IN_FLIGHT} INSERTs in flight`)
  // the client's own ceiling: the same single-row INSERTs to a server that runs nothing
  const ceiling = await attempt('(b) client ceiling', async () => {
    const nul = await startChild(NULL_SERVER_SCRIPT)
    try {
      return await bulkInsert({ name: 'a server that does no work', port: nul.port, user: 'admin', password: undefined, database: 'qdb' }, 'b', INSERT_ROWS, row, false)
    } finally {
      await nul.stop()
    }
  })
  if (ceiling !== undefined) {
    console.log(`(b) client ceiling: node pg sending one-row INSERTs to a server that answers without running them: ` +
      `${(ceiling.ms / 1000).toFixed(1)} s = ${fmt(INSERT_ROWS / (ceiling.ms / 1000))} rows/s`)
  }
  const cases = [
    { transaction: false, rows: 1, how: 'each row its own commit', table: 'b' },
    { transaction: true, rows: 1, how: 'in one transaction', table: 'b_tx' },
    { transaction: false, rows: BATCH, how: `${BATCH} rows per statement, each statement its own commit`, table: 'b_batch' },
  ]
  for (const { transaction, rows, how, table } of cases) {
    const rates: (number | undefined)[] = []
    for (const [k, e] of servers.entries()) {
      const r = await attempt(`(b) insert ${how}, ${e.name}`, async () => {
        await sql(e, ddl[k]!.replace('$table', table))
        return bulkInsert(e, table, INSERT_ROWS, row, transaction, rows)
      })
      if (r !== undefined) {
        console.log(`(b) pipelined prepared INSERT, ${how}, ${e.name}: ${(r.ms / 1000).toFixed(1)} s = ` +
          `${fmt(INSERT_ROWS / (r.ms / 1000))} rows/s; count(*) = ${fmt(r.count)}${r.count === INSERT_ROWS ? '' : ' MISMATCH'}`)
      }
      rates.push(r === undefined ? undefined : INSERT_ROWS / r.ms)
    }
    if (servers.length > 1) console.log(`(b) insert ${how}: EpochDB / PostgreSQL = ${ratio(rates[0], rates[1])}`)
  }
}

/** Prints one streaming measurement. */
function reportStream(who: string, r: StreamResult, memory: string): void {
  console.log(`(c) psycopg 3 stream of ${fmt(r.rows)} rows, ${who}: ${mb(r.bytes)} in ${r.seconds.toFixed(1)} s = ` +
    `${(r.bytes / 2 ** 20 / r.seconds).toFixed(1)} MB/s, ${fmt(r.rows / r.seconds)} rows/s${memory}${r.rows === ROWS ? '' : ' ROW COUNT MISMATCH'}`)
}

/** Creates the streamed table `t` on each server, generated server-side. */
async function createStreamTables(epoch: Endpoint, postgres: Endpoint | undefined): Promise<void> {
  let t0 = performance.now()
  await sql(epoch, `create table t as (select timestamp_sequence('2024-01-01', 10000) ts, rnd_symbol(100, 4, 8, 0) sym, rnd_double() v ` +
    `from long_sequence(${ROWS})) timestamp(ts) partition by day`)
  console.log(`(c) ${fmt(ROWS)} rows generated server-side: EpochDB ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  if (postgres === undefined) return
  t0 = performance.now()
  await sql(postgres, `create table t as select timestamp '2024-01-01' + g * interval '10 ms' as ts, 'SYM' || (g % 100) as sym, random() as v ` +
    `from generate_series(0, ${ROWS - 1}) g`, 'vacuum analyze t')
  console.log(`(c) ${fmt(ROWS)} rows generated server-side: PostgreSQL ${((performance.now() - t0) / 1000).toFixed(1)} s`)
}

/** Streams `t` from a freshly started EpochDB twice (cold, then cached partitions), then from PostgreSQL. */
async function benchStream(epoch: EpochChild, postgres: Endpoint | undefined): Promise<void> {
  const query = 'select * from t'
  for (const pass of ['fresh server, partitions read from disk', 'again, partitions cached']) {
    const m = await attempt(`(c) EpochDB stream (${pass})`, () => withRss(epoch.pid, () => streamPsycopg(endpointOf(epoch), query)))
    if (m !== undefined) reportStream(`EpochDB (${pass})`, m.out, `; server RSS ${mb(m.before)} before, peak ${mb(m.peak)} (+${mb(m.peak - m.before)})`)
  }
  if (postgres === undefined) return
  const r = await attempt('(c) PostgreSQL stream', () => streamPsycopg(postgres, query))
  if (r !== undefined) reportStream('PostgreSQL 15', r, '')
}

function endpointOf(child: EpochChild): Endpoint {
  return { name: 'EpochDB', port: child.port, user: 'admin', password: 'quest', database: 'qdb' }
}

function commit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim() !== ''
    return dirty ? `${head} + uncommitted changes` : head
  } catch {
    return 'unknown commit'
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-bench-pgwire-'))
  let epoch: EpochChild | undefined
  let postgres: Postgres | undefined
  const cleanup = async (): Promise<void> => {
    await Promise.all([epoch?.stop(), postgres?.stop()])
    rmSync(dir, { recursive: true, force: true })
  }
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)))
  try {
    console.log(`EpochDB pgwire benchmarks, ${new Date().toISOString()}, commit ${commit()}, node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(1)}`)
    epoch = await startEpochDb(join(dir, 'epochdb'))
    if (!SKIP_POSTGRES && !hasPostgres15()) console.log('PostgreSQL 15 is not installed (apt-get install postgresql-15): EpochDB only')
    if (!SKIP_POSTGRES && hasPostgres15()) {
      postgres = await startPostgres15()
      console.log(`PostgreSQL: ${postgres.version} (defaults: fsync on, synchronous_commit on)`)
    }
    const servers: Endpoint[] = [endpointOf(epoch)]
    const pgEnd: Endpoint | undefined = postgres && { name: 'PostgreSQL 15', port: postgres.port, user: postgres.user, password: undefined, database: postgres.database }
    if (pgEnd !== undefined) servers.push(pgEnd)

    await benchPgbench(servers, dir)
    await benchInsert(servers, ['create table $table (ts timestamp, sym symbol, v double) timestamp(ts) partition by day',
      'create table $table (ts timestamp, sym text, v double precision)'])
    await createStreamTables(endpointOf(epoch), pgEnd)
    // a fresh server process: its RSS before streaming is that of a server with `t` on disk only
    await epoch.stop()
    epoch = await startEpochDb(join(dir, 'epochdb'))
    await benchStream(epoch, pgEnd)
    console.log(`load average at the end (1, 5, 15 min): ${loadavg().map((l) => l.toFixed(1)).join(', ')}`)
  } finally {
    await cleanup()
  }
}

await main()
