/**
 * One client connection: reads bytes, frames messages, and moves through the phases
 * startup → authentication → ready → closed. Startup answers SSLRequest (`S` + TLS when a key
 * and certificate are configured, else `N`), GSSENCRequest `N` and CancelRequest; after login
 * it sends AuthenticationOk, the ParameterStatus set drivers need, BackendKeyData and
 * ReadyForQuery, then hands messages to {@link QueryProtocol} one at a time.
 *
 * Back-pressure both ways: output is flushed with `socket.write` and waits for `drain` when the
 * socket's buffer is full; input is paused while unprocessed bytes pile up.
 */
import type { Socket } from 'node:net'
import { TLSSocket, createSecureContext } from 'node:tls'
import { type Database, parseStatementTimeout } from '../../lib/index.js'
import { Authenticator } from './auth.js'
import * as be from './backend-serializer.js'
import { BufferWriter } from './buffer-writer.js'
import type { CancelRegistry } from './cancel-registry.js'
import { errorFields } from './errors.js'
import { FrontendParser } from './frontend-parser.js'
import type { FrontendMessage, StartupPacket } from './messages.js'
import type { ResolvedOptions } from './options.js'
import { QueryProtocol } from './query-protocol.js'

/** Unprocessed input above which the socket stops reading. */
const INPUT_HIGH_WATER = 4 * 1024 * 1024

/**
 * Output held back while pipelined input is waiting, at most: large enough to answer a few hundred
 * small statements with one write, small enough that the client keeps receiving while we work.
 */
const PIPELINE_HOLD = 16 * 1024

type Phase = 'startup' | 'auth' | 'ready' | 'closed'

/** Serves one socket. */
export class PgConnection {
  readonly w = new BufferWriter()
  private socket: Socket
  private readonly parser: FrontendParser
  private phase: Phase = 'startup'
  private busy = false
  private auth: Authenticator | undefined
  private query: QueryProtocol | undefined
  private pid = 0
  private startupTimer: NodeJS.Timeout | undefined
  private readonly onData = (d: Buffer): void => this.received(d)

  constructor(socket: Socket, private readonly db: Database, private readonly opts: ResolvedOptions, private readonly registry: CancelRegistry) {
    this.socket = socket
    this.parser = new FrontendParser(opts.maxMessageSize)
    socket.setNoDelay(true)
    this.attach(socket)
    this.startupTimer = setTimeout(() => this.destroy(), opts.startupTimeoutMs)
    this.startupTimer.unref()
  }

  private attach(s: Socket): void {
    s.on('data', this.onData)
    s.on('error', () => this.destroy())
    s.on('close', () => this.destroy())
  }

  private received(d: Buffer): void {
    this.parser.push(d)
    if (this.parser.pending > INPUT_HIGH_WATER) this.socket.pause()
    void this.pump()
  }

  /** Processes complete messages one at a time. */
  private async pump(): Promise<void> {
    if (this.busy) return
    this.busy = true
    try {
      while (this.phase !== 'closed') {
        if (this.phase === 'startup') {
          const p = this.parser.nextStartup()
          if (p === undefined) break
          await this.startup(p)
        } else {
          const m = this.parser.next()
          if (m === undefined) break
          // most messages complete synchronously: no await (and microtask turn) for those
          const pending = this.message(m)
          if (pending !== undefined) await pending
        }
      }
      const out = this.flush()
      if (out !== undefined) await out
    } catch (e) {
      await this.fatal(e)
    } finally {
      this.busy = false
    }
    if (this.phase !== 'closed' && this.socket.isPaused()) this.socket.resume()
  }

  /**
   * Writes buffered output; resolves when the socket can take more. While the client has
   * pipelined further complete messages, small output is held back and answered together with
   * theirs in one write (the pump flushes once the input runs dry).
   */
  flush(): Promise<void> | undefined {
    if (this.w.length === 0) return undefined
    if (this.phase === 'ready' && this.w.length < PIPELINE_HOLD && this.parser.hasMessage()) return undefined
    // nothing is acknowledged (or shown to a reader) before it is durable: one group commit
    // covers every write in the output; only the connection that wrote answers for a failed sync
    if (this.db.hasUnsyncedWrites) return this.syncThenWrite()
    return this.write()
  }

  private async syncThenWrite(): Promise<void> {
    if (this.query?.wrote === true) await this.syncWrites()
    else await this.db.sync().catch(() => undefined)
    await this.write()
  }

  /** Sends the buffered output; a promise only when the socket is full (it resolves on drain). */
  private write(): Promise<void> | undefined {
    if (this.query !== undefined) this.query.wrote = false
    const buf = this.w.flush()
    const s = this.socket
    if (this.phase === 'closed' || s.destroyed || buf.length === 0) return undefined
    if (s.write(buf)) return undefined
    return new Promise<void>((resolve) => {
      const done = (): void => { s.off('drain', done); s.off('close', done); resolve() }
      s.on('drain', done)
      s.on('close', done)
    })
  }

  /**
   * Waits for the group commit of the writes the buffered output acknowledges. When the sync
   * fails those acknowledgements are false: they are discarded, the client gets a FATAL 58030 and
   * the connection closes (its writes since the last answer were dropped, like a crash).
   */
  private async syncWrites(): Promise<void> {
    try {
      await this.db.sync()
    } catch (e) {
      this.w.flush()
      const f = errorFields(e)
      be.errorResponse(this.w, { ...f, severity: 'FATAL' })
      const s = this.socket
      if (!s.destroyed) s.write(this.w.flush())
      this.destroy()
    }
  }

  private async startup(p: StartupPacket): Promise<void> {
    switch (p.kind) {
      case 'ssl':
        if (this.opts.tls === undefined || this.parser.pending > 0) { this.socket.write('N'); return }
        this.socket.write('S')
        this.upgrade()
        return
      case 'gssenc':
        this.socket.write('N')
        return
      case 'cancel':
        this.registry.cancel(p.pid, p.secret)
        this.destroy()
        return
      case 'startup': {
        const user = p.params.get('user') ?? ''
        if (user === '') {
          be.errorResponse(this.w, { severity: 'FATAL', code: '28000', message: 'no PostgreSQL user name specified in startup packet' })
          await this.flush()
          this.destroy()
          return
        }
        this.applicationName = p.params.get('application_name') ?? ''
        this.statementTimeout = startupStatementTimeout(p.params)
        this.auth = new Authenticator(this.opts, user, p.params.get('database') ?? user, this.socket.remoteAddress)
        this.phase = 'auth'
        this.auth.begin(this.w)
        await this.flush()
        return
      }
    }
  }

  private applicationName = ''
  /** `statement_timeout` from the startup packet (a parameter, or `-c statement_timeout=...` in `options`) */
  private statementTimeout: string | undefined

  private upgrade(): void {
    const raw = this.socket
    raw.off('data', this.onData)
    const tls = new TLSSocket(raw, { isServer: true, secureContext: createSecureContext(this.opts.tls) })
    this.socket = tls
    this.attach(tls)
  }

  private message(m: FrontendMessage): Promise<void> | undefined {
    if (this.phase === 'auth') return this.authMessage(m)
    if (m.kind === 'terminate') { this.destroy(); return undefined }
    if (m.kind === 'unknown' || m.kind === 'password') throw new Error(`unexpected message type '${m.kind === 'unknown' ? m.code : 'p'}'`)
    return this.query!.handle(m)
  }

  private async authMessage(m: FrontendMessage): Promise<void> {
    if (m.kind !== 'password') throw new Error(`expected a password message, got ${m.kind}`)
    const step = await this.auth!.step(m.body, this.w)
    switch (step.kind) {
      case 'continue': await this.flush(); return
      case 'fail':
        be.errorResponse(this.w, { severity: 'FATAL', code: '28P01', message: step.message })
        await this.flush()
        this.destroy()
        return
      case 'ok': return this.loggedIn(step.principal)
    }
  }

  private async loggedIn(principal: Parameters<Database['session']>[0]): Promise<void> {
    clearTimeout(this.startupTimer)
    const session = this.db.session(principal)
    if (this.statementTimeout !== undefined) session.settings.set('statement_timeout', this.statementTimeout)
    this.query = new QueryProtocol({ db: this.db, session }, this)
    const key = this.registry.register(this.query)
    this.pid = key.pid
    this.phase = 'ready'
    be.auth.ok(this.w)
    const params: [string, string][] = [
      ['server_version', this.opts.serverVersion], ['server_encoding', 'UTF8'], ['client_encoding', 'UTF8'],
      ['DateStyle', 'ISO, YMD'], ['TimeZone', 'UTC'], ['integer_datetimes', 'on'], ['standard_conforming_strings', 'on'],
      ['IntervalStyle', 'postgres'], ['is_superuser', principal?.admin === true ? 'on' : 'off'],
      ['session_authorization', principal?.name ?? ''], ['application_name', this.applicationName],
    ]
    for (const [k, v] of params) be.parameterStatus(this.w, k, v)
    be.backendKeyData(this.w, key.pid, key.secret)
    be.readyForQuery(this.w, 'I')
    await this.flush()
  }

  private async fatal(e: unknown): Promise<void> {
    if (this.phase === 'closed') return
    const f = errorFields(e)
    be.errorResponse(this.w, { ...f, severity: 'FATAL', code: f.code === 'XX000' ? '08P01' : f.code })
    await this.flush()
    this.destroy()
  }

  /** Closes the connection and releases its state. */
  destroy(): void {
    if (this.phase === 'closed') return
    this.phase = 'closed'
    clearTimeout(this.startupTimer)
    if (this.pid !== 0) this.registry.unregister(this.pid)
    this.query?.close()
    this.socket.end()
    this.socket.destroySoon()
  }
}

/**
 * The `statement_timeout` a client asked for at startup: node-postgres sends it as a startup
 * parameter, libpq (`PGOPTIONS`, psql, JDBC's `options`) as `-c statement_timeout=...` or
 * `--statement_timeout=...` in `options`. Values that are not a timeout are ignored.
 */
export function startupStatementTimeout(params: ReadonlyMap<string, string>): string | undefined {
  let value = params.get('statement_timeout')
  const options = params.get('options')
  if (options !== undefined) {
    const m = /(?:^|\s)(?:-c\s*|--)statement_timeout=(\S+)/.exec(options)
    if (m !== null) value = m[1]!
  }
  return value !== undefined && parseStatementTimeout(value) !== undefined ? value : undefined
}
