/**
 * The data-directory lock under the cases that broke the pid-file lock: a zombie owner, a pid
 * now used by another process, a second live process, an owner in another PID namespace (fresh
 * and stale heartbeat), two starters racing for a stale lock, and an owner that lost the lock.
 */
import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { lutimesSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Database } from '../../lib/index.js'
import { encodeOwner, procStat, self } from '../../lib/storage/durable/lock.js'
import { tmpDir } from '../unit/storage/helpers.js'
import { nodeScript } from '../node-script.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const HOLDER = 'test/faults/lock-holder.ts'
const linux = procStat('self') !== undefined

/** The lock links in `dir`. */
const locks = (dir: string): string[] => readdirSync(dir).filter((e) => e.startsWith('_lock')).sort()

/** Resolves with the first line `proc` prints. */
function firstLine(proc: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = ''
    proc.stdout!.on('data', (d: Buffer) => {
      buf += d.toString()
      const nl = buf.indexOf('\n')
      if (nl >= 0) resolve(buf.slice(0, nl))
    })
    proc.once('exit', (code) => reject(new Error(`exited ${code} before printing: ${buf}`)))
  })
}

function holder(dir: string, t: { teardown(f: () => void): void }, lease?: number): ChildProcess {
  const p = spawn(process.execPath, [...nodeScript(HOLDER, root), dir, ...(lease === undefined ? [] : [String(lease)])], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  t.teardown(() => { p.kill('SIGKILL') })
  return p
}

const timed = async <T>(f: () => Promise<T>): Promise<{ value: T; ms: number }> => {
  const t0 = Date.now()
  const value = await f()
  return { value, ms: Date.now() - t0 }
}

t.test('a zombie owner (killed, not reaped) is taken over at once', { skip: !linux && 'needs /proc', timeout: 60_000 }, async (t) => {
  const dir = tmpDir(t, 'epochdb-lock-')
  // `exec sleep` makes sleep the holder's parent: it never reaps, so the killed holder stays a zombie
  const parent = spawn('sh', ['-c', `"${process.execPath}" ${nodeScript(HOLDER, root).join(' ')} "${dir}" & exec sleep 60`], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  t.teardown(() => { parent.kill('SIGKILL') })
  const line = await firstLine(parent)
  const pid = Number(/^ready (\d+)$/.exec(line)?.[1])
  t.ok(pid > 0, `holder running (${line})`)
  process.kill(pid, 'SIGKILL')
  for (let i = 0; i < 100 && procStat(pid)?.state !== 'Z'; i++) await new Promise((r) => setTimeout(r, 20))
  t.equal(procStat(pid)?.state, 'Z', 'the killed holder is an unreaped zombie')
  const { value: db, ms } = await timed(() => Database.open({ path: dir }))
  t.ok(ms < 5000, `opened at once, without waiting for the lease (${ms} ms)`)
  await db.query('create table z (x long)')
  await db.close()
  t.same(locks(dir), [], 'closing releases the lock')
})

t.test('a lock naming a pid now used by another process (pid 1, another start time) is taken over; the real pid 1 is not', { skip: !linux && 'needs /proc' }, async (t) => {
  const dir = tmpDir(t, 'epochdb-lock-')
  const one = procStat(1)!
  symlinkSync(encodeOwner({ ...self(), pid: 1, start: String(Number(one.start) + 4242) }), join(dir, '_lock.3'))
  const { value: db, ms } = await timed(() => Database.open({ path: dir }))
  t.ok(ms < 5000, `taken over at once (${ms} ms)`)
  t.same(locks(dir), ['_lock.4'], 'the next generation is ours, the stale one removed')
  await db.close()
  symlinkSync(encodeOwner({ ...self(), pid: 1, start: one.start }), join(dir, '_lock.7'))
  await t.rejects(Database.open({ path: dir }), { code: '55006', message: /pid 1\b/ }, 'pid 1 with its own start time is a live owner')
})

t.test('a second live process on the directory is refused with 55006 naming the owner', { timeout: 60_000 }, async (t) => {
  const dir = tmpDir(t, 'epochdb-lock-')
  const h = holder(dir, t)
  const pid = Number(/^ready (\d+)$/.exec(await firstLine(h))?.[1])
  const { value: err, ms } = await timed(() => Database.open({ path: dir }).then(() => undefined, (e: unknown) => e))
  t.match(err, { code: '55006', message: new RegExp(`locked by another Database \\(pid ${pid}\\)`) })
  t.ok(ms < 5000, `refused at once (${ms} ms)`)
  const second = holder(dir, t)
  t.match(await firstLine(second), /^error 55006 .*locked by another Database/, 'another process is refused too')
})

t.test('an owner in another PID namespace: a fresh heartbeat is refused, a stale one taken over', { skip: !linux && 'needs /proc', timeout: 60_000 }, async (t) => {
  const dir = tmpDir(t, 'epochdb-lock-')
  const foreign = { ...self(), pid: process.pid, ns: '1' }
  const link = join(dir, '_lock.1')
  symlinkSync(encodeOwner(foreign), link)
  // a live owner there keeps its heartbeat fresh: every 200 ms here
  const beat = setInterval(() => { const now = new Date(); lutimesSync(link, now, now) }, 200)
  const { value: err, ms } = await timed(() => Database.open({ path: dir, lockLease: 3000 }).then(() => undefined, (e: unknown) => e))
  clearInterval(beat)
  t.match(err, { code: '55006', message: /another PID namespace/ }, 'refused: the owner is alive')
  t.ok(ms < 3000, `refused as soon as the heartbeat moved (${ms} ms)`)
  t.same(locks(dir), ['_lock.1'], 'the owner keeps its lock')
  // the owner stopped: its heartbeat is older than the lease
  const old = new Date(Date.now() - 60_000)
  lutimesSync(link, old, old)
  const db = await Database.open({ path: dir, lockLease: 3000 })
  t.same(locks(dir), ['_lock.2'])
  await db.close()
  // an owner that stops beating while a starter waits is taken over once the lease runs out
  symlinkSync(encodeOwner(foreign), join(dir, '_lock.5'))
  const late = await timed(() => Database.open({ path: dir, lockLease: 1000 }))
  t.ok(late.ms >= 900, `waited for the lease (${late.ms} ms)`)
  await late.value.close()
})

t.test('two processes racing for a stale lock: exactly one wins', { skip: !linux && 'needs /proc', timeout: 60_000 }, async (t) => {
  const dir = tmpDir(t, 'epochdb-lock-')
  for (let round = 0; round < 3; round++) {
    const gen = Number(locks(dir).at(-1)?.slice(6) ?? 0) + 1
    symlinkSync(encodeOwner({ ...self(), pid: 4_000_000 - round }), join(dir, `_lock.${gen}`)) // no such pid
    const a = holder(dir, t)
    const b = holder(dir, t)
    const lines = await Promise.all([firstLine(a), firstLine(b)])
    t.equal(lines.filter((l) => l.startsWith('ready')).length, 1, `round ${round}: one winner (${lines.join(' | ')})`)
    t.equal(lines.filter((l) => l.startsWith('error 55006')).length, 1, 'the other is refused')
    a.kill('SIGKILL')
    b.kill('SIGKILL')
    await Promise.all([a, b].map((p) => p.exitCode !== null || p.signalCode !== null ? undefined : new Promise((r) => p.once('exit', r))))
  }
})

t.test('an owner whose lock was taken over stops writing (55006), also after a blocked event loop', { skip: !linux && 'needs /proc' }, async (t) => {
  const dir = tmpDir(t, 'epochdb-lock-')
  const db = await Database.open({ path: dir })
  await db.query('create table w (x long)')
  await db.query('insert into w values (1)')
  const mine = locks(dir)
  t.equal(mine.length, 1)
  // another process takes the next generation while this one's event loop is blocked
  const gen = Number(mine[0]!.slice(6)) + 1
  symlinkSync(encodeOwner({ ...self(), ns: '1' }), join(dir, `_lock.${gen}`))
  const until = Date.now() + 2500
  while (Date.now() < until) { /* blocked: no heartbeat runs */ }
  await t.rejects(db.query('insert into w values (2)'), { code: '55006', message: /lost the lock/ })
  t.same((await db.query('select x from w')).rows, [[1n]], 'reads still work')
  await db.close()
  t.same(locks(dir), [`_lock.${gen - 1}`, `_lock.${gen}`], 'the new owner keeps its lock (the lost one is left for it to remove)')
  t.equal(readlinkSync(join(dir, `_lock.${gen}`)).split(':')[2], '1')
})
