/**
 * Splits the client's byte stream into messages and decodes them: the untyped startup packet
 * first, then typed messages (`Q`, `P`, `B`, ...). Incremental: bytes arrive in arbitrary
 * fragments; a message is decoded only once complete. Oversized or malformed framing throws
 * {@link ProtocolError} and the connection is dropped.
 */
import { BufferReader, ProtocolError } from './buffer-reader.js'
import { StartupCode, type FormatCode, type FrontendMessage, type StartupPacket } from './messages.js'

/** Largest startup packet accepted (PostgreSQL's limit is 10000). */
const MAX_STARTUP_LENGTH = 10000

/** Accumulates bytes and yields complete messages. */
export class FrontendParser {
  private chunks: Buffer[] = []
  private buffered = 0

  /** @param maxMessageSize largest typed message accepted, in bytes */
  constructor(private readonly maxMessageSize: number) {}

  /** Bytes received but not yet consumed. */
  get pending(): number {
    return this.buffered
  }

  /** True when a complete typed message is buffered (the client pipelined more than one). */
  hasMessage(): boolean {
    if (this.buffered < 5) return false
    const head = this.chunks[0]!
    const len = head.length >= 5 ? head.readInt32BE(1) : this.peek().readInt32BE(1)
    return this.buffered >= 1 + len
  }

  /** Adds received bytes. */
  push(data: Buffer): void {
    this.chunks.push(data)
    this.buffered += data.length
  }

  private peek(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)]
    return this.chunks[0] ?? Buffer.alloc(0)
  }

  private take(n: number): Buffer {
    const all = this.peek()
    const out = all.subarray(0, n)
    const rest = all.subarray(n)
    this.chunks = rest.length > 0 ? [rest] : []
    this.buffered = rest.length
    return out
  }

  /** The next startup packet, or undefined when incomplete. */
  nextStartup(): StartupPacket | undefined {
    if (this.buffered < 8) return undefined
    const len = this.peek().readInt32BE(0)
    if (len < 8 || len > MAX_STARTUP_LENGTH) throw new ProtocolError(`invalid startup packet length ${len}`)
    if (this.buffered < len) return undefined
    const r = new BufferReader(this.take(len).subarray(4))
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
        throw new ProtocolError(`unsupported frontend protocol ${code >>> 16}.${code & 0xffff}`)
    }
  }

  /** The next typed message, or undefined when incomplete. */
  next(): FrontendMessage | undefined {
    if (this.buffered < 5) return undefined
    const head = this.peek()
    const code = String.fromCharCode(head[0]!)
    const len = head.readInt32BE(1)
    if (len < 4) throw new ProtocolError(`invalid message length ${len}`)
    if (len > this.maxMessageSize) throw new ProtocolError(`message of ${len} bytes exceeds the limit of ${this.maxMessageSize}`, '54000')
    if (this.buffered < len + 1) return undefined
    const body = this.take(len + 1).subarray(5)
    return decode(code, new BufferReader(body), body)
  }
}

function format(v: number): FormatCode {
  if (v !== 0 && v !== 1) throw new ProtocolError(`invalid format code ${v}`)
  return v
}

function decode(code: string, r: BufferReader, body: Buffer): FrontendMessage {
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
      const params: (Buffer | null)[] = []
      for (let i = 0; i < np; i++) {
        const len = r.int32()
        if (len < -1) throw new ProtocolError(`invalid parameter length ${len}`)
        params.push(len === -1 ? null : Buffer.from(r.bytes(len)))
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
    case 'p': return { kind: 'password', body: Buffer.from(body) }
    default: return { kind: 'unknown', code }
  }
}
