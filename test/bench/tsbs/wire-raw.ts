/**
 * One TSBS query's answer over pgwire measured at the server (a benchmark, not a test):
 * `node --import tsx test/bench/tsbs/wire-raw.ts [--hosts 1000] [--days 1] [--query high-cpu-all] [--runs 5] [--no-postgres] [--baseline DIR] [--cpu-prof DIR]`.
 *
 * The client is {@link RawPg}, which counts DataRows and bytes without decoding a cell, so its
 * wall time is the server's time to answer (node `pg` alone spends 5–7 µs per row parsing, more
 * than either server spends encoding). Runs interleave, per result format (simple query;
 * extended text; extended binary): EpochDB's pgwire server (a child process), PostgreSQL 15 (a
 * throwaway server, same rows, index on `ts`), and the same query in this process through
 * `db.stream` (column batches, no row values) and `db.query` (rows as JS values). Prints the best
 * wall time, the mean server CPU per run (/proc of the EpochDB child or the PostgreSQL backend)
 * and of this process, bytes per row, and the ratios to the in-process times.
 *
 * `--baseline DIR` also runs the pgwire server of another checkout (e.g. `git archive <commit> |
 * tar -x -C DIR`, with `node_modules` linked) in the same run: before and after against the
 * same peers. `--cpu-prof DIR` starts the EpochDB child with `--cpu-prof --cpu-prof-dir DIR` (skip
 * PostgreSQL with `--no-postgres` to profile on a quieter machine).
 */
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { Database } from '../../../lib/index.js'
import { startPostgres15 } from '../postgres15.js'
import type { Shape } from './generate.js'
import { loadEpoch } from './load-epoch.js'
import { tsbsQueries } from './queries.js'
import { type RawConnectOptions, type RawMode, RawPg } from './raw-pg-client.js'
import { loadPostgres, startEpoch } from './wire-servers.js'

const { values: args } = parseArgs({
  options: {
    hosts: { type: 'string', default: '1000' },
    days: { type: 'string', default: '1' },
    query: { type: 'string', default: 'high-cpu-all' },
    runs: { type: 'string', default: '5' },
    modes: { type: 'string', default: 'simple,text,binary' },
    'no-postgres': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    baseline: { type: 'string' },
  },
})
const shape: Shape = { hosts: Number(args.hosts), days: Number(args.days) }
const RUNS = Number(args.runs)
const MODES = args.modes.split(',') as RawMode[]

/** user + system CPU ms of process `pid` (Linux /proc; clock ticks at 100 Hz). */
function procCpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(f[11]) + Number(f[12])) * 10
}
const selfCpuMs = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }

interface Timed { best: number; server: number; client: number; rows: number; bytes: number }
const timed = (): Timed => ({ best: Infinity, server: 0, client: 0, rows: 0, bytes: 0 })

/** One contender: runs the query once, returning rows and bytes; `pid` is the server process to charge, if any. */
interface Contender { name: string; pid?: number; once: () => Promise<{ rows: number; bytes: number }> }

async function measure(c: Contender, t: Timed): Promise<void> {
  const s0 = c.pid === undefined ? 0 : procCpuMs(c.pid)
  const c0 = selfCpuMs()
  const t0 = performance.now()
  const { rows, bytes } = await c.once()
  t.best = Math.min(t.best, performance.now() - t0)
  t.client += (selfCpuMs() - c0) / RUNS
  if (c.pid !== undefined) t.server += (procCpuMs(c.pid) - s0) / RUNS
  if (t.rows !== 0 && t.rows !== rows) throw new Error(`${c.name}: ${rows} rows, earlier ${t.rows}`)
  t.rows = rows; t.bytes = bytes
}

const q = tsbsQueries(shape).find((x) => x.name === args.query)
if (q === undefined) throw new Error(`no query ${args.query}`)
console.log(`${q.name} at ${shape.hosts} hosts x ${shape.days} days, best of ${RUNS} (after one warm-up), runs interleaved`)

const pgs = args['no-postgres'] ? undefined : await startPostgres15()
const db = await Database.open({})
try {
  const t0 = performance.now()
  const prof = args['cpu-prof'] === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', args['cpu-prof']]
  const [epoch, base] = await Promise.all([
    startEpoch(shape, prof),
    args.baseline === undefined ? Promise.resolve(undefined) : startEpoch(shape, [], args.baseline),
    pgs === undefined ? Promise.resolve() : loadPostgres(shape, pgs.port, pgs.user, pgs.database),
    loadEpoch(db, shape),
  ])
  console.log(`loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  const conns: { name: string; sql: string; o: RawConnectOptions; pid: (c: RawConnectOptions) => Promise<number> }[] = [
    { name: 'EpochDB pgwire', sql: q.epoch, o: { host: '127.0.0.1', port: epoch.port, user: 'admin', password: 'quest', database: 'qdb' }, pid: () => Promise.resolve(epoch.pid) },
  ]
  if (base !== undefined) {
    conns.push({ name: 'EpochDB baseline pgwire', sql: q.epoch, o: { host: '127.0.0.1', port: base.port, user: 'admin', password: 'quest', database: 'qdb' }, pid: () => Promise.resolve(base.pid) })
  }
  if (pgs !== undefined) {
    conns.push({
      name: 'PostgreSQL 15', sql: q.pg, o: { host: '127.0.0.1', port: pgs.port, user: pgs.user, database: pgs.database },
      pid: async (o) => {
        const c = new pg.Client(o)
        await c.connect()
        // the backend of the raw connection: the only other client backend of this database
        const r = await c.query("select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'")
        await c.end()
        return r.rows[0].pid as number
      },
    })
  }
  try {
    const clients = await Promise.all(conns.map(async (x) => { const c = await RawPg.connect(x.o); return { ...x, c, serverPid: await x.pid(x.o) } }))
    const stream: Contender = {
      name: 'in process, db.stream', once: async () => {
        let rows = 0
        for await (const b of db.stream(q.epoch)) rows += b.length
        return { rows, bytes: 0 }
      },
    }
    const query: Contender = { name: 'in process, db.query', once: async () => ({ rows: (await db.query(q.epoch)).rowCount, bytes: 0 }) }
    const inProc = [stream, query].map((c) => ({ c, t: timed() }))
    const wire = MODES.flatMap((mode) => clients.map((x) => ({
      mode, t: timed(),
      c: { name: `${x.name}, ${mode === 'simple' ? 'simple query (text)' : `extended, ${mode}`}`, pid: x.serverPid, once: () => x.c.query(x.sql, mode) } satisfies Contender,
    })))
    const all = [...inProc, ...wire]
    for (const { c } of all) await c.once() // warm-up
    for (let r = 0; r < RUNS; r++) for (const { c, t } of all) await measure(c, t)
    for (const { c } of clients) await c.close()
    const ns = (ms: number, rows: number): string => `${(ms / rows * 1e6).toFixed(0)} ns/row`
    const base = inProc.map(({ c, t }) => ({ name: c.name.replace('in process, ', ''), best: t.best }))
    for (const { c, t } of all) {
      const cpu = c.pid === undefined ? `CPU ${t.client.toFixed(0)} ms` : `server CPU ${t.server.toFixed(0)} ms (${ns(t.server, t.rows)}), client CPU ${t.client.toFixed(0)} ms`
      const bytes = t.bytes > 0 ? `, ${(t.bytes / t.rows).toFixed(1)} B/row` : ''
      const ratio = c.pid === undefined ? '' : `; ${base.map((b) => `${(t.best / b.best).toFixed(2)}x ${b.name}`).join(', ')}`
      console.log(`${c.name}: best ${t.best.toFixed(0)} ms; ${cpu}; ${t.rows} rows${bytes}${ratio}`)
    }
  } finally {
    await epoch.stop()
    await base?.stop()
  }
} finally {
  await db.close()
  await pgs?.stop()
}
