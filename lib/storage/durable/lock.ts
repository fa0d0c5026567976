/**
 * The data-directory lock: a lease that its live owner keeps fresh and that no second process
 * can take from a live owner, in this PID namespace or another.
 *
 * The lock is a symbolic link `_lock.<generation>` whose target is the owner's identity
 * `pid:start:ns:boot` (pid, process start time from field 22 of `/proc/<pid>/stat`, PID-namespace
 * id from `/proc/self/ns/pid`, boot id from `/proc/sys/kernel/random/boot_id`). A symlink this
 * short needs no data block, so the lock is taken and kept on a full disk. The owner refreshes
 * the link's mtime every second (`lutimes`: no space needed; the timer is unref'd) — the
 * heartbeat — and checks that the lock is still its own.
 *
 * The highest generation is the lock. A starter takes it over by creating generation + 1
 * exclusively (`symlink` fails with EEXIST for every starter but one: the take-over is a
 * compare-and-swap), and only when
 * - it can prove the owner dead: same boot and PID namespace, and the pid is absent, a zombie
 *   (state Z/X: killed but not yet reaped) or a different process (another start time); or
 * - the owner's heartbeat is older than the lease (15 s by default). While it is younger the
 *   starter waits and watches: a heartbeat that moves proves the owner alive (refused at once).
 * A provably live owner is refused at once with 55006 naming it. An owner that finds a higher
 * generation (or its link gone or changed) has lost the lock: its writes fail with 55006 and it
 * never touches the directory again.
 */
import * as fs from 'node:fs'
import { SqlError, SqlState } from '../../errors.js'

/** The lock's name prefix inside the data directory (`_lock.1`, `_lock.2`, ...). */
export const LOCK_FILE = '_lock'
/** Default lease: a heartbeat older than this lets another process take the lock over. */
export const DEFAULT_LOCK_LEASE_MS = 15_000
/** How often the owner refreshes its heartbeat. */
export const HEARTBEAT_MS = 1000

/** Options of {@link DirLock.acquire}. */
export interface LockOptions {
  /** ms after the last heartbeat when an owner that cannot be proven dead is taken over (default 15 s) */
  readonly lease?: number
}

/** Who holds a lock. Unknown parts are '-'. */
export interface LockOwner {
  readonly pid: number
  /** process start time in clock ticks since boot */
  readonly start: string
  /** PID-namespace inode number */
  readonly ns: string
  /** the first 16 hex digits of the boot id */
  readonly boot: string
}

/** Directories locked by this process: a second `Database` here is refused too. */
const held = new Set<string>()
/** The locks this process holds. */
const live = new Set<DirLock>()
let exitHooked = false

function readText(path: string): string | undefined {
  try { return fs.readFileSync(path, 'utf8') } catch { return undefined }
}

/** A process's state letter and start time, or undefined when no such pid exists (or no /proc). */
export function procStat(pid: number | 'self'): { state: string; start: string } | undefined {
  const s = readText(`/proc/${pid}/stat`)
  if (s === undefined) return undefined
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ')
  return { state: f[0] ?? '?', start: f[19] ?? '-' }
}

let selfOwner: LockOwner | undefined

/** This process's identity. */
export function self(): LockOwner {
  if (selfOwner !== undefined) return selfOwner
  let ns = '-'
  try { ns = /\[(\d+)\]/.exec(fs.readlinkSync('/proc/self/ns/pid'))?.[1] ?? '-' } catch { /* not Linux */ }
  const boot = readText('/proc/sys/kernel/random/boot_id')?.replace(/[^0-9a-f]/g, '').slice(0, 16) || '-'
  return (selfOwner = { pid: process.pid, start: procStat('self')?.start ?? '-', ns, boot })
}

/** The lock's link target for `o`. */
export function encodeOwner(o: LockOwner): string {
  return `${o.pid}:${o.start}:${o.ns}:${o.boot}`
}

/** Parses a link target; undefined when it is not one. */
export function decodeOwner(text: string): LockOwner | undefined {
  const m = /^(\d+):([\w-]+):([\w-]+):([\w-]+)$/.exec(text)
  return m === null ? undefined : { pid: Number(m[1]), start: m[2]!, ns: m[3]!, boot: m[4]! }
}

/** 'dead' or 'alive' when provable from here, else 'unknown' (another namespace, boot or machine). */
export function ownerStatus(o: LockOwner): 'dead' | 'alive' | 'unknown' {
  const me = self()
  if (me.ns === '-' && o.ns === '-') {
    // no /proc (not Linux): signal 0 proves absence only
    try { process.kill(o.pid, 0); return 'unknown' } catch (e) { return (e as NodeJS.ErrnoException).code === 'ESRCH' ? 'dead' : 'unknown' }
  }
  if (me.ns === '-' || o.ns !== me.ns || o.boot !== me.boot || me.boot === '-') return 'unknown'
  const st = procStat(o.pid)
  if (st === undefined || st.state === 'Z' || st.state === 'X' || st.start !== o.start) return 'dead'
  return 'alive'
}

/** The generations of `_lock.<n>` in `dir`, highest first. */
function generations(dir: string): number[] {
  const out: number[] = []
  for (const e of fs.readdirSync(dir)) {
    const m = /^_lock\.(\d+)$/.exec(e)
    if (m !== null) out.push(Number(m[1]))
  }
  return out.sort((a, b) => b - a)
}

function describeOwner(o: LockOwner | undefined): string {
  if (o === undefined) return 'an unknown owner'
  const me = self()
  return `pid ${o.pid}${o.ns !== me.ns || o.boot !== me.boot ? ' in another PID namespace or machine' : ''}`
}

function busy(dir: string, o: LockOwner | undefined, why: string): SqlError {
  return new SqlError(SqlState.OBJECT_IN_USE, `database directory is locked by another Database (${describeOwner(o)}) [path=${dir}, pid=${o?.pid ?? '?'}]`, -1,
    { detail: why, hint: 'stop the process holding it first; a lock whose owner died is taken over when it starts' })
}

/** The mtime of the link itself (the heartbeat), or undefined when there is no such link. */
function mtimeOf(path: string): number | undefined {
  try { return fs.lstatSync(path).mtimeMs } catch { return undefined }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** A held data-directory lock. */
export class DirLock {
  private timer: NodeJS.Timeout | undefined
  private lastBeat = Date.now()
  /** set once another process has taken the lock over */
  lost: SqlError | undefined

  private constructor(readonly dir: string, private readonly generation: number, private readonly token: string, private readonly onLost: (e: SqlError) => void) {
    this.timer = setInterval(() => this.beat(), HEARTBEAT_MS)
    this.timer.unref()
    if (live.size === 0 && !exitHooked) {
      // process.exit() (a second SIGINT, a failed start): the process writes nothing more, so its locks go with it
      exitHooked = true
      process.once('exit', () => { for (const l of [...live]) l.release() })
    }
    live.add(this)
  }

  private get path(): string {
    return `${this.dir}/${LOCK_FILE}.${this.generation}`
  }

  /**
   * Takes the lock of directory `dir` (absolute), waiting at most the lease for an owner that
   * cannot be proven dead or alive; throws 55006 when it is held. `onLost` is called if another
   * process takes the lock over later.
   */
  static async acquire(dir: string, options: LockOptions = {}, onLost: (e: SqlError) => void = () => {}): Promise<DirLock> {
    const lease = options.lease ?? DEFAULT_LOCK_LEASE_MS
    if (held.has(dir)) throw busy(dir, self(), 'this process has it open')
    const token = encodeOwner(self())
    for (let attempt = 0; attempt < 20; attempt++) {
      const top = generations(dir)[0]
      if (top !== undefined) {
        const path = `${dir}/${LOCK_FILE}.${top}`
        let text: string
        try { text = fs.readlinkSync(path) } catch { continue } // released or replaced meanwhile
        const owner = decodeOwner(text)
        const status = owner === undefined ? 'unknown' : owner.pid === process.pid && text === token ? (held.has(dir) ? 'alive' : 'dead') : ownerStatus(owner)
        if (status === 'alive') throw busy(dir, owner, 'its owner is running')
        if (status === 'unknown') {
          const first = mtimeOf(path)
          if (first === undefined) continue
          const last = first
          const waitUntil = Date.now() + lease
          // a heartbeat unchanged for a whole lease (by our clock, or by its mtime) is stale
          while (Date.now() - last < lease && Date.now() < waitUntil) {
            await sleep(Math.min(200, lease))
            const now = mtimeOf(path)
            if (now === undefined || generations(dir)[0] !== top) break
            if (now !== last) throw busy(dir, owner, 'its owner keeps its heartbeat fresh')
          }
          if (held.has(dir)) throw busy(dir, self(), 'this process has it open')
          if (mtimeOf(path) === undefined || generations(dir)[0] !== top) continue
        }
      }
      if (held.has(dir)) throw busy(dir, self(), 'this process has it open')
      const next = (top ?? 0) + 1
      try {
        fs.symlinkSync(token, `${dir}/${LOCK_FILE}.${next}`)
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue // another starter won this generation: look again
        throw e
      }
      held.add(dir)
      for (const g of generations(dir)) if (g < next) try { fs.unlinkSync(`${dir}/${LOCK_FILE}.${g}`) } catch { /* best effort */ }
      return new DirLock(dir, next, token, onLost)
    }
    throw busy(dir, undefined, 'the lock kept changing hands')
  }

  /** Refreshes the heartbeat and checks the lock is still ours; on loss, records it and stops. */
  private beat(): void {
    if (this.lost !== undefined || this.timer === undefined) return
    this.lastBeat = Date.now()
    let mine: boolean
    try {
      mine = fs.readlinkSync(this.path) === this.token && mtimeOf(`${this.dir}/${LOCK_FILE}.${this.generation + 1}`) === undefined
    } catch (e) {
      // our link is gone: lost; any other error (EMFILE, EIO) proves nothing, try again next beat
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return
      mine = false
    }
    if (!mine) {
      let owner: LockOwner | undefined
      try { owner = decodeOwner(fs.readlinkSync(`${this.dir}/${LOCK_FILE}.${generations(this.dir)[0]}`)) } catch { /* gone */ }
      this.lost = new SqlError(SqlState.OBJECT_IN_USE, `this server lost the lock of its data directory to another process (${describeOwner(owner)}); it no longer writes [path=${this.dir}]`, -1,
        { hint: 'restart this server once the other one has stopped' })
      this.stop()
      this.onLost(this.lost)
      return
    }
    const t = new Date()
    try { fs.lutimesSync(this.path, t, t) } catch { /* a missed heartbeat is retried in a second */ }
  }

  /**
   * Throws 55006 when the lock was lost. Called before every write: after the event loop was
   * blocked for longer than a heartbeat, it re-checks (and refreshes) the lock first.
   */
  check(): void {
    if (this.lost === undefined && Date.now() - this.lastBeat > 2 * HEARTBEAT_MS) this.beat()
    if (this.lost !== undefined) throw this.lost
  }

  private stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer)
    this.timer = undefined
    held.delete(this.dir)
    live.delete(this)
  }

  /** Releases the lock (a lost lock is left to its new owner). */
  release(): void {
    if (this.timer === undefined) return
    this.stop()
    if (this.lost !== undefined) return
    try { if (fs.readlinkSync(this.path) === this.token) fs.unlinkSync(this.path) } catch { /* already gone */ }
  }
}
