/**
 * The standalone server with a small memory budget (QDB_* keys): the ORDER BY attack answers
 * 53200 over REST with HTTP 503, the server keeps serving, and its RSS stays bounded.
 */
import t from 'tap'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from './server-process.js'

/** Resident set size of a process, in bytes (Linux). */
function rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m === null ? 0 : Number(m[1]) * 1024
}

t.test('ORDER BY over long_sequence(50M) with a 64 MiB budget: 53200, 503, still serving, RSS bounded', { timeout: 120_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-memory-server-'))
  const { proc, url } = await startServer(dir, { QDB_CAIRO_QUERY_MEMORY_LIMIT_BYTES: '64M', QDB_RAM_USAGE_LIMIT_BYTES: '128M' })
  t.teardown(() => { proc.kill('SIGKILL'); rmSync(dir, { recursive: true, force: true }) })
  let peak = rss(proc.pid!)
  const sampler = setInterval(() => { try { peak = Math.max(peak, rss(proc.pid!)) } catch { /* exited */ } }, 20)
  t.teardown(() => clearInterval(sampler))
  const res = await fetch(`${url}/exec?query=${encodeURIComponent('select x from long_sequence(50000000) order by x desc')}`)
  const body = (await res.json()) as { error?: string }
  t.equal(res.status, 503, 'a server-side resource limit: 503')
  t.match(body.error, /query memory limit exceeded: ORDER BY .*64\.0 MiB.*cairo\.query\.memory\.limit\.bytes/)
  const ok = await fetch(`${url}/exec?query=${encodeURIComponent('select sum(x) from long_sequence(100)')}`)
  t.equal(ok.status, 200, 'the server keeps serving')
  t.same(((await ok.json()) as { dataset: unknown[][] }).dataset, [[5050]])
  t.equal(proc.exitCode, null, 'the process is up')
  clearInterval(sampler)
  t.ok(peak < 600 * 1024 * 1024, `peak RSS ${Math.round(peak / 1024 / 1024)} MiB stays bounded (unbounded: > 2 GiB)`)
})
