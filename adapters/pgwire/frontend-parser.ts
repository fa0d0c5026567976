/**
 * Splits the client's byte stream into messages and decodes them: the untyped startup packet
 * first, then typed messages (`Q`, `P`, `B`, ...). Incremental: bytes arrive in arbitrary
 * fragments; a message is decoded only once complete. Framing is checked from the header, before
 * any body is buffered: an unknown type byte, a length below 4 or above the type's limit throws
 * {@link ProtocolError} (FATAL, the connection is closed). A well-framed message whose fields do
 * not parse, FunctionCall and COPY messages decode as `invalid` (an ERROR; the connection goes on),
 * as PostgreSQL 15 does.
 */
import { BufferReader, ProtocolError } from './buffer-reader.js'
import { StartupCode, type FormatCode, type FrontendMessage, type StartupPacket } from './messages.js'

/** Largest startup packet accepted (PostgreSQL's limit is 10000). */
const MAX_STARTUP_LENGTH = 10000

/** Largest message of the types PostgreSQL reads with its small limit (Sync, Describe, Execute, ...). */
const SMALL_MESSAGE_LIMIT = 10000

/** Largest password / SASL message (PostgreSQL's PG_MAX_AUTH_TOKEN_LENGTH). */
const AUTH_MESSAGE_LIMIT = 65535

/** Types capped by the configured limit: the ones that carry SQL or data. */
const LARGE_TYPES = new Set(['Q', 'P', 'B', 'F', 'd'])

/** Types accepted after login. */
const TYPES = new Set(['Q', 'P', 'B', 'D', 'C', 'E', 'S', 'H', 'X', 'F', 'd', 'c', 'f'])

/** Accumulates bytes and yields complete messages. */
export class FrontendParser {
  /** unconsumed input starts at `pos` of `buf`, followed by the chunks in `parts` */
  private buf: Buffer = Buffer.alloc(0)
  private pos = 0
  private parts: Buffer[] = []
  private partsBytes = 0

  /** Set while logging in: only password messages (and Terminate) are accepted, at most 64 KiB each. */
  authenticating = false

  /** @param maxMessageSize largest Query, Parse, Bind, FunctionCall or CopyData message accepted, in bytes */
  constructor(private readonly maxMessageSize: number) {}

  /** Bytes received but not yet consumed. */
  get pending(): number {
    return this.buf.length - this.pos + this.partsBytes
  }

  /** True when a complete typed message is buffered (the client pipelined more than one). */
  hasMessage(): boolean {
    if (!this.contiguous(5)) return false
    const len = this.buf.readInt32BE(this.pos + 1)
    return len >= 4 && this.pending >= 1 + len
  }

  /** Adds received bytes. */
  push(data: Buffer): void {
    // the common case: everything before was consumed, so the new chunk is the buffer
    if (this.partsBytes === 0 && this.pos >= this.buf.length) {
      this.buf = data
      this.pos = 0
      return
    }
    this.parts.push(data)
    this.partsBytes += data.length
  }

  /**
   * Makes the first `n` pending bytes one buffer; false while fewer have arrived. Chunks are
   * joined once, when the message they make up is complete, so a large message costs one copy.
   */
  private contiguous(n: number): boolean {
    if (this.buf.length - this.pos >= n) return true
    if (this.pending < n) return false
    this.buf = Buffer.concat([this.buf.subarray(this.pos), ...this.parts])
    this.pos = 0
    this.parts = []
    this.partsBytes = 0
    return true
  }

  /** Consumes `n` bytes and returns the offset they start at. */
  private take(n: number): number {
    const at = this.pos
    this.pos += n
    return at
  }

  /** The next startup packet, or undefined when incomplete. */
  nextStartup(): StartupPacket | undefined {
    if (!this.contiguous(8)) return undefined
    const len = this.buf.readInt32BE(this.pos)
    if (len < 8 || len > MAX_STARTUP_LENGTH) throw new ProtocolError(`invalid startup packet length ${len}`)
    if (!this.contiguous(len)) return undefined
    const at = this.take(len)
    const r = new BufferReader(this.buf, at + 4, at + len)
    const code = r.int32()
    switch (code) {
      case StartupCode.SSL_REQUEST: return { kind: 'ssl' }
      case StartupCode.GSSENC_REQUEST: return { kind: 'gssenc' }
      case StartupCode.CANCEL_REQUEST: return { kind: 'cancel', pid: r.int32(), secret: r.int32() }
      case StartupCode.PROTOCOL_3_0: {
        const params = new Map<string, string>()
        for (;;) {
          const key = r.cstring()
          if (key === '') break
          params.set(key, r.cstring())
        }
        return { kind: 'startup', params }
      }
      default:
        throw new ProtocolError(`unsupported frontend protocol ${code >>> 16}.${code & 0xffff}: server supports 3.0 to 3.0`, '0A000')
    }
  }

  /** The next typed message, or undefined when incomplete. */
  next(): FrontendMessage | undefined {
    if (!this.contiguous(5)) {
      // a bad type byte is refused at once, without waiting for a length
      if (this.pending > 0 && this.contiguous(1)) this.checkType(this.buf[this.pos]!)
      return undefined
    }
    const type = this.buf[this.pos]!
    this.checkType(type)
    const code = String.fromCharCode(type)
    const len = this.buf.readInt32BE(this.pos + 1)
    if (len < 4) throw new ProtocolError(`invalid message length ${len}`)
    if (LARGE_TYPES.has(code)) {
      if (len > this.maxMessageSize) throw new ProtocolError(`message of ${len} bytes exceeds the limit of ${this.maxMessageSize} bytes`, '54000')
    } else if (len > (code === 'p' ? AUTH_MESSAGE_LIMIT : SMALL_MESSAGE_LIMIT)) {
      throw new ProtocolError(`invalid message length ${len} for message type ${type}`)
    }
    if (!this.contiguous(len + 1)) return undefined
    const buf = this.buf
    const at = this.take(len + 1)
    const r = new BufferReader(buf, at + 5, at + 1 + len)
    try {
      const m = decode(code, r, buf, at + 5, at + 1 + len)
      if (r.remaining !== 0 && m.kind !== 'password' && m.kind !== 'invalid') throw new ProtocolError('invalid message format')
      return m
    } catch (e) {
      // the framing held: the message is refused and the connection goes on
      if (e instanceof ProtocolError) return { kind: 'invalid', code, sqlstate: e.code, message: e.message }
      throw e
    }
  }

  /** Throws unless `type` is a message type accepted in the current phase (as PostgreSQL, before reading the body). */
  private checkType(type: number): void {
    const code = String.fromCharCode(type)
    if (this.authenticating) {
      if (code !== 'p' && code !== 'X') throw new ProtocolError(`expected password response, got message type ${type}`)
    } else if (!TYPES.has(code)) {
      throw new ProtocolError(`invalid frontend message type ${type}`)
    }
  }
}

function format(v: number): FormatCode {
  if (v !== 0 && v !== 1) throw new ProtocolError(`invalid format code ${v}`)
  return v
}

function decode(code: string, r: BufferReader, buf: Buffer, start: number, end: number): FrontendMessage {
  switch (code) {
    case 'Q': return { kind: 'query', sql: r.cstring() }
    case 'P': {
      const name = r.cstring()
      const sql = r.cstring()
      const n = r.count16(4)
      const paramOids: number[] = []
      for (let i = 0; i < n; i++) paramOids.push(r.int32() >>> 0)
      return { kind: 'parse', name, sql, paramOids }
    }
    case 'B': {
      const portal = r.cstring()
      const statement = r.cstring()
      const nf = r.count16(2)
      const paramFormats: FormatCode[] = []
      for (let i = 0; i < nf; i++) paramFormats.push(format(r.int16()))
      const np = r.count16(4)
      const params: (Buffer | string | null)[] = []
      for (let i = 0; i < np; i++) {
        const len = r.int32()
        if (len < -1) throw new ProtocolError(`invalid parameter length ${len}`)
        // text is decoded here, straight from the received bytes; binary values are views (received
        // chunks are never written to again, so they need no copy)
        const binary = (nf === 1 ? paramFormats[0] : paramFormats[i]) === 1
        params.push(len === -1 ? null : binary ? r.bytes(len) : r.text(len))
      }
      const nr = r.count16(2)
      const resultFormats: FormatCode[] = []
      for (let i = 0; i < nr; i++) resultFormats.push(format(r.int16()))
      return { kind: 'bind', portal, statement, paramFormats, params, resultFormats }
    }
    case 'D': case 'C': {
      const t = String.fromCharCode(r.byte())
      if (t !== 'S' && t !== 'P') throw new ProtocolError(`invalid ${code === 'D' ? 'Describe' : 'Close'} target '${t}'`)
      return { kind: code === 'D' ? 'describe' : 'close', target: t, name: r.cstring() }
    }
    case 'E': return { kind: 'execute', portal: r.cstring(), maxRows: r.int32() }
    case 'S': return { kind: 'sync' }
    case 'H': return { kind: 'flush' }
    case 'X': return { kind: 'terminate' }
    case 'p': return { kind: 'password', body: Buffer.from(buf.subarray(start, end)) }
    case 'F': return { kind: 'invalid', code, sqlstate: '0A000', message: 'FunctionCall (the fast-path interface) is not supported' }
    case 'd': case 'c': case 'f': {
      const name = code === 'd' ? 'CopyData' : code === 'c' ? 'CopyDone' : 'CopyFail'
      return { kind: 'invalid', code, sqlstate: '08P01', message: `unexpected ${name} message: no COPY is in progress` }
    }
    default: throw new ProtocolError(`invalid frontend message type ${code.charCodeAt(0)}`)
  }
}
