/**
 * The write-ahead log: one file of length-prefixed, checksummed records.
 *
 * Frame: uint32 LE payload length (bit 31 set: "more records of this group follow"), uint32 LE
 * CRC-32 of the payload, then the payload (a msgpack map, see wal-codec.ts). One append is one
 * group: one record, or several consecutive records of which all but the last have bit 31 set,
 * so that a large append is never one huge record, and a group is replayed whole or not at all.
 * Records are written as they come and made durable by one sync per group commit (see
 * DurableStore.commit); a record is acknowledged only after a sync covered it. Reading stops at
 * the first frame whose length runs past the end of the file or whose checksum does not match
 * (a torn tail from a crash), and drops a group whose last record is missing;
 * {@link WalWriter.open} truncates both away.
 */
import { SqlError, SqlState } from '../../errors.js'
import { crc32 } from './crc32.js'
import * as path from 'node:path'
import { io, writevAll } from './io.js'
import { fsyncDirSteps } from './durable-steps.js'
import { type Steps, runSteps } from './steps.js'

/** The WAL file's name inside the data directory. */
export const WAL_FILE = 'wal.log'

/** Frame header bytes. */
const HEADER = 8
/** The largest payload a frame may claim (anything larger is a torn or corrupt header). */
export const MAX_RECORD = 1 << 30
/** Bit 31 of the length word: more records of the same group follow. */
const MORE = 0x80000000
/** Bytes read at a time when scanning the log at open. */
const READ_CHUNK = 8 << 20

/** One record's frame: its header (length, `more` bit, CRC-32 of the payload) and its payload's pieces. */
function frame(pieces: readonly Uint8Array[], more: boolean): { pieces: Uint8Array[]; bytes: number } {
  let len = 0
  let sum = 0
  for (const b of pieces) { len += b.length; sum = crc32(b, sum) }
  if (len > MAX_RECORD) throw new SqlError(SqlState.PROGRAM_LIMIT_EXCEEDED, `a write-ahead log record of ${len} bytes is over the limit of ${MAX_RECORD}: append fewer rows at a time`)
  const h = new Uint8Array(HEADER)
  const dv = new DataView(h.buffer)
  dv.setUint32(0, (len | (more ? MORE : 0)) >>> 0, true)
  dv.setUint32(4, sum, true)
  return { pieces: [h, ...pieces], bytes: HEADER + len }
}

/**
 * Reads the complete groups of records of an open WAL file from its start, calling `onGroup`
 * with each group's payloads in order; returns the offset where the valid prefix of complete
 * groups ends. Payloads are copies: they stay valid after the call.
 */
function readGroups(fd: number, size: number, onGroup: (payloads: Uint8Array[]) => void): number {
  const head = Buffer.alloc(HEADER)
  let p = 0
  let groupEnd = 0
  let group: Uint8Array[] = []
  while (p + HEADER <= size) {
    if (io.readSync(fd, head, p) < HEADER) break
    const word = head.readUInt32LE(0)
    const more = (word & MORE) !== 0
    const len = word & ~MORE
    const sum = head.readUInt32LE(4)
    if (len === 0 || len > MAX_RECORD || p + HEADER + len > size) break
    const payload = Buffer.allocUnsafe(len)
    let got = 0
    while (got < len) {
      const n = io.readSync(fd, payload.subarray(got, Math.min(len, got + READ_CHUNK)), p + HEADER + got)
      if (n <= 0) break
      got += n
    }
    if (got < len || crc32(payload) !== sum) break
    group.push(payload)
    p += HEADER + len
    if (more) continue
    onGroup(group)
    group = []
    groupEnd = p
  }
  return groupEnd
}

/** An open WAL file being appended to. */
export class WalWriter {
  /** pieces not yet written to the file: they go out when the next sync starts */
  private pending: Uint8Array[] = []
  /** bytes in the file (the log's size is this plus the pending frames) */
  private written: number
  /**
   * The log was replaced by a new empty file ({@link WalWriter.resetSteps}) whose name is not yet
   * known durable: the directory is synced before any record is acknowledged
   */
  private renamed = false
  /** the last sync started on the thread pool (settled): the descriptor it syncs is closed only after it */
  private lastSync: Promise<unknown> = Promise.resolve()

  private constructor(private fd: number, private pos: number, private readonly file: string) {
    this.written = pos
  }

  /** Bytes in the log now, pending frames included. */
  get size(): number {
    return this.pos
  }

  /**
   * Adds one group of records after the last and returns its offset; each record is given as
   * the pieces of its payload (they are written as they are, never joined, and must not change
   * until written). The group is durable only after a later {@link WalWriter.sync} or
   * {@link WalWriter.syncNow}, which write every pending record and sync the file (group commit:
   * one sync covers every record added before it). Throws 54000 for a record over
   * {@link MAX_RECORD} bytes, before anything is added.
   */
  write(records: readonly (readonly Uint8Array[])[]): number {
    const frames = records.map((pieces, i) => frame(pieces, i < records.length - 1))
    const at = this.pos
    for (const f of frames) this.push(f)
    return at
  }

  /**
   * Adds one record of a group after the last and returns its offset: `more` says that further
   * records of the same group follow (the last one is added with `more` false; a group whose last
   * record never comes is dropped on replay, and must be cut with {@link WalWriter.truncate}
   * before anything else is added). A large group is added a record at a time, with
   * {@link WalWriter.flush} between records, so that the event loop is never held for the whole
   * group (see `DurableStore.commit`). Throws 54000 for a record over {@link MAX_RECORD} bytes.
   */
  add(pieces: readonly Uint8Array[], more: boolean): number {
    const at = this.pos
    this.push(frame(pieces, more))
    return at
  }

  /** Bytes added and not yet written to the file. */
  get pendingBytes(): number {
    return this.pos - this.written
  }

  private push(f: { readonly pieces: readonly Uint8Array[]; readonly bytes: number }): void {
    for (const b of f.pieces) this.pending.push(b)
    this.pos += f.bytes
  }

  /**
   * Writes the pending records to the file now (not synced). On failure (ENOSPC, EIO) drops every
   * pending record and throws 58030 (53100 for a full disk), the file as it was before them.
   */
  flush(): void {
    this.writePending()
  }

  /** Writes the pending frames; on failure (ENOSPC, EIO) drops them and throws 58030, the file as it was. */
  private writePending(): void {
    if (this.pending.length === 0) return
    const pieces = this.pending
    this.pending = []
    let bytes = 0
    for (const b of pieces) bytes += b.length
    try {
      // every piece as it is (column views, headers), in gathering writes: nothing is joined first
      writevAll(this.fd, pieces, this.written)
    } catch (e) {
      this.pos = this.written
      try { io.ftruncateSync(this.fd, this.written) } catch { /* the torn tail is dropped on the next open */ }
      throw ioError('write-ahead log write failed, nothing was committed', e)
    }
    this.written += bytes
  }

  /** Makes every record added so far durable; the sync runs off the main thread. Rejects with 58030. */
  async sync(): Promise<void> {
    this.writePending()
    try {
      if (this.renamed) await this.syncDir()
      const p = io.fsync(this.fd)
      this.lastSync = p.catch(() => undefined)
      await p
    } catch (e) {
      throw ioError('write-ahead log sync failed, nothing was committed', e)
    }
  }

  /** Makes every record added so far durable, blocking. Throws 58030. */
  syncNow(): void {
    this.writePending()
    try {
      if (this.renamed) { runSteps(fsyncDirSteps(path.dirname(this.file))); this.renamed = false }
      io.fsyncSync(this.fd)
    } catch (e) {
      throw ioError('write-ahead log sync failed, nothing was committed', e)
    }
  }

  /** Drops every pending record and every written one from offset `at` on (their sync failed: they were never committed). */
  truncate(at: number): void {
    this.pending = []
    if (at < this.written) {
      this.written = at
      try { io.ftruncateSync(this.fd, at) } catch { /* an unsynced tail is dropped or replayed on the next open, never acknowledged */ }
    }
    this.pos = this.written
  }

  /** The directory's sync after a replacement of the file, off the main thread. */
  private async syncDir(): Promise<void> {
    const steps = fsyncDirSteps(path.dirname(this.file))
    let r = steps.next()
    while (r.done !== true) {
      let failed: { readonly e: unknown } | undefined
      const w = r.value
      if (w?.fsync !== undefined) try { await io.fsync(w.fsync) } catch (e) { failed = { e } }
      r = failed === undefined ? steps.next() : steps.throw(failed.e)
    }
    this.renamed = false
  }

  /** Empties the log (after a checkpoint made every record redundant), blocking. */
  reset(): void {
    runSteps(this.resetSteps())
  }

  /**
   * {@link reset} in steps, its syncs yielded (see steps.ts): a new empty file is created, synced
   * and renamed over the log, and the log goes on in it; the old file is closed on the thread pool
   * (after any sync still running on it), which is where the file system frees its blocks —
   * truncating it in place would hold the event loop for that (~75 ms per 100 MB here). No
   * record may be added until the steps end (the store's checkpoint holds commits back).
   *
   * Crash safety: until the rename is durable the name still holds the old file, every record of
   * which the checkpoint made redundant (replay skips records at or below a table's checkpointed
   * sequence), as after a truncate that was not yet durable. The directory is synced before the
   * steps end, and, should that sync fail, again before the next record is acknowledged
   * ({@link WalWriter.sync}), so an acknowledged record is never in a file the name does not hold.
   * Where the rename is refused, the file is truncated in place as before.
   */
  *resetSteps(): Steps<void> {
    const fresh = `${this.file}.new`
    let fd: number | undefined
    try {
      fd = io.openSync(fresh, 'w')
      yield { fsync: fd }
      io.renameSync(fresh, this.file)
    } catch (e) {
      if (fd !== undefined) { io.closeSync(fd); try { io.rmSync(fresh) } catch { /* removed on the next open */ } }
      if (fd === undefined) throw e
      // a file system that does not replace an open file: truncate in place
      io.ftruncateSync(this.fd, 0)
      this.clear()
      yield { fsync: this.fd }
      return
    }
    const old = this.fd
    this.fd = fd
    this.renamed = true
    this.clear()
    const after = this.lastSync
    this.lastSync = Promise.resolve()
    void after.then(() => io.closeLater(old))
    yield* fsyncDirSteps(path.dirname(this.file))
    this.renamed = false
  }

  private clear(): void {
    this.pending = []
    this.pos = 0
    this.written = 0
  }

  /** Closes the file. */
  close(): void {
    io.closeSync(this.fd)
  }

  /**
   * Opens (creating) the log at `file`: calls `onGroup` with the payloads of each complete group
   * of valid records, in order, then truncates what follows them (a torn tail) and returns a
   * writer after them.
   */
  static open(file: string, onGroup: (payloads: Uint8Array[]) => void): WalWriter {
    if (!io.existsSync(file)) io.closeSync(io.openSync(file, 'w'))
    // a replacement a crash interrupted before its rename (see resetSteps)
    try { io.rmSync(`${file}.new`) } catch { /* harmless: replaced at the next reset */ }
    const fd = io.openSync(file, 'r+')
    try {
      const size = io.statSize(file)
      const end = readGroups(fd, size, onGroup)
      if (end < size) {
        io.ftruncateSync(fd, end)
        io.fsyncSync(fd)
      }
      return new WalWriter(fd, end, file)
    } catch (e) {
      io.closeSync(fd)
      throw e
    }
  }
}

/** A 58030 error for a failed storage write, naming the OS error; 53100 when the disk is full (ENOSPC, EDQUOT). */
export function ioError(what: string, cause: unknown): SqlError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code ?? 'EIO'
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new SqlError(SqlState.DISK_FULL, `${what}: the disk is full [${code}]`, -1,
      { cause, hint: 'free space on the data directory\'s file system; reads keep working, and writes work again once there is room' })
  }
  return new SqlError(SqlState.IO_ERROR, `${what} [${code}]`, -1, { cause })
}
