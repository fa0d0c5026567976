/**
 * Crash test through the standalone server: start `examples/server.ts` on a data directory,
 * insert batches over REST, kill it with SIGKILL at a random moment, restart it, and check that
 * every acknowledged batch is there, whole, and that no batch is there in part.
 */
import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { nodeScript } from '../node-script.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const ROUNDS = 5
const BATCH = 50

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

async function start(dir: string): Promise<{ proc: ChildProcess; url: string }> {
  const http = await freePort()
  const pg = await freePort()
  const proc = spawn(process.execPath, nodeScript('examples/server.ts', root), {
    cwd: root,
    env: { ...process.env, QDB_CAIRO_ROOT: dir, QDB_HTTP_BIND_TO: `127.0.0.1:${http}`, QDB_PG_NET_BIND_TO: `127.0.0.1:${pg}` },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${http}`
  // generous: a start-up (recovery included) under CI's load takes seconds; a 10 s limit failed there
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline && proc.exitCode === null && proc.signalCode === null) {
    try { if ((await fetch(`${url}/ping`)).status === 204) return { proc, url } } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 50))
  }
  proc.kill('SIGKILL')
  throw new Error(proc.exitCode !== null ? `server exited with ${proc.exitCode} during start-up` : 'server did not start within 120 s')
}

async function exec(url: string, query: string): Promise<{ status: number; body: { dataset?: unknown[][]; error?: string } }> {
  const res = await fetch(`${url}/exec?query=${encodeURIComponent(query)}`)
  return { status: res.status, body: (await res.json()) as { dataset?: unknown[][]; error?: string } }
}

t.test('kill -9 the standalone server while it ingests, restart, count', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-server-crash-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  let acked = 0
  let next = 0
  let maybe = 0 // batches sent whose answer never came (in flight at the kill)
  for (let round = 0; round < ROUNDS; round++) {
    const { proc, url } = await start(dir)
    const exited = new Promise((r) => proc.once('exit', r))
    if (round === 0) t.equal((await exec(url, 'create table t (ts timestamp, batch long, k long) timestamp(ts) partition by hour')).status, 200)
    else {
      const r = await exec(url, 'select count(), count_distinct(batch), sum(k) from t')
      const [count, batches, sum] = r.body.dataset![0] as number[]
      t.ok(count! % BATCH === 0, `round ${round}: only whole batches (${count} rows)`)
      t.ok(count! >= acked * BATCH && count! <= (acked + maybe) * BATCH, `round ${round}: acknowledged rows are there (${count} rows, ${acked} acked)`)
      t.equal(batches! * BATCH, count!, 'each batch complete')
      // sum() over no rows is NULL (a kill before the first batch was acknowledged)
      t.equal(count === 0 ? 0 : sum, (count! * (BATCH - 1)) / 2, 'values intact')
      acked = count! / BATCH
      next = acked
      maybe = 0
    }
    const killAt = Date.now() + 300 + Math.floor(Math.random() * 700)
    const writer = (async () => {
      while (Date.now() < killAt + 1000) {
        const b = next++
        const values = Array.from({ length: BATCH }, (_, k) => `('2024-01-01T00:00:00Z'::timestamp + ${b * BATCH + k}L * 60000000, ${b}, ${k})`)
        maybe++
        try {
          const r = await exec(url, `insert into t values ${values.join(',')}`)
          if (r.status !== 200) break
          maybe--
          acked = Math.max(acked, b + 1)
        } catch { break }
      }
    })()
    await new Promise((r) => setTimeout(r, killAt - Date.now()))
    proc.kill('SIGKILL')
    await exited
    await writer
  }
  t.ok(acked > 0, `${acked} batches acknowledged in all`)
})
