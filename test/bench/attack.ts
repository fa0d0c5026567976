/**
 * Benchmark (not a test): the standalone server under attack. `node --import tsx test/bench/attack.ts`
 *
 * Starts `examples/server.ts` on a fresh data directory and, for each attack of issue #12 in turn,
 * runs the attack from one client while a second client (its own pgwire connection, `pg`) runs
 * `select 1` back to back. For each attack it prints what the attacker got (rows, or the
 * SQLSTATE / HTTP status of the refusal), how long that took, the probe's p50 / p99 / max
 * latency while the attack ran, and the server's peak RSS (VmRSS from /proc, sampled every
 * 50 ms). A fresh server is started per attack so one attack's leftovers cannot colour the next.
 *
 * Environment:
 * - `EPOCHDB_ATTACK_CWD`: the checkout whose `examples/server.ts` to run (default: this one), so
 *   an older commit can be measured the same way for a before/after table;
 * - `EPOCHDB_ATTACK_ENV`: extra server keys, `QDB_KEY=value,QDB_OTHER=value`;
 * - `EPOCHDB_ATTACK_CAP_S`: the longest the bench waits for one attack (default 60 s); an attack
 *   still running then is reported as `> cap` and its server is killed;
 * - `EPOCHDB_ATTACK_ONLY`: a comma-separated list of attack names to run.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { freePort } from '../faults/server-process.js'

const here = fileURLToPath(new URL('../../', import.meta.url))
const CWD = process.env['EPOCHDB_ATTACK_CWD'] ?? here
const CAP_MS = Number(process.env['EPOCHDB_ATTACK_CAP_S'] ?? 60) * 1000
const EXTRA_ENV = Object.fromEntries((process.env['EPOCHDB_ATTACK_ENV'] ?? '').split(',').filter((s) => s.includes('=')).map((s) => {
  const i = s.indexOf('=')
  return [s.slice(0, i), s.slice(i + 1)]
}))
const ONLY = process.env['EPOCHDB_ATTACK_ONLY']?.split(',')

interface Server { readonly proc: ChildProcess; readonly http: string; readonly pgPort: number; readonly dir: string; exited: boolean }


async function startServer(): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-attack-'))
  const httpPort = await freePort()
  const pgPort = await freePort()
  const proc = spawn(process.execPath, ['--import', 'tsx', 'examples/server.ts'], {
    cwd: CWD,
    env: { ...process.env, QDB_CAIRO_ROOT: dir, QDB_HTTP_BIND_TO: `127.0.0.1:${httpPort}`, QDB_PG_NET_BIND_TO: `127.0.0.1:${pgPort}`, ...EXTRA_ENV },
    stdio: ['ignore', 'ignore', 'ignore'],
  })
  const server: Server = { proc, http: `http://127.0.0.1:${httpPort}`, pgPort, dir, exited: false }
  proc.once('exit', () => { server.exited = true })
  for (let i = 0; i < 400; i++) {
    try { if ((await fetch(`${server.http}/ping`)).status === 204) return server } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 50))
  }
  proc.kill('SIGKILL')
  throw new Error('server did not start')
}

async function stopServer(s: Server): Promise<void> {
  if (!s.exited) {
    const gone = new Promise((r) => s.proc.once('exit', r))
    s.proc.kill('SIGKILL')
    await gone
  }
  rmSync(s.dir, { recursive: true, force: true })
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m === null ? 0 : Number(m[1]) / 1024
  } catch { return 0 }
}

function client(s: Server): pg.Client {
  const c = new pg.Client({ host: '127.0.0.1', port: s.pgPort, user: 'admin', password: 'quest', database: 'qdb' })
  c.on('error', () => {}) // a server that dies under attack is reported, not thrown
  return c
}

async function rest(s: Server, query: string, signal: AbortSignal): Promise<string> {
  // commas stay unencoded (they are legal in a query string), as a browser or curl -G sends them
  const res = await fetch(`${s.http}/exec?query=${encodeURIComponent(query).replace(/%2C/g, ',')}`, { signal })
  const body = await res.text()
  if (res.status === 200) {
    const m = /"count":(\d+)/.exec(body)
    return `HTTP 200, ${m?.[1] ?? '?'} rows`
  }
  return `HTTP ${res.status}: ${body.slice(0, 90)}`
}

async function viaPg(s: Server, sql: string): Promise<string> {
  const c = client(s)
  await c.connect()
  try {
    const r = await c.query(sql)
    return `ok, ${r.rowCount ?? r.rows.length} rows`
  } catch (e) {
    const err = e as { code?: string; message: string }
    return `${err.code ?? 'error'}: ${err.message.slice(0, 90)}`
  } finally {
    await c.end().catch(() => {})
  }
}

interface Attack { readonly name: string; readonly what: string; run(s: Server, signal: AbortSignal): Promise<string> }

const repeat = (n: number, f: (i: number) => string, sep: string): string => Array.from({ length: n }, (_, i) => f(i)).join(sep)

const ATTACKS: Attack[] = [
  { name: 'in-list', what: 'IN list of 30,000 items (one 60 KB REST GET)', run: (s, sig) => rest(s, `select count() from long_sequence(10) where x in (${repeat(30_000, () => '1', ',')})`, sig) },
  {
    name: 'insert-values', what: '30,000-row INSERT ... VALUES (pgwire)', run: async (s) => {
      await viaPg(s, 'create table bulk (ts timestamp, v long) timestamp(ts) partition by day')
      return viaPg(s, `insert into bulk values ${repeat(30_000, (i) => `(${i}::timestamp, ${i})`, ',')}`)
    },
  },
  { name: 'plus-chain', what: '5 MB of 1+1+... (pgwire)', run: (s) => viaPg(s, `select ${repeat(2_500_000, () => '1', '+')}`) },
  { name: 'plus-6k', what: '6 KB of 1+1+... (pgwire)', run: (s) => viaPg(s, `select ${repeat(3_000, () => '1', '+')}`) },
  { name: 'cross-join', what: '20k x 20k cross join (REST)', run: (s, sig) => rest(s, 'select count() from long_sequence(20000) a cross join long_sequence(20000) b', sig) },
  {
    name: 'key-join', what: '30k x 30k single-key join (pgwire)', run: async (s) => {
      await viaPg(s, 'create table j as (select 1 k, x from long_sequence(30000))')
      return viaPg(s, 'select count() from j a join j b on (k)')
    },
  },
  { name: 'regex', what: "('a' * 32 || '!') ~ '(a+)+$' (REST)", run: (s, sig) => rest(s, "select count() from long_sequence(1) where (rpad('', 32, 'a') || '!') ~ '(a+)+$'", sig) },
  { name: 'order-by', what: 'order by over long_sequence(400M) (REST)', run: (s, sig) => rest(s, 'select x from long_sequence(400000000) order by x desc limit 1', sig) },
  {
    name: 'window', what: 'two window calls over 2M rows (REST)', run: (s, sig) => rest(s, 'select count(), max(a), max(b) from (select sum(x) over (order by x rows between 10 preceding and current row) a, ' +
      'first_value(x) over (order by x rows between 10 preceding and current row) b from long_sequence(2000000))', sig),
  },
  {
    name: 'in-list-150k', what: 'IN list of 150,000 items (pgwire)', run: (s) => viaPg(s, `select count() from long_sequence(10) where x in (${repeat(150_000, (i) => String(i), ',')})`),
  },
]

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

async function measure(attack: Attack): Promise<string> {
  const s = await startServer()
  const probe = client(s)
  await probe.connect()
  const latencies: number[] = []
  let peakRss = rssMb(s.proc.pid!)
  let attacking = true
  const sampler = setInterval(() => { peakRss = Math.max(peakRss, rssMb(s.proc.pid!)) }, 50)
  let inFlightSince = -1 // a probe still waiting when the attack ends counts with its wait so far
  const probing = (async () => {
    while (attacking && !s.exited) {
      inFlightSince = performance.now()
      try { await probe.query('select 1') } catch { break }
      latencies.push(performance.now() - inFlightSince)
      inFlightSince = -1
      await new Promise((r) => setTimeout(r, 5))
    }
  })()
  const ac = new AbortController()
  const t0 = performance.now()
  let outcome: string
  const cap = new Promise<string>((r) => setTimeout(() => r(`> cap (${CAP_MS / 1000} s)`), CAP_MS).unref())
  try {
    outcome = await Promise.race([attack.run(s, ac.signal), cap])
  } catch (e) {
    outcome = `client error: ${(e as Error).message.slice(0, 80)}`
  }
  const took = performance.now() - t0
  ac.abort()
  attacking = false
  if (inFlightSince >= 0) latencies.push(performance.now() - inFlightSince)
  clearInterval(sampler)
  await Promise.race([probing, new Promise((r) => setTimeout(r, 2000))])
  if (s.exited) outcome += ' — SERVER DIED'
  await probe.end().catch(() => {})
  await stopServer(s)
  latencies.sort((a, b) => a - b)
  const f = (x: number): string => (Number.isNaN(x) ? '—' : x.toFixed(1))
  return `| ${attack.what} | ${outcome.replace(/\|/g, '/')} | ${(took / 1000).toFixed(2)} | ${latencies.length} | ${f(quantile(latencies, 0.5))} | ${f(quantile(latencies, 0.99))} | ${f(latencies.at(-1) ?? NaN)} | ${peakRss.toFixed(0)} |`
}

console.log(`server: ${CWD}examples/server.ts; extra keys: ${JSON.stringify(EXTRA_ENV)}`)
console.log('| attack | attacker got | s | probes | p50 ms | p99 ms | max ms | peak RSS MB |')
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |')
for (const a of ATTACKS) {
  if (ONLY !== undefined && !ONLY.includes(a.name)) continue
  console.log(await measure(a))
}
