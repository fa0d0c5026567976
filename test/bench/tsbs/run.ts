/**
 * TSBS `cpu-only` side by side (a benchmark, not a test): `npm run bench:tsbs`.
 *
 * For each data set (100 hosts x 3 days, then 1,000 hosts x 1 day; `--scale f` multiplies the
 * hosts for a quick run) the same deterministic rows (`generate.ts`) are loaded into an
 * in-memory EpochDB (`db.append`), an in-memory DuckDB (appender, data chunks) and a throwaway
 * PostgreSQL 15 (`COPY` through psql, indexes as TSBS creates them: `(ts DESC)` and
 * `(hostname, ts DESC)`, then `VACUUM ANALYZE`). The 14 TSBS query types (`queries.ts`) then run
 * on the three, interleaved: one warm-up each (whose answers are compared: same rows, in any
 * order, doubles to 10 significant digits), then best of `--runs` (default 5). EpochDB's rows are
 * counted from `db.stream` batches, DuckDB's from its materialised result, PostgreSQL's arrive
 * through node `pg` (rows as arrays). Ratios are EpochDB's time over each peer's.
 *
 * Options: `--scale f` (hosts x f), `--only 100x3|1000x1`, `--runs n`, `--index` (a second
 * EpochDB whose hostname column has a symbol index, `EpochDB+index`, beside the plain one), `--skip-pg`, `--skip-duckdb`, `--query substring`,
 * `--baseline dir` (one more EpochDB, `EpochDB@baseline`, from the `lib/` of another checkout in `dir`, e.g. `git archive <commit> lib | tar -x -C dir` with
 * `dir/node_modules` a link to this one's: before and after in one run; indexed with `--index`).
 * `--index-only`: the indexed EpochDB alone, without the plain one (a shorter run; queries over all hosts read the same way in both).
 * An engine that fails (a peer's server stopped from outside) is reported and left out of the later queries.
 * PostgreSQL is skipped with a message when its binaries are missing (`EPOCHDB_BENCH_PG_BIN`,
 * default /usr/lib/postgresql/15/bin, Debian's `postgresql-15`).
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { cpus, loadavg, totalmem, platform, release, arch } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { Database } from '../../../lib/index.js'
import { PG15_BIN, hasPostgres15, startPostgres15, type Postgres } from '../postgres15.js'
import { METRICS, TAGS, chunks, rowCount, type Shape } from './generate.js'
import { tsbsQueries, type TsbsQuery } from './queries.js'

const { values: args } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    only: { type: 'string' },
    runs: { type: 'string', default: '5' },
    index: { type: 'boolean', default: false },
    wire: { type: 'boolean', default: false },
    'skip-pg': { type: 'boolean', default: false },
    'skip-duckdb': { type: 'boolean', default: false },
    query: { type: 'string' },
    baseline: { type: 'string' },
    'index-only': { type: 'boolean', default: false },
  },
})
const SCALE = Number(args.scale)
const RUNS = Number(args.runs)

/** A loaded engine that can answer a query and time one. */
interface Engine {
  readonly name: string
  /** the answer, each row as normalised strings */
  answer(q: TsbsQuery): Promise<string[]>
  /** runs the query once, returns the rows it produced */
  run(q: TsbsQuery): Promise<number>
  close(): Promise<void>
  /** CPU time (user + system, ms) of the process that answers, when it is another one */
  cpuMs?(): number
}

const fmtMs = (ms: number): string => (Number.isNaN(ms) ? '—' : ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0))
const fmtN = (n: number): string => Math.round(n).toLocaleString('en-US')

/** One value as comparable text: numbers to 10 significant digits, timestamps as microseconds. */
function norm(v: unknown): string {
  if (v === null || v === undefined) return 'null'
  if (typeof v === 'number') return String(Number(v.toPrecision(10)))
  if (typeof v === 'bigint') return String(v)
  if (typeof v === 'object' && v !== null && 'micros' in v) return String((v as { micros: bigint }).micros)
  if (v instanceof Date) return String(v.getTime() * 1000)
  return String(v)
}

async function epochEngine(shape: Shape, indexed: boolean, baseline?: string): Promise<Engine> {
  // --baseline: the same engine from another checkout's lib/ (before / after in one run, against the same peers)
  const Db: typeof Database = baseline === undefined ? Database : (await import(pathToFileURL(join(baseline, 'lib/index.ts')).href) as { Database: typeof Database }).Database
  const db = await Db.open()
  const cols = [...TAGS.map((t) => `${t} SYMBOL${indexed && t === 'hostname' ? ' INDEX' : ''}`), ...METRICS.map((m) => `${m} DOUBLE`), 'ts TIMESTAMP']
  await db.query(`CREATE TABLE cpu (${cols.join(', ')}) TIMESTAMP(ts) PARTITION BY DAY`)
  const t0 = performance.now()
  for (const c of chunks(shape, 360)) {
    const data: Record<string, ArrayLike<unknown>> = { ts: c.ts }
    TAGS.forEach((t, i) => { data[t] = c.tags[i]! })
    METRICS.forEach((m, i) => { data[m] = c.metrics[i]! })
    await db.append('cpu', data)
  }
  const ms = performance.now() - t0
  const name = `EpochDB${baseline === undefined ? '' : '@baseline'}${indexed ? '+index' : ''}`
  console.log(`  ${name} load (db.append, in memory): ${fmtMs(ms)} ms, ${fmtN(rowCount(shape) / (ms / 1000))} rows/s`)
  return {
    name,
    async answer(q) { return (await db.query(q.epoch)).rows.map((r) => r.map(norm).join('|')) },
    async run(q) { let n = 0; for await (const b of db.stream(q.epoch)) n += b.length; return n },
    close: () => db.close(),
  }
}

/** A `timestamp` text (`2016-01-01 00:00:10`, with or without a fraction) as microseconds, for both pg clients. */
function pgTimestampMicros(s: string): string {
  const dot = s.indexOf('.')
  const micros = dot < 0 ? 0 : Number(s.slice(dot + 1).padEnd(6, '0'))
  return String(Date.parse(`${(dot < 0 ? s : s.slice(0, dot)).replace(' ', 'T')}Z`) * 1000 + micros)
}

/** user + system CPU ms of process `pid` (Linux /proc; clock ticks at 100 Hz). */
function procCpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(f[11]) + Number(f[12])) * 10
}

/** EpochDB's pgwire server in a child process holding the same rows, queried through node `pg`. */
async function wireEngine(shape: Shape): Promise<Engine> {
  const t0 = performance.now()
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./server-child.ts', import.meta.url)), '--tsbs', `${shape.hosts},${shape.days}`],
    { stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve)
    void exited.then(() => reject(new Error('the server exited before listening')))
  })
  const { pgwire } = JSON.parse(line) as { pgwire: number }
  console.log(`  EpochDB pgwire server (child process, db.append, in memory): ${fmtMs(performance.now() - t0)} ms`)
  const pg = (await import('pg')).default
  const client = new pg.Client({ host: '127.0.0.1', port: pgwire, user: 'admin', password: 'quest', database: 'qdb' })
  await client.connect()
  client.setTypeParser(1114, pgTimestampMicros)
  client.setTypeParser(701, (s: string) => Number(s))
  return {
    name: 'EpochDB pgwire',
    async answer(q) { return (await client.query({ text: q.epoch, rowMode: 'array' })).rows.map((r: unknown[]) => r.map(norm).join('|')) },
    async run(q) { return (await client.query({ text: q.epoch, rowMode: 'array' })).rowCount ?? 0 },
    cpuMs: () => procCpuMs(child.pid!),
    close: async () => { await client.end(); child.kill('SIGTERM'); await exited },
  }
}

async function duckEngine(shape: Shape): Promise<Engine> {
  const duck = await import('@duckdb/node-api')
  const instance = await duck.DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  const cols = [...TAGS.map((t) => `${t} VARCHAR`), ...METRICS.map((m) => `${m} DOUBLE`), 'ts TIMESTAMP']
  await conn.run(`CREATE TABLE cpu (${cols.join(', ')})`)
  const types = [...TAGS.map(() => duck.VARCHAR), ...METRICS.map(() => duck.DOUBLE), duck.TIMESTAMP]
  const t0 = performance.now()
  const app = await conn.createAppender('cpu')
  const CH = 2048
  for (const c of chunks(shape, 360)) {
    for (let lo = 0; lo < c.length; lo += CH) {
      const hi = Math.min(c.length, lo + CH)
      const chunk = duck.DuckDBDataChunk.create(types, hi - lo)
      TAGS.forEach((_, i) => chunk.setColumnValues(i, c.tags[i]!.slice(lo, hi)))
      METRICS.forEach((_, i) => chunk.setColumnValues(TAGS.length + i, Array.from(c.metrics[i]!.subarray(lo, hi))))
      const ts: InstanceType<typeof duck.DuckDBTimestampValue>[] = []
      for (let k = lo; k < hi; k++) ts.push(new duck.DuckDBTimestampValue(BigInt(c.ts[k]!)))
      chunk.setColumnValues(TAGS.length + METRICS.length, ts)
      app.appendDataChunk(chunk)
    }
  }
  app.closeSync()
  const ms = performance.now() - t0
  console.log(`  DuckDB load (appender, data chunks, in memory): ${fmtMs(ms)} ms, ${fmtN(rowCount(shape) / (ms / 1000))} rows/s`)
  return {
    name: 'DuckDB',
    async answer(q) { return (await conn.runAndReadAll(q.duck)).getRows().map((r) => r.map(norm).join('|')) },
    async run(q) { return (await conn.runAndReadAll(q.duck)).currentRowCount },
    close: async () => { conn.closeSync(); instance.closeSync() },
  }
}

/** `2016-01-01 00:00:10` */
function pgTs(micros: number): string {
  return new Date(micros / 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '')
}

async function pgEngine(shape: Shape, pgServer: Postgres): Promise<Engine> {
  const pg = (await import('pg')).default
  const client = new pg.Client({ host: '127.0.0.1', port: pgServer.port, user: pgServer.user, database: pgServer.database })
  await client.connect()
  // a server that goes away (stopped from outside) fails the engine's queries, not the process
  client.on('error', (e: Error) => { console.log(`  PostgreSQL connection lost: ${e.message}`) })
  client.setTypeParser(1114, pgTimestampMicros)
  client.setTypeParser(701, (s: string) => Number(s))
  await client.query('DROP TABLE IF EXISTS cpu')
  const cols = [...TAGS.map((t) => `${t} TEXT`), ...METRICS.map((m) => `${m} DOUBLE PRECISION`), 'ts TIMESTAMP NOT NULL']
  await client.query(`CREATE TABLE cpu (${cols.join(', ')})`)
  const t0 = performance.now()
  const psql = spawn(join(PG15_BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(pgServer.port), '-U', pgServer.user, '-q', '-v', 'ON_ERROR_STOP=1',
    '-c', 'COPY cpu FROM STDIN', pgServer.database], { stdio: ['pipe', 'inherit', 'inherit'] })
  const done = new Promise<number | null>((resolve) => psql.once('exit', resolve))
  for (const c of chunks(shape, 360)) {
    const lines: string[] = []
    for (let i = 0; i < c.length; i++) {
      let line = ''
      for (let t = 0; t < TAGS.length; t++) line += `${c.tags[t]![i]!}\t`
      for (let m = 0; m < METRICS.length; m++) line += `${c.metrics[m]![i]!}\t`
      lines.push(`${line}${pgTs(c.ts[i]!)}\n`)
    }
    if (!psql.stdin.write(lines.join(''))) await new Promise((resolve) => psql.stdin.once('drain', resolve))
  }
  psql.stdin.end()
  if ((await done) !== 0) throw new Error('psql COPY failed')
  const copied = performance.now() - t0
  await client.query('CREATE INDEX ON cpu (ts DESC)')
  await client.query('CREATE INDEX ON cpu (hostname, ts DESC)')
  await client.query('VACUUM ANALYZE cpu')
  const ms = performance.now() - t0
  console.log(`  PostgreSQL load (COPY ${fmtMs(copied)} ms, + 2 indexes + VACUUM ANALYZE): ${fmtMs(ms)} ms, ${fmtN(rowCount(shape) / (ms / 1000))} rows/s`)
  return {
    name: 'PostgreSQL',
    async answer(q) { return (await client.query({ text: q.pg, rowMode: 'array' })).rows.map((r: unknown[]) => r.map(norm).join('|')) },
    async run(q) { return (await client.query({ text: q.pg, rowMode: 'array' })).rowCount ?? 0 },
    close: () => client.end(),
  }
}

/** Compares two answers as multisets of rows; a message when they differ. */
function diff(a: string[], b: string[]): string | undefined {
  if (a.length !== b.length) return `${a.length} rows vs ${b.length}`
  const sa = [...a].sort()
  const sb = [...b].sort()
  for (let i = 0; i < sa.length; i++) if (sa[i] !== sb[i]) return `row differs: ${sa[i]} vs ${sb[i]}`
  return undefined
}

async function bench(shape: Shape, pgServer: Postgres | undefined): Promise<boolean> {
  console.log(`\n## ${shape.hosts} hosts x ${shape.days} day(s): ${fmtN(rowCount(shape))} rows x 21 columns`)
  const engines: Engine[] = [await epochEngine(shape, args['index-only'])]
  if (args.index && !args['index-only']) engines.push(await epochEngine(shape, true))
  if (args.baseline !== undefined) engines.push(await epochEngine(shape, args.index || args['index-only'], args.baseline))
  if (!args['skip-duckdb']) engines.push(await duckEngine(shape))
  if (pgServer !== undefined) engines.push(await pgEngine(shape, pgServer))
  // last: its connection must not sit idle past the server's idle timeout while the others load
  if (args.wire) engines.push(await wireEngine(shape))
  const queries = tsbsQueries(shape).filter((q) => args.query === undefined || q.name.includes(args.query))
  const names = engines.map((e) => e.name)
  // ratios: the first engine over each other one, every other EpochDB over the peers, and the indexed EpochDB over the baseline
  const pairs: [number, number][] = names.slice(1).map((_, k) => [0, k + 1])
  names.forEach((n, e) => {
    if (e === 0 || !n.startsWith('EpochDB')) return
    names.forEach((m, k) => { if (!m.startsWith('EpochDB')) pairs.push([e, k]) })
  })
  const ix = names.indexOf('EpochDB+index')
  const bx = names.findIndex((n) => n.startsWith('EpochDB@baseline'))
  if (ix > 0 && bx > 0) pairs.push([ix, bx])
  console.log(`\n| query | rows | ${names.map((n) => `${n} ms`).join(' | ')} | ${pairs.map(([a, b]) => `${names[a]!} / ${names[b]!}`).join(' | ')} | answers |`)
  console.log(`| --- | ---: | ${names.map(() => '---:').join(' | ')} | ${pairs.map(() => '---:').join(' | ')} | --- |`)
  let allEqual = true
  const cpuNotes: string[] = []
  const dead = new Set<Engine>()
  for (const q of queries) {
    const answers: string[][] = []
    // an engine that fails (a peer's server stopped from outside) is reported and left out from then on
    for (const e of engines) answers.push(dead.has(e) ? [] : await e.answer(q).catch((err: Error) => { dead.add(e); console.log(`  ${e.name} failed: ${err.message}`); return [] }))
    const problems: string[] = []
    for (let k = 1; k < engines.length; k++) {
      if (dead.has(engines[k]!)) continue
      const d = diff(answers[0]!, answers[k]!)
      if (d !== undefined) problems.push(`${engines[k]!.name}: ${d}`)
    }
    if (problems.length > 0) allEqual = false
    const best = engines.map(() => Infinity)
    const cpu = engines.map(() => 0)
    for (let r = 0; r < RUNS; r++) {
      for (let k = 0; k < engines.length; k++) {
        const e = engines[k]!
        if (dead.has(e)) { best[k] = NaN; continue }
        const c0 = e.cpuMs?.() ?? 0
        const t0 = performance.now()
        try { await e.run(q) } catch (err) { dead.add(e); best[k] = NaN; console.log(`  ${e.name} failed: ${(err as Error).message}`); continue }
        best[k] = Math.min(best[k]!, performance.now() - t0)
        cpu[k]! += (e.cpuMs?.() ?? 0) - c0
      }
    }
    engines.forEach((e, k) => {
      if (e.cpuMs === undefined) return
      const rows = Math.max(1, answers[0]!.length)
      cpuNotes.push(`${q.name}: ${e.name} server CPU ${fmtMs(cpu[k]! / RUNS)} ms per run, ${(cpu[k]! / RUNS / rows * 1e6).toFixed(0)} ns per row`)
    })
    const ratios = pairs.map(([a, b]) => `${(best[a]! / best[b]!).toFixed(2)}x`)
    console.log(`| ${q.name} | ${fmtN(answers[0]!.length)} | ${best.map(fmtMs).join(' | ')} | ${ratios.join(' | ')} | ${problems.length === 0 ? 'equal' : problems.join('; ')} |`)
  }
  if (cpuNotes.length > 0) console.log(`\n${cpuNotes.join('\n')}`)
  for (const e of engines) await e.close().catch(() => undefined)
  return allEqual
}

console.log(`TSBS cpu-only, ${new Date().toISOString()}; ${platform()} ${release()} ${arch()}, ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB; node ${process.version}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
console.log(`best of ${RUNS} after one warm-up; ratios are the first engine's time over each other's (and with --index the indexed EpochDB's over the peers')`)
const shapes: { label: string; shape: Shape }[] = [
  { label: '100x3', shape: { hosts: Math.max(1, Math.round(100 * SCALE)), days: 3 } },
  { label: '1000x1', shape: { hosts: Math.max(1, Math.round(1000 * SCALE)), days: 1 } },
].filter((s) => args.only === undefined || s.label === args.only)
let pgServer: Postgres | undefined
if (!args['skip-pg']) {
  if (hasPostgres15()) {
    pgServer = await startPostgres15()
    console.log(`PostgreSQL: ${pgServer.version}`)
  } else console.log(`PostgreSQL skipped: no PostgreSQL 15 binaries in ${PG15_BIN} (install Debian's postgresql-15 or set EPOCHDB_BENCH_PG_BIN)`)
}
const stop = async (): Promise<void> => { await pgServer?.stop() }
process.once('SIGINT', () => { void stop().then(() => process.exit(130)) })
let ok = true
try {
  for (const s of shapes) ok = (await bench(s.shape, pgServer)) && ok
} finally {
  await stop()
}
if (!ok) { console.log('\nSOME ANSWERS DIFFER'); process.exitCode = 1 }
