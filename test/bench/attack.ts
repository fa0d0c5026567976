/**
 * Benchmark (not a test): the standalone server under attack. `node --import tsx test/bench/attack.ts`
 *
 * Starts `examples/server.ts` on a fresh data directory and, for each attack of issue #12 in turn,
 * runs the attack from one client (a child process, attack-client.ts, which builds its payload
 * before the probe starts) while a second client (its own pgwire connection, `pg`) runs
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
import { createInterface } from 'node:readline'
import pg from 'pg'
import { ATTACKS } from './attack-client.js'
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

/**
 * The attacker, a child process (attack-client.ts): it builds its payload before the probe
 * starts; `go()` sends it and resolves with what the attacker got.
 */
async function attacker(name: string, s: Server): Promise<{ go(): Promise<string>; kill(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./attack-client.ts', import.meta.url)), name, s.http, String(s.pgPort)], {
    cwd: here, stdio: ['pipe', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout! })
  const next = (): Promise<string> => new Promise((resolve) => {
    const done = (l: string): void => { child.off('exit', gone); resolve(l) }
    const gone = (): void => { lines.off('line', done); resolve('attacker exited') }
    lines.once('line', done)
    child.once('exit', gone)
  })
  const ready = await next()
  if (ready !== 'ready') throw new Error(`attacker ${name}: ${ready}`)
  return {
    go: () => { const out = next(); child.stdin!.write('go\n'); return out },
    kill: () => { child.kill('SIGKILL') },
  }
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

async function measure(attack: { readonly name: string; readonly what: string }): Promise<string> {
  const s = await startServer()
  const sender = await attacker(attack.name, s)
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
  const t0 = performance.now()
  let outcome: string
  const cap = new Promise<string>((r) => setTimeout(() => r(`> cap (${CAP_MS / 1000} s)`), CAP_MS).unref())
  try {
    outcome = await Promise.race([sender.go(), cap])
  } catch (e) {
    outcome = `client error: ${(e as Error).message.slice(0, 80)}`
  }
  const took = performance.now() - t0
  sender.kill()
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
