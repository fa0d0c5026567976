/**
 * The file-system calls durable storage makes, behind one object so tests can inject faults
 * (ENOSPC, EIO, a failing fsync) by replacing a method. Calls are synchronous except
 * {@link io.fsync}, the WAL's group-commit sync, which runs while other statements proceed.
 */
import * as fs from 'node:fs'

/** The storage I/O surface. Replace a method in a test to simulate a fault; restore it after. */
export const io = {
  openSync: (path: string, flags: string): number => fs.openSync(path, flags),
  closeSync: (fd: number): void => fs.closeSync(fd),
  /** close on the thread pool (closing the last descriptor of an unlinked file frees its blocks, which can take long); errors are ignored */
  closeLater: (fd: number): Promise<void> => new Promise((resolve) => { fs.close(fd, () => resolve()) }),
  writeSync: (fd: number, data: Uint8Array, position: number): number => fs.writeSync(fd, data, 0, data.length, position),
  /** one gathering write (writev) of `data` at `position`; returns the bytes written */
  writevSync: (fd: number, data: readonly Uint8Array[], position: number): number => fs.writevSync(fd, data as NodeJS.ArrayBufferView[], position),
  fsyncSync: (fd: number): void => fs.fsyncSync(fd),
  /** fdatasync on the thread pool: the event loop keeps serving while the disk syncs */
  fsync: (fd: number): Promise<void> => new Promise((resolve, reject) => { fs.fdatasync(fd, (e) => { if (e === null) resolve(); else reject(e) }) }),
  ftruncateSync: (fd: number, len: number): void => fs.ftruncateSync(fd, len),
  readFileSync: (path: string): Buffer => fs.readFileSync(path),
  /** reads up to `buf.length` bytes at `position`; returns the bytes read */
  readSync: (fd: number, buf: Uint8Array, position: number): number => fs.readSync(fd, buf, 0, buf.length, position),
  renameSync: (from: string, to: string): void => fs.renameSync(from, to),
  mkdirSync: (path: string): void => { fs.mkdirSync(path, { recursive: true }) },
  rmSync: (path: string): void => fs.rmSync(path, { recursive: true, force: true }),
  /** rmSync on the thread pool (unlinking large files frees their blocks, which can take long); errors are ignored */
  rmLater: (path: string): Promise<void> => fs.promises.rm(path, { recursive: true, force: true }).catch(() => undefined),
  readdirSync: (path: string): string[] => fs.readdirSync(path),
  existsSync: (path: string): boolean => fs.existsSync(path),
  statSize: (path: string): number => fs.statSync(path).size,
}

/** The {@link io} methods a fault can be injected into. */
export type IoOp = Exclude<keyof typeof io, 'readFileSync' | 'readSync' | 'readdirSync' | 'existsSync' | 'statSize' | 'closeSync' | 'closeLater' | 'rmSync' | 'rmLater'>

/**
 * Test hook: makes the given {@link io} operations fail with `code` (ENOSPC, EIO, ...) when
 * `when` (given the call's first argument, a path or a descriptor) says so; returns the function
 * that restores them. Reads, listing, closing and removing files never fail this way (they need
 * no space).
 *
 * @example
 * ```ts
 * const restore = injectFault(['writeSync', 'openSync', 'mkdirSync', 'fsync'], 'ENOSPC')
 * try { ... } finally { restore() }
 * ```
 */
export function injectFault(ops: readonly IoOp[], code: string, when: (arg: unknown) => boolean = () => true): () => void {
  // a gathering write is a write: a fault in writes hits both
  const all = ops.includes('writeSync') && !ops.includes('writevSync') ? [...ops, 'writevSync' as const] : ops
  const saved = all.map((op) => [op, io[op]] as const)
  for (const [op, real] of saved) {
    const fail = (arg: unknown): Error => Object.assign(new Error(`${code}: injected fault, ${op} ${String(arg)}`), { code, syscall: op })
    if (op === 'fsync') io.fsync = (fd) => (when(fd) ? Promise.reject(fail(fd)) : (real as typeof io.fsync)(fd))
    else (io as Record<string, unknown>)[op] = (...args: unknown[]) => { if (when(args[0])) throw fail(args[0]); return (real as (...a: unknown[]) => unknown)(...args) }
  }
  return () => { for (const [op, real] of saved) (io as Record<string, unknown>)[op] = real }
}

/** Writes all of `data` at `position` of `fd` (a short write is retried until done). */
export function writeAll(fd: number, data: Uint8Array, position: number): void {
  let off = 0
  while (off < data.length) {
    const n = io.writeSync(fd, off === 0 ? data : data.subarray(off), position + off)
    if (n <= 0) throw Object.assign(new Error('short write'), { code: 'EIO' })
    off += n
  }
}

/** Most buffers one writev takes (IOV_MAX is 1024 on Linux). */
const IOV_MAX = 1024

/** Writes all of `pieces`, back to back, at `position` of `fd`, in gathering writes without joining them (a short write is retried until done). */
export function writevAll(fd: number, pieces: readonly Uint8Array[], position: number): void {
  let i = 0
  let at = position
  let head: Uint8Array | undefined
  while (i < pieces.length) {
    const batch: Uint8Array[] = []
    let want = 0
    for (let j = i; j < pieces.length && batch.length < IOV_MAX; j++) {
      const b = j === i && head !== undefined ? head : pieces[j]!
      batch.push(b)
      want += b.length
    }
    if (want === 0) break
    const n = batch.length === 1 ? io.writeSync(fd, batch[0]!, at) : io.writevSync(fd, batch, at)
    if (n <= 0) throw Object.assign(new Error('short write'), { code: 'EIO' })
    at += n
    // skip what was written: whole pieces, then part of one
    let left = n
    head = undefined
    while (left > 0) {
      const b = batch[0]!
      if (left >= b.length) { left -= b.length; batch.shift(); i++; continue }
      head = b.subarray(left)
      left = 0
    }
    while (i < pieces.length && head === undefined && pieces[i]!.length === 0) i++
  }
}
