/**
 * A minimal PostgreSQL wire-protocol client for benchmarks: it logs in (trust, cleartext or MD5
 * password), sends one query (simple protocol, or extended with every result column in text or
 * binary) and counts the DataRows and bytes of the answer without decoding a value. Its own
 * CPU per row is a few tens of nanoseconds, so a query's wall time through it measures the
 * server, where `pg` or psycopg spend 3–7 µs per row parsing cells.
 *
 * Not a driver: no parameters, no TLS, no SCRAM, one query at a time.
 */
import { createHash } from 'node:crypto'
import { type Socket, connect } from 'node:net'

/** Where and as whom to connect. */
export interface RawConnectOptions {
  readonly host: string
  readonly port: number
  readonly user: string
  readonly database: string
  readonly password?: string
}

/** How the query travels and which format the server answers in. */
export type RawMode = 'simple' | 'text' | 'binary'

/** What one query's answer held. */
export interface RawAnswer {
  /** DataRow messages */
  readonly rows: number
  /** bytes received from the query's first byte to ReadyForQuery */
  readonly bytes: number
  /** socket reads (`data` events) */
  readonly reads: number
}

const D = 68 // DataRow

/** One connection; {@link RawPg.connect} opens it. */
export class RawPg {
  private carry: Buffer | null = null
  private skip = 0
  private rows = 0
  private bytes = 0
  private reads = 0
  private waiter: { resolve: (t: number) => void; reject: (e: Error) => void; until: number } | undefined
  private failure: Error | undefined

  private constructor(private readonly sock: Socket, private readonly password: string | undefined, private readonly user: string) {
    sock.setNoDelay(true)
    sock.on('data', (b: Buffer) => this.onData(b))
    sock.on('error', (e) => this.fail(e))
    sock.on('close', () => this.fail(new Error('connection closed')))
  }

  /** Connects and logs in; resolves at the first ReadyForQuery. */
  static async connect(o: RawConnectOptions): Promise<RawPg> {
    const sock = connect(o.port, o.host)
    await new Promise<void>((resolve, reject) => { sock.once('connect', resolve); sock.once('error', reject) })
    const c = new RawPg(sock, o.password, o.user)
    const body = Buffer.concat([int32(196608), cstr('user'), cstr(o.user), cstr('database'), cstr(o.database), Buffer.from([0])])
    sock.write(Buffer.concat([int32(body.length + 4), body]))
    await c.until(90) // 'Z'
    return c
  }

  /** Runs `sql` and counts its answer. */
  async query(sql: string, mode: RawMode = 'simple'): Promise<RawAnswer> {
    this.rows = 0; this.bytes = 0; this.reads = 0
    if (mode === 'simple') this.sock.write(msg(81, cstr(sql)))
    else {
      const bind = Buffer.concat([cstr(''), cstr(''), int16(0), int16(0), int16(1), int16(mode === 'binary' ? 1 : 0)])
      this.sock.write(Buffer.concat([msg(80, Buffer.concat([cstr(''), cstr(sql), int16(0)])), msg(66, bind), msg(69, Buffer.concat([cstr(''), int32(0)])), msg(83, Buffer.alloc(0))]))
    }
    await this.until(90)
    return { rows: this.rows, bytes: this.bytes, reads: this.reads }
  }

  /** Sends Terminate and closes the socket. */
  async close(): Promise<void> {
    this.failure = new Error('closed')
    this.sock.end(msg(88, Buffer.alloc(0)))
    await new Promise<void>((resolve) => { if (this.sock.closed) resolve(); else this.sock.once('close', () => resolve()) })
  }

  private until(type: number): Promise<number> {
    if (this.failure !== undefined) return Promise.reject(this.failure)
    return new Promise((resolve, reject) => { this.waiter = { resolve, reject, until: type } })
  }

  private fail(e: Error): void {
    this.failure ??= e
    const w = this.waiter
    this.waiter = undefined
    w?.reject(e)
  }

  private onData(chunk: Buffer): void {
    this.reads++
    this.bytes += chunk.length
    let b = chunk
    let p = 0
    if (this.skip > 0) {
      p = Math.min(this.skip, b.length)
      this.skip -= p
    } else if (this.carry !== null) {
      b = Buffer.concat([this.carry, chunk])
      this.carry = null
    }
    while (p < b.length) {
      if (b.length - p < 5) { this.carry = Buffer.from(b.subarray(p)); return }
      const t = b[p]!
      const end = p + 1 + b.readInt32BE(p + 1)
      if (t === D) {
        this.rows++
        if (end > b.length) { this.skip = end - b.length; return }
        p = end
        continue
      }
      if (end > b.length) { this.carry = Buffer.from(b.subarray(p)); return }
      this.onMessage(t, b.subarray(p + 5, end))
      p = end
    }
  }

  private onMessage(t: number, body: Buffer): void {
    if (t === 69) { // ErrorResponse: wait for its ReadyForQuery, then reject
      const fields = body.toString('utf8').split('\0')
      this.failure = new Error(`${fields.find((f) => f.startsWith('C'))?.slice(1)}: ${fields.find((f) => f.startsWith('M'))?.slice(1)}`)
      return
    }
    if (t === 82) { // Authentication*
      const kind = body.readInt32BE(0)
      if (kind === 0) return
      if (this.password === undefined) { this.fail(new Error('the server asks for a password')); return }
      if (kind === 3) this.sock.write(msg(112, cstr(this.password)))
      else if (kind === 5) {
        const md5 = (x: Buffer | string): string => createHash('md5').update(x).digest('hex')
        const inner = md5(this.password + this.user)
        this.sock.write(msg(112, cstr('md5' + md5(Buffer.concat([Buffer.from(inner), body.subarray(4, 8)])))))
      } else this.fail(new Error(`authentication method ${kind} not supported`))
      return
    }
    const w = this.waiter
    if (w !== undefined && t === w.until) {
      this.waiter = undefined
      const f = this.failure
      if (f !== undefined) { this.failure = undefined; w.reject(f) } else w.resolve(t)
    }
  }
}

function int32(x: number): Buffer { const b = Buffer.alloc(4); b.writeInt32BE(x); return b }
function int16(x: number): Buffer { const b = Buffer.alloc(2); b.writeInt16BE(x); return b }
function cstr(s: string): Buffer { return Buffer.from(`${s}\0`, 'utf8') }
function msg(type: number, body: Buffer): Buffer { return Buffer.concat([Buffer.from([type]), int32(body.length + 4), body]) }
