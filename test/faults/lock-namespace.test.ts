/**
 * The lock across real PID namespaces (`unshare --pid --fork --mount-proc`, as two containers
 * sharing a volume): a starter in another namespace never takes the lock from a live owner, in
 * either direction; once the owner is dead, its lock is taken over after the lease. Skipped
 * where unshare is not permitted.
 */
import t from 'tap'
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { Database } from '../../lib/index.js'
import { tmpDir } from '../unit/storage/helpers.js'
import { nodeScript } from '../node-script.js'

const root = fileURLToPath(new URL('../../', import.meta.url))

function canUnshare(): boolean {
  try { execFileSync('unshare', ['--pid', '--fork', '--mount-proc', 'true'], { stdio: 'ignore', timeout: 10_000 }); return true } catch { return false }
}

/** The lock holder of lock-takeover.test.ts, in a new PID namespace (where it is pid 1). */
function holderInNamespace(dir: string, t: { teardown(f: () => void): void }): { proc: ChildProcess; line: Promise<string> } {
  const proc = spawn('unshare', ['--pid', '--fork', '--mount-proc', '--kill-child', process.execPath, ...nodeScript('test/faults/lock-holder.ts', root), dir], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  t.teardown(() => { proc.kill('SIGKILL') })
  const line = new Promise<string>((resolve, reject) => {
    let buf = ''
    proc.stdout!.on('data', (d: Buffer) => { buf += d.toString(); if (buf.includes('\n')) resolve(buf.slice(0, buf.indexOf('\n'))) })
    proc.once('exit', (code) => reject(new Error(`exited ${code}: ${buf}`)))
  })
  return { proc, line }
}

t.test('a live owner is never taken over from another PID namespace', { skip: !canUnshare() && 'unshare --pid is not permitted here', timeout: 60_000 }, async (t) => {
  const dir = tmpDir(t, 'epochdb-ns-')
  // the owner in another namespace, the starter here
  const h = holderInNamespace(dir, t)
  t.equal(await h.line, 'ready 1', 'the owner runs as pid 1 of its own namespace')
  const t0 = Date.now()
  await t.rejects(Database.open({ path: dir, lockLease: 5000 }), { code: '55006', message: /pid 1 in another PID namespace/ })
  t.ok(Date.now() - t0 < 5000, `refused once its heartbeat moved (${Date.now() - t0} ms)`)
  h.proc.kill('SIGKILL')
  await new Promise((r) => h.proc.once('exit', r))
  const t1 = Date.now()
  const db = await Database.open({ path: dir, lockLease: 1500 })
  t.ok(Date.now() - t1 >= 1000, `the dead owner's lock is taken over after the lease (${Date.now() - t1} ms)`)
  // the owner here, the starter in another namespace
  const other = holderInNamespace(dir, t)
  t.match(await other.line, /^error 55006 .*locked by another Database \(pid \d+ in another PID namespace/, 'a starter in another namespace is refused')
  await db.query('create table still_mine (x long)')
  await db.close()
})
