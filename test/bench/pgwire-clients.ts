/**
 * The client side of the pgwire benchmark (`test/bench/pgwire.ts`), the same for EpochDB and
 * PostgreSQL: pgbench with a `SELECT 1` script, a pipelined prepared INSERT from node `pg`, and
 * psycopg 3 streaming a result (`test/bench/pgwire-stream.py`). pgbench and Python run as child
 * processes, so only node `pg` shares the benchmark driver's event loop.
 */
import { execFile } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import pg from 'pg'

const run = promisify(execFile)

/** The stream script, next to this file. */
const STREAM_SCRIPT = fileURLToPath(new URL('./pgwire-stream.py', import.meta.url))
/** Debian's interpreter (where apt installs psycopg) even when a pyenv python3 is first on PATH. */
const PYTHON = process.env['EPOCHDB_PYTHON'] ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3')
/** Pipelined INSERTs sent and not yet answered, at most. */
export const IN_FLIGHT = 2000

/** A server to connect to over TCP on 127.0.0.1. */
export interface Endpoint {
  readonly name: string
  readonly port: number
  readonly user: string
  /** undefined for trust authentication */
  readonly password: string | undefined
  readonly database: string
}

/** pgbench's query modes: `simple` Query, `extended` unnamed statements, `prepared` named ones. */
export type PgbenchMode = 'simple' | 'extended' | 'prepared'

/** The figures pgbench prints. */
export interface PgbenchResult {
  readonly tps: number
  readonly transactions: number
  readonly latencyMs: number
}

/** Writes pgbench's custom script (`SELECT 1`) into `dir` and returns its path. */
export function writeSelect1Script(dir: string): string {
  const path = join(dir, 'select1.sql')
  writeFileSync(path, 'SELECT 1;\n')
  return path
}

/** `pgbench -n -f script -c clients -T seconds -M mode` against `e`. */
export async function pgbench(e: Endpoint, script: string, mode: PgbenchMode, clients: number, seconds: number): Promise<PgbenchResult> {
  const env = { ...process.env, PGPASSWORD: e.password ?? '', PGSSLMODE: 'disable' }
  const { stdout } = await run('pgbench', ['-n', '-f', script, '-c', String(clients), '-T', String(seconds), '-M', mode,
    '-h', '127.0.0.1', '-p', String(e.port), '-U', e.user, e.database], { env, maxBuffer: 1 << 24 })
  const num = (re: RegExp): number => {
    const m = re.exec(stdout)
    if (m === null) throw new Error(`pgbench printed no ${re.source}:\n${stdout}`)
    return Number(m[1])
  }
  const failed = /number of failed transactions: (\d+)/.exec(stdout)
  if (failed !== null && Number(failed[1]) > 0) throw new Error(`pgbench: ${failed[1]} failed transactions`)
  return {
    tps: num(/tps = ([\d.]+)/),
    transactions: num(/number of transactions actually processed: (\d+)/),
    latencyMs: num(/latency average = ([\d.]+) ms/),
  }
}

/** Connection settings for node `pg`. */
function clientConfig(e: Endpoint): pg.ClientConfig {
  return { host: '127.0.0.1', port: e.port, user: e.user, password: e.password, database: e.database }
}

/** Runs statements one after another on a fresh connection; returns the last one's rows. */
export async function sql(e: Endpoint, ...statements: string[]): Promise<Record<string, unknown>[]> {
  const client = new pg.Client(clientConfig(e))
  await client.connect()
  try {
    let rows: Record<string, unknown>[] = []
    for (const s of statements) rows = (await client.query(s)).rows as Record<string, unknown>[]
    return rows
  } finally {
    await client.end()
  }
}

/** One row of the bulk insert: `[ts as ISO text, sym, v]`. */
export type InsertRow = (i: number) => [string, string, number]

/** How a bulk insert went. */
export interface InsertResult {
  readonly ms: number
  /** `count(*)` of the table afterwards */
  readonly count: number
}

/**
 * Inserts `n` rows into `table` with one named prepared INSERT on a pipelined node `pg`
 * connection (of `rowsPerStatement` rows, a divisor of `n`; default one row), keeping at most
 * {@link IN_FLIGHT} statements unanswered; with `transaction` the
 * rows go between one BEGIN and COMMIT, otherwise each INSERT commits on its own. Times from
 * the first INSERT sent to the last (and the COMMIT) answered; stops at the first error.
 */
export async function bulkInsert(e: Endpoint, table: string, n: number, row: InsertRow, transaction: boolean, rowsPerStatement = 1): Promise<InsertResult> {
  const client = new pg.Client({ ...clientConfig(e), pipeline: true })
  await client.connect()
  try {
    const tuples = Array.from({ length: rowsPerStatement }, (_, r) => `($${3 * r + 1}, $${3 * r + 2}, $${3 * r + 3})`)
    const text = `insert into ${table} values ${tuples.join(', ')}`
    let inFlight = 0
    let failure: unknown
    let wake: (() => void) | undefined
    const settle = (): void => {
      inFlight--
      if (wake !== undefined && (inFlight <= IN_FLIGHT / 2 || failure !== undefined)) { const w = wake; wake = undefined; w() }
    }
    const t0 = performance.now()
    if (transaction) await client.query('begin')
    for (let i = 0; i < n && failure === undefined; i += rowsPerStatement) {
      inFlight++
      const values = rowsPerStatement === 1 ? row(i) : Array.from({ length: rowsPerStatement }, (_, r) => row(i + r)).flat()
      client.query({ name: `ins_${table}_${rowsPerStatement}`, text, values }).then(settle, (err: unknown) => { failure ??= err; settle() })
      if (inFlight >= IN_FLIGHT) await new Promise<void>((resolve) => { wake = resolve })
    }
    while (inFlight > 0) await new Promise<void>((resolve) => { wake = resolve })
    if (failure !== undefined) throw failure
    if (transaction) await client.query('commit')
    const ms = performance.now() - t0
    const counted = await client.query(`select count(*) as n from ${table}`)
    return { ms, count: Number((counted.rows[0] as { n?: unknown } | undefined)?.n ?? 0) }
  } finally {
    await client.end()
  }
}

/** What psycopg 3 saw while streaming. */
export interface StreamResult {
  readonly rows: number
  readonly seconds: number
  /** bytes received on the connection while streaming */
  readonly bytes: number
}

/** Streams `query` to psycopg 3 (`cursor.stream()`) in a Python child process. */
export async function streamPsycopg(e: Endpoint, query: string): Promise<StreamResult> {
  const password = e.password === undefined ? '' : ` password=${e.password}`
  const conninfo = `host=127.0.0.1 port=${e.port} user=${e.user} dbname=${e.database} sslmode=disable${password}`
  const { stdout } = await run(PYTHON, [STREAM_SCRIPT, conninfo, query], { maxBuffer: 1 << 20 })
  return JSON.parse(stdout) as StreamResult
}
