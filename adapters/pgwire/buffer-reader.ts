/**
 * Reads the fields of one frontend message body (big-endian integers, NUL-terminated strings,
 * length-prefixed bytes). Mirror image of node-postgres's `pg-protocol/src/buffer-reader.ts`.
 * Every read is bounds-checked and throws {@link ProtocolError} past the end, so a truncated or
 * lying message never reads into the next one.
 */

/** A malformed frontend message: answered with SQLSTATE 08P01 and a disconnect. */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError'
  /** SQLSTATE of the error: 08P01 protocol violation, 54000 message too large, 0A000 unsupported protocol version */
  constructor(message: string, readonly code: '08P01' | '54000' | '0A000' = '08P01') {
    super(message)
  }
}

/** A cursor over one message body: bytes [start, end) of `buf` (read in place, no copy). */
export class BufferReader {
  private offset: number
  private readonly end: number

  constructor(private readonly buf: Buffer, start = 0, end = buf.length) {
    this.offset = start
    this.end = end
  }

  /** Bytes left to read. */
  get remaining(): number {
    return this.end - this.offset
  }

  private need(n: number): void {
    if (n < 0 || this.offset + n > this.end) throw new ProtocolError('message is truncated')
  }

  /** A byte. */
  byte(): number {
    this.need(1)
    return this.buf[this.offset++]!
  }

  /** A signed 16-bit integer. */
  int16(): number {
    this.need(2)
    const v = this.buf.readInt16BE(this.offset)
    this.offset += 2
    return v
  }

  /** A signed 32-bit integer. */
  int32(): number {
    this.need(4)
    const v = this.buf.readInt32BE(this.offset)
    this.offset += 4
    return v
  }

  /** A NUL-terminated UTF-8 string. */
  cstring(): string {
    // the unnamed statement and portal are the common case
    if (this.offset < this.end && this.buf[this.offset] === 0) { this.offset++; return '' }
    const end = this.buf.indexOf(0, this.offset)
    if (end < 0 || end >= this.end) throw new ProtocolError('string is not NUL-terminated')
    const s = this.buf.toString('utf8', this.offset, end)
    this.offset = end + 1
    return s
  }

  /** `n` bytes decoded as UTF-8. */
  text(n: number): string {
    this.need(n)
    const s = this.buf.toString('utf8', this.offset, this.offset + n)
    this.offset += n
    return s
  }

  /** `n` raw bytes (a view, not a copy). */
  bytes(n: number): Buffer {
    this.need(n)
    const b = this.buf.subarray(this.offset, this.offset + n)
    this.offset += n
    return b
  }

  /** A count (int16) that must be non-negative and fit in the rest of the message at `each` bytes per item. */
  count16(each: number): number {
    const n = this.int16()
    if (n < 0 || n * each > this.remaining) throw new ProtocolError(`invalid count ${n}`)
    return n
  }
}
