/**
 * Builds backend messages into one growing buffer: a message type byte, a length backfilled by
 * {@link BufferWriter.end}, then big-endian fields. Mirror image of node-postgres's
 * `pg-protocol/src/buffer-writer.ts`. Many messages (a batch of DataRows) are written into the
 * same writer and flushed to the socket with one `write`.
 */

const INITIAL_SIZE = 16 * 1024

/** A growable output buffer of backend messages. */
export class BufferWriter {
  private buf = Buffer.allocUnsafe(INITIAL_SIZE)
  private offset = 0
  private start = -1

  /** Bytes written so far. */
  get length(): number {
    return this.offset
  }

  private ensure(n: number): void {
    if (this.offset + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.offset + n) size *= 2
    const next = Buffer.allocUnsafe(size)
    this.buf.copy(next, 0, 0, this.offset)
    this.buf = next
  }

  /** Starts a message of type `code` (a single ASCII character). */
  begin(code: string): this {
    this.ensure(5)
    this.buf[this.offset] = code.charCodeAt(0)
    this.start = this.offset + 1
    this.offset += 5
    return this
  }

  /** Ends the current message, writing its length. */
  end(): this {
    this.buf.writeInt32BE(this.offset - this.start, this.start)
    this.start = -1
    return this
  }

  /** A byte. */
  byte(v: number): this {
    this.ensure(1)
    this.buf[this.offset++] = v
    return this
  }

  /** A 16-bit integer. */
  int16(v: number): this {
    this.ensure(2)
    this.buf.writeInt16BE(v, this.offset)
    this.offset += 2
    return this
  }

  /** A 32-bit integer. */
  int32(v: number): this {
    this.ensure(4)
    this.buf.writeInt32BE(v | 0, this.offset)
    this.offset += 4
    return this
  }

  /** A 64-bit integer. */
  int64(v: bigint): this {
    this.ensure(8)
    this.buf.writeBigInt64BE(v, this.offset)
    this.offset += 8
    return this
  }

  /** A 32-bit float. */
  float32(v: number): this {
    this.ensure(4)
    this.buf.writeFloatBE(v, this.offset)
    this.offset += 4
    return this
  }

  /** A 64-bit float. */
  float64(v: number): this {
    this.ensure(8)
    this.buf.writeDoubleBE(v, this.offset)
    this.offset += 8
    return this
  }

  /** A NUL-terminated UTF-8 string. */
  cstring(s: string): this {
    const n = Buffer.byteLength(s)
    this.ensure(n + 1)
    this.buf.write(s, this.offset, 'utf8')
    this.offset += n
    this.buf[this.offset++] = 0
    return this
  }

  /** Raw bytes. */
  bytes(b: Uint8Array): this {
    this.ensure(b.length)
    this.buf.set(b, this.offset)
    this.offset += b.length
    return this
  }

  /** An int32 length followed by the UTF-8 bytes of `s` (a DataRow text value). */
  lengthPrefixedString(s: string): this {
    const n = Buffer.byteLength(s)
    this.ensure(n + 4)
    this.buf.writeInt32BE(n, this.offset)
    this.buf.write(s, this.offset + 4, 'utf8')
    this.offset += n + 4
    return this
  }

  /** Reserves an int32 to fill in later with {@link patchInt32}; returns its offset. */
  reserveInt32(): number {
    this.ensure(4)
    this.offset += 4
    return this.offset - 4
  }

  /** Writes `v` at an offset obtained from {@link reserveInt32}. */
  patchInt32(at: number, v: number): void {
    this.buf.writeInt32BE(v, at)
  }

  /** The bytes written so far (a copy), and resets the writer for reuse. */
  flush(): Buffer {
    const out = Buffer.from(this.buf.subarray(0, this.offset))
    this.offset = 0
    if (this.buf.length > 4 * 1024 * 1024) this.buf = Buffer.allocUnsafe(INITIAL_SIZE)
    return out
  }
}
