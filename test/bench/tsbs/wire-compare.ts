/**
 * One TSBS query's result over the wire, EpochDB's pgwire server against PostgreSQL 15 with the
 * same clients (a benchmark, not a test):
 * `node --import tsx test/bench/tsbs/wire-compare.ts [--hosts 100] [--days 3] [--query high-cpu-all] [--runs 3] [--no-python]`.
 *
 * Both servers hold the same TSBS cpu-only rows (EpochDB in a child process, `server-child.ts`;
 * PostgreSQL loaded by `COPY`, index on `ts`). For each server it prints what arrived for one
 * simple query, captured from the `pg` client's socket: bytes, socket reads, messages by type,
 * the mean DataRow size and each column's mean cell length and type OID; then the time of the
 * query through node `pg` (with the TSBS bench's type parsers, and with raw strings), the client
 * process's CPU and the server's CPU (/proc: the EpochDB child, the PostgreSQL backend), and the
 * same through psycopg 3 and psycopg2 (`fetchall`, /usr/bin/python3) when installed.
 */
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { promisify } from 'node:util'
import pg from 'pg'
import { startPostgres15 } from '../postgres15.js'
import type { Shape } from './generate.js'
import { tsbsQueries } from './queries.js'
import { loadPostgres, startEpoch } from './wire-servers.js'

const run = promisify(execFile)
const { values: args } = parseArgs({
  options: {
    hosts: { type: 'string', default: '100' },
    days: { type: 'string', default: '3' },
    query: { type: 'string', default: 'high-cpu-all' },
    runs: { type: 'string', default: '3' },
    'no-python': { type: 'boolean', default: false },
  },
})
const shape: Shape = { hosts: Number(args.hosts), days: Number(args.days) }
const RUNS = Number(args.runs)
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'

/** user + system CPU ms of process `pid` (Linux /proc; clock ticks at 100 Hz). */
function procCpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(f[11]) + Number(f[12])) * 10
}
const selfCpuMs = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
function pgTimestampMicros(s: string): string {
  const dot = s.indexOf('.')
  const micros = dot < 0 ? 0 : Number(s.slice(dot + 1).padEnd(6, '0'))
  return String(Date.parse(`${(dot < 0 ? s : s.slice(0, dot)).replace(' ', 'T')}Z`) * 1000 + micros)
}

interface Server { name: string; conn: pg.ClientConfig; serverPid: (c: pg.Client) => Promise<number>; libpq: string }

/** What one query's answer looked like on the wire. */
function analyse(chunksIn: Buffer[]): string[] {
  const all = Buffer.concat(chunksIn)
  const byType = new Map<string, { n: number; bytes: number }>()
  let cols: { sum: number; nulls: number }[] = []
  let oids: number[] = []
  let names: string[] = []
  let rows = 0
  const first: string[] = []
  for (let at = 0; at + 5 <= all.length;) {
    const type = String.fromCharCode(all[at]!)
    const len = all.readInt32BE(at + 1)
    if (first.length < 4) first.push(`${type}(${len})`)
    const e = byType.get(type) ?? { n: 0, bytes: 0 }
    e.n++; e.bytes += len + 1
    byType.set(type, e)
    if (type === 'T') {
      const n = all.readInt16BE(at + 5)
      let p = at + 7
      oids = []; names = []
      for (let k = 0; k < n; k++) {
        const z = all.indexOf(0, p)
        names.push(all.toString('utf8', p, z))
        p = z + 1
        oids.push(all.readInt32BE(p + 6))
        p += 18
      }
      cols = oids.map(() => ({ sum: 0, nulls: 0 }))
    } else if (type === 'D') {
      rows++
      const n = all.readInt16BE(at + 5)
      let p = at + 7
      for (let k = 0; k < n; k++) {
        const l = all.readInt32BE(p)
        p += 4
        cols[k] ??= { sum: 0, nulls: 0 }
        if (l < 0) cols[k]!.nulls++
        else { cols[k]!.sum += l; p += l }
      }
    }
    at += len + 1
  }
  const sizes = chunksIn.map((c) => c.length).sort((a, b) => a - b)
  const out = [`${all.length.toLocaleString('en-US')} bytes in ${chunksIn.length} socket reads (median ${sizes[sizes.length >> 1]} B, max ${sizes[sizes.length - 1]} B); ${(all.length / Math.max(1, rows)).toFixed(1)} B per row`]
  out.push(`first messages: ${first.join(' ')}; messages: ${[...byType].map(([t, e]) => `${t} x${e.n} (${e.bytes.toLocaleString('en-US')} B)`).join(', ')}`)
  out.push(`cells (mean bytes, oid): ${names.map((nm, k) => `${nm} ${(cols[k]!.sum / Math.max(1, rows)).toFixed(1)}/${oids[k]}`).join(', ')}`)
  return out
}

/** Prints what one answer of `sql` looked like on the wire from server `s`. */
async function capture(s: Server, sql: string): Promise<void> {
  console.log(`\n### ${s.name}`)
  const c = new pg.Client(s.conn)
  await c.connect()
  const got: Buffer[] = []
  const stream = (c as unknown as { connection: { stream: NodeJS.ReadableStream } }).connection.stream
  // a copy: pg-protocol's parser keeps a received chunk as its buffer and may write the next one into it
  const onData = (b: Buffer): void => { got.push(Buffer.from(b)) }
  stream.on('data', onData)
  await c.query({ text: sql, rowMode: 'array' })
  stream.off('data', onData)
  await c.end()
  for (const l of analyse(got)) console.log(l)
}

interface Timed { best: number; client: number; server: number; rows: number }

/** node `pg` against both servers, runs interleaved: best wall time, mean client and server CPU per run. */
async function timePg(label: string, servers: { s: Server; sql: string }[], raw: boolean): Promise<void> {
  const clients = await Promise.all(servers.map(async ({ s }) => {
    const c = new pg.Client(raw ? { ...s.conn, types: { getTypeParser: () => (x: string) => x } } : s.conn)
    await c.connect()
    if (!raw) { c.setTypeParser(1114, pgTimestampMicros); c.setTypeParser(701, (x: string) => Number(x)) }
    return { c, pid: await s.serverPid(c) }
  }))
  const t: Timed[] = servers.map(() => ({ best: Infinity, client: 0, server: 0, rows: 0 }))
  for (let k = 0; k < servers.length; k++) await clients[k]!.c.query({ text: servers[k]!.sql, rowMode: 'array' })
  for (let r = 0; r < RUNS; r++) {
    for (let k = 0; k < servers.length; k++) {
      const { c, pid } = clients[k]!
      const c0 = selfCpuMs(); const s0 = procCpuMs(pid); const t0 = performance.now()
      t[k]!.rows = (await c.query({ text: servers[k]!.sql, rowMode: 'array' })).rowCount ?? 0
      t[k]!.best = Math.min(t[k]!.best, performance.now() - t0)
      t[k]!.client += (selfCpuMs() - c0) / RUNS; t[k]!.server += (procCpuMs(pid) - s0) / RUNS
    }
  }
  for (const { c } of clients) await c.end()
  servers.forEach(({ s }, k) => report(`${label}, ${s.name}`, t[k]!))
}

function report(label: string, t: Timed): void {
  const per = (ms: number): string => `${ms.toFixed(0)} ms (${(ms / t.rows * 1e6).toFixed(0)} ns/row)`
  console.log(`${label}: best ${t.best.toFixed(0)} ms; client CPU ${per(t.client)}${t.server > 0 ? `, server CPU ${per(t.server)}` : ''}, ${t.rows} rows`)
}

/** psycopg 3 / psycopg2 `fetchall` against both servers, interleaved per run. */
async function timePython(mod: string, servers: { s: Server; sql: string }[]): Promise<void> {
  const script = `
import sys, time, json
import ${mod} as m
conn = m.connect(sys.argv[1])
cur = conn.cursor()
c0 = time.process_time(); t0 = time.perf_counter()
cur.execute(sys.argv[2]); rows = len(cur.fetchall())
print(json.dumps({'best': (time.perf_counter() - t0) * 1000, 'cpu': (time.process_time() - c0) * 1000, 'rows': rows}))
`
  const t: Timed[] = servers.map(() => ({ best: Infinity, client: 0, server: 0, rows: 0 }))
  try {
    for (let r = 0; r < RUNS; r++) {
      for (let k = 0; k < servers.length; k++) {
        const { stdout } = await run(PYTHON, ['-c', script, servers[k]!.s.libpq, servers[k]!.sql], { maxBuffer: 1 << 20 })
        const x = JSON.parse(stdout) as { best: number; cpu: number; rows: number }
        t[k]!.best = Math.min(t[k]!.best, x.best); t[k]!.client += x.cpu / RUNS; t[k]!.rows = x.rows
      }
    }
  } catch (e) {
    console.log(`${mod}: skipped (${(e as Error).message.split('\n')[0]})`)
    return
  }
  servers.forEach(({ s }, k) => report(`${mod} fetchall (fresh connection per run), ${s.name}`, t[k]!))
}

const q = tsbsQueries(shape).find((x) => x.name === args.query)
if (q === undefined) throw new Error(`no query ${args.query}`)
console.log(`${q.name} at ${shape.hosts} hosts x ${shape.days} days`)
const pgs = await startPostgres15()
try {
  const t0 = performance.now()
  const [epoch] = await Promise.all([startEpoch(shape), loadPostgres(shape, pgs.port, pgs.user, pgs.database)])
  console.log(`loaded both in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  try {
    const backend = async (c: pg.Client): Promise<number> => (await c.query('select pg_backend_pid() as p')).rows[0].p as number
    const servers = [
      { s: { name: 'EpochDB', conn: { host: '127.0.0.1', port: epoch.port, user: 'admin', password: 'quest', database: 'qdb' },
        serverPid: () => Promise.resolve(epoch.pid), libpq: `host=127.0.0.1 port=${epoch.port} user=admin password=quest dbname=qdb` }, sql: q.epoch },
      { s: { name: 'PostgreSQL', conn: { host: '127.0.0.1', port: pgs.port, user: pgs.user, database: pgs.database },
        serverPid: backend, libpq: `host=127.0.0.1 port=${pgs.port} user=${pgs.user} dbname=${pgs.database}` }, sql: q.pg },
    ]
    for (const { s, sql } of servers) await capture(s, sql)
    console.log('')
    await timePg('pg, bench type parsers', servers, false)
    await timePg('pg, raw strings', servers, true)
    if (!args['no-python']) for (const mod of ['psycopg2', 'psycopg']) await timePython(mod, servers)
  } finally {
    await epoch.stop()
  }
} finally {
  await pgs.stop()
}
