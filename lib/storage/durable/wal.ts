/**
 * The write-ahead log: one file of length-prefixed, checksummed records.
 *
 * Frame: uint32 LE payload length, uint32 LE CRC-32 of the payload, then the payload (a msgpack
 * map, see wal-codec.ts). Records are written as they come and made durable by one sync per group
 * (group commit, see DurableStore.commit); a record is acknowledged only after a sync covered it.
 * Reading stops at the first frame whose length runs past the end of the file or whose checksum
 * does not match (a torn tail from a crash); {@link openWal} truncates it away.
 */
import { SqlError, SqlState } from '../../errors.js'
import { crc32 } from './crc32.js'
import { io, writeAll } from './io.js'

/** The WAL file's name inside the data directory. */
export const WAL_FILE = 'wal.log'

/** Frame header bytes. */
const HEADER = 8
/** The largest payload a frame may claim (anything larger is a torn or corrupt header). */
const MAX_RECORD = 1 << 30

/** Splits WAL bytes into payloads; `end` is where the valid prefix stops. */
export function readRecords(bytes: Uint8Array): { payloads: Uint8Array[]; end: number } {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const payloads: Uint8Array[] = []
  let p = 0
  while (p + HEADER <= bytes.length) {
    const len = dv.getUint32(p, true)
    const sum = dv.getUint32(p + 4, true)
    if (len === 0 || len > MAX_RECORD || p + HEADER + len > bytes.length) break
    const payload = bytes.subarray(p + HEADER, p + HEADER + len)
    if (crc32(payload) !== sum) break
    payloads.push(payload)
    p += HEADER + len
  }
  return { payloads, end: p }
}

/** An open WAL file being appended to. */
export class WalWriter {
  /** frames not yet written to the file: they go out in one write when the next sync starts */
  private pending: Uint8Array[] = []
  /** bytes in the file (the log's size is this plus the pending frames) */
  private written: number

  private constructor(private readonly fd: number, private pos: number) {
    this.written = pos
  }

  /** Bytes in the log now, pending frames included. */
  get size(): number {
    return this.pos
  }

  /**
   * Adds one record after the last and returns its offset. It is durable only after a later
   * {@link WalWriter.sync} or {@link WalWriter.syncNow}, which write every pending record in one
   * write and sync the file (group commit: one sync covers every record added before it).
   */
  write(payload: Uint8Array): number {
    const frame = new Uint8Array(HEADER + payload.length)
    const dv = new DataView(frame.buffer)
    dv.setUint32(0, payload.length, true)
    dv.setUint32(4, crc32(payload), true)
    frame.set(payload, HEADER)
    const at = this.pos
    this.pending.push(frame)
    this.pos += frame.length
    return at
  }

  /** Writes the pending frames; on failure (ENOSPC, EIO) drops them and throws 58030, the file as it was. */
  private writePending(): void {
    if (this.pending.length === 0) return
    const frames = this.pending
    this.pending = []
    const bytes = frames.length === 1 ? frames[0]! : Buffer.concat(frames)
    try {
      writeAll(this.fd, bytes, this.written)
    } catch (e) {
      this.pos = this.written
      try { io.ftruncateSync(this.fd, this.written) } catch { /* the torn tail is dropped on the next open */ }
      throw ioError('write-ahead log write failed, nothing was committed', e)
    }
    this.written += bytes.length
  }

  /** Makes every record added so far durable; the sync runs off the main thread. Rejects with 58030. */
  async sync(): Promise<void> {
    this.writePending()
    try {
      await io.fsync(this.fd)
    } catch (e) {
      throw ioError('write-ahead log sync failed, nothing was committed', e)
    }
  }

  /** Makes every record added so far durable, blocking. Throws 58030. */
  syncNow(): void {
    this.writePending()
    try {
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

  /** Empties the log (after a checkpoint made every record redundant). */
  reset(): void {
    io.ftruncateSync(this.fd, 0)
    io.fsyncSync(this.fd)
    this.pending = []
    this.pos = 0
    this.written = 0
  }

  /** Closes the file. */
  close(): void {
    io.closeSync(this.fd)
  }

  /** Opens (creating) the log at `path`: returns the valid records and a writer after them. */
  static open(path: string): { wal: WalWriter; payloads: Uint8Array[] } {
    if (!io.existsSync(path)) io.closeSync(io.openSync(path, 'w'))
    const bytes = io.readFileSync(path)
    const { payloads, end } = readRecords(bytes)
    const fd = io.openSync(path, 'r+')
    if (end < bytes.length) {
      io.ftruncateSync(fd, end)
      io.fsyncSync(fd)
    }
    return { wal: new WalWriter(fd, end), payloads }
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
