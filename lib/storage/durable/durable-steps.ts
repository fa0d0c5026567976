/**
 * Durable file writes as {@link Steps}: the write is done at once, the fsync is yielded
 * ({@link SyncWait}), so that run in the background (see steps.ts) the sync waits on the thread
 * pool while the event loop serves queries, and run at once ({@link runSteps}) it is a blocking
 * sync: {@link replaceFileAtomic} and {@link fsyncDir} are the steps run at once. Either way the
 * steps continue only once the file is durable.
 */
import { io, writeAll } from './io.js'
import { type Steps, runSteps } from './steps.js'

/** {@link writeFileDurable} in steps: create/truncate, write, then the sync yielded. Returns the bytes written. */
export function* writeFileDurableSteps(path: string, parts: readonly Uint8Array[]): Steps<number> {
  const fd = io.openSync(path, 'w')
  let pos = 0
  try {
    for (const p of parts) { writeAll(fd, p, pos); pos += p.length }
    yield { fsync: fd }
  } finally {
    io.closeSync(fd)
  }
  return pos
}

/** {@link fsyncDir} in steps: the directory's sync yielded (a file system that cannot sync a directory is skipped). */
export function* fsyncDirSteps(path: string): Steps<void> {
  let fd: number
  try { fd = io.openSync(path, 'r') } catch { return }
  try {
    yield { fsync: fd }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'EISDIR' && code !== 'EINVAL') throw e
  } finally {
    io.closeSync(fd)
  }
}

/** {@link replaceFileAtomic} in steps: a temporary file written and synced, renamed over `name`, the directory synced. */
export function* replaceFileAtomicSteps(dir: string, name: string, bytes: Uint8Array): Steps<void> {
  const tmp = `${dir}/${name}.tmp`
  yield* writeFileDurableSteps(tmp, [bytes])
  io.renameSync(tmp, `${dir}/${name}`)
  yield* fsyncDirSteps(dir)
}

/** Fsyncs a directory so a rename or a new entry in it survives a crash (blocking). */
export function fsyncDir(path: string): void {
  runSteps(fsyncDirSteps(path))
}

/** Writes `bytes` to `path` atomically: a temporary file, fsync, rename, fsync of the directory (blocking). */
export function replaceFileAtomic(dir: string, name: string, bytes: Uint8Array): void {
  runSteps(replaceFileAtomicSteps(dir, name, bytes))
}
