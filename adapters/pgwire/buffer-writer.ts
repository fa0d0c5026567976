/**
 * Builds backend messages into one growing buffer: a message type byte, a length backfilled by
 * {@link BufferWriter.end}, then big-endian fields. Mirror image of node-postgres's
 * `pg-protocol/src/buffer-writer.ts`. Many messages (a batch of DataRows) are written into the
 * same writer and flushed to the socket with one `write`. It is a {@link ByteWriter}, so the
 * DataRow writer (`data-row-writer.ts`) encodes values straight into it.
 */
import { ByteWriter } from '../../lib/internal.js'

const INITIAL_SIZE = 16 * 1024

/** Output at least this large is handed to the socket in the writer's own buffer ({@link BufferWriter.handOff}) instead of copied. */
export const HAND_OFF_MIN = 64 * 1024

/** Buffers handed off and released again, reused by any connection's writer (at most POOL_MAX, each at most POOL_BUFFER_MAX bytes). */
const pool: Buffer[] = []
const POOL_MAX = 8
const POOL_BUFFER_MAX = 2 * 1024 * 1024

/** A growable output buffer of backend messages. */
export class BufferWriter extends ByteWriter {
  declare buf: Buffer
  private start = -1

  constructor() {
    super(INITIAL_SIZE)
  }

  protected override alloc(n: number): Buffer {
    return Buffer.allocUnsafe(n)
  }

  /** Bytes written so far. */
  get length(): number {
    return this.pos
  }

  /** Starts a message of type `code` (a single ASCII character). */
  begin(code: string): this {
    this.ensure(5)
    this.buf[this.pos] = code.charCodeAt(0)
    this.start = this.pos + 1
    this.pos += 5
    return this
  }

  /** Ends the current message, writing its length. */
  end(): this {
    this.patchInt32(this.start, this.pos - this.start)
    this.start = -1
    return this
  }

  /** A byte. */
  override byte(v: number): this {
    super.byte(v)
    return this
  }

  /** A 16-bit integer. */
  int16(v: number): this {
    this.ensure(2)
    this.buf.writeInt16BE(v, this.pos)
    this.pos += 2
    return this
  }

  /** A 32-bit integer. */
  override int32(v: number): this {
    super.int32(v | 0)
    return this
  }

  /** A 64-bit integer. */
  int64(v: bigint): this {
    this.ensure(8)
    this.buf.writeBigInt64BE(v, this.pos)
    this.pos += 8
    return this
  }

  /** A 32-bit float. */
  float32(v: number): this {
    this.ensure(4)
    this.buf.writeFloatBE(v, this.pos)
    this.pos += 4
    return this
  }

  /** A 64-bit float. */
  float64(v: number): this {
    this.ensure(8)
    this.buf.writeDoubleBE(v, this.pos)
    this.pos += 8
    return this
  }

  /** A NUL-terminated UTF-8 string. */
  cstring(s: string): this {
    this.text(s)
    super.byte(0)
    return this
  }

  /** Raw bytes. */
  override bytes(b: Uint8Array): this {
    super.bytes(b)
    return this
  }

  /** An int32 length followed by the UTF-8 bytes of `s` (a DataRow text value). */
  lengthPrefixedString(s: string): this {
    const at = this.reserveInt32()
    this.text(s)
    this.patchInt32(at, this.pos - at - 4)
    return this
  }

  /** Reserves an int32 to fill in later with {@link patchInt32}; returns its offset. */
  reserveInt32(): number {
    this.ensure(4)
    this.pos += 4
    return this.pos - 4
  }

  /** The bytes written so far (a copy), and resets the writer for reuse. */
  flush(): Buffer {
    return this.take() as Buffer
  }

  /**
   * The bytes written so far without a copy — a view of the writer's own buffer, which the writer
   * gives up for a pooled (or new) one of the same size — and `release`, to call once the bytes
   * are no longer needed (the socket's write callback), which returns that buffer to the pool.
   * A large result is sent in ~1 MB pieces; copying each one, and touching fresh memory for each
   * copy, cost the server about a tenth of its time encoding rows.
   */
  handOff(): { readonly out: Buffer; readonly release: () => void } {
    const full = this.buf
    const out = full.subarray(0, this.pos)
    let next: Buffer | undefined
    for (let k = pool.length - 1; k >= 0; k--) {
      if (pool[k]!.length >= full.length) { next = pool[k]!; pool[k] = pool[pool.length - 1]!; pool.pop(); break }
    }
    this.buf = next ?? this.alloc(full.length)
    this.pos = 0
    let released = false
    return {
      out,
      release: () => {
        if (released) return
        released = true
        if (full.length <= POOL_BUFFER_MAX && pool.length < POOL_MAX) pool.push(full)
      },
    }
  }
}
