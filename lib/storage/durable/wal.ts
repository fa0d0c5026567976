/**
 * The write-ahead log: one file of length-prefixed, checksummed records.
 *
 * Frame: uint32 LE payload length, uint32 LE CRC-32 of the payload, then the payload (a msgpack
 * map, see wal-codec.ts). A record is acknowledged once `append` returns: its bytes are written
 * and fdatasync'ed. Reading stops at the first frame whose length runs past the end of the file or
 * whose checksum does not match (a torn tail from a crash); {@link openWal} truncates it away.
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
  private constructor(private readonly fd: number, private pos: number) {}

  /** Bytes in the log now. */
  get size(): number {
    return this.pos
  }

  /** Appends one record and makes it durable, or throws 58030 leaving the log as it was. */
  append(payload: Uint8Array): void {
    const frame = new Uint8Array(HEADER + payload.length)
    const dv = new DataView(frame.buffer)
    dv.setUint32(0, payload.length, true)
    dv.setUint32(4, crc32(payload), true)
    frame.set(payload, HEADER)
    try {
      writeAll(this.fd, frame, this.pos)
      io.fsyncSync(this.fd)
    } catch (e) {
      try { io.ftruncateSync(this.fd, this.pos) } catch { /* the torn tail is dropped on the next open */ }
      throw ioError('write-ahead log write failed, nothing was committed', e)
    }
    this.pos += frame.length
  }

  /** Empties the log (after a checkpoint made every record redundant). */
  reset(): void {
    io.ftruncateSync(this.fd, 0)
    io.fsyncSync(this.fd)
    this.pos = 0
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

/** A 58030 error for a failed storage write, naming the OS error. */
export function ioError(what: string, cause: unknown): SqlError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code ?? 'EIO'
  return new SqlError(SqlState.IO_ERROR, `${what} [${code}]`, -1, { cause })
}
