/**
 * The data-directory lock: an exclusive-create file `_lock` holding the owner's pid. A second
 * `Database` on the same directory (in this process or another live one) fails with 55006; a lock
 * left by a process that no longer runs (a crash) is taken over.
 */
import * as fs from 'node:fs'
import { SqlError, SqlState } from '../../errors.js'

/** The lock file's name inside the data directory. */
export const LOCK_FILE = '_lock'

const held = new Set<string>()

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try { process.kill(pid, 0); return true } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM' }
}

/** Takes the lock of directory `dir` or throws 55006. */
export function acquireLock(dir: string): void {
  const path = `${dir}/${LOCK_FILE}`
  const busy = (pid: number) => new SqlError(SqlState.OBJECT_IN_USE, `database directory is locked by another Database [path=${dir}, pid=${pid}]`, -1,
    { hint: 'close the other Database (or stop the process holding it) first' })
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(path, 'wx')
      fs.writeSync(fd, String(process.pid))
      fs.fsyncSync(fd)
      fs.closeSync(fd)
      held.add(path)
      return
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
    }
    let pid = NaN
    try { pid = Number(fs.readFileSync(path, 'utf8').trim()) } catch { continue }
    if (held.has(path) || (pid !== process.pid && alive(pid))) throw busy(pid)
    if (pid === process.pid && held.has(path)) throw busy(pid)
    try { fs.unlinkSync(path) } catch { /* someone else took it over: retry */ }
  }
  throw busy(NaN)
}

/** Releases the lock of `dir` (only if this process holds it). */
export function releaseLock(dir: string): void {
  const path = `${dir}/${LOCK_FILE}`
  if (!held.delete(path)) return
  try { fs.unlinkSync(path) } catch { /* already gone */ }
}
