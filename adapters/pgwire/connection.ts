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
import { TLSSocket } from 'node:tls'
import type { Database, Session } from '../../lib/index.js'
import { parseStatementTimeout } from '../../lib/internal.js'
import { Authenticator, lockedOut } from './auth.js'
import * as be from './backend-serializer.js'
import { BufferWriter, HAND_OFF_MIN } from './buffer-writer.js'
import type { CancelRegistry } from './cancel-registry.js'
import { PgError, errorFields } from './errors.js'
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

/**
 * Output the socket may hold unsent before a flush waits for 'drain'. A large result is written
 * in 256 KB flushes; waiting for the socket to empty after each one left the server idle while
 * the client parsed the previous chunk, so producing and parsing never overlapped. A bounded
 * amount queued ahead keeps both busy and memory per connection still bounded.
 */
const WRITE_AHEAD = 1024 * 1024

/** How long a closing socket may take to deliver its last output before it is cut. */
const CLOSE_GRACE_MS = 1000

type Phase = 'startup' | 'auth' | 'ready' | 'closed'

/** Serves one socket. */
/** What {@link PgConnection.terminate} sends (PostgreSQL's text and code). */
const ADMIN_SHUTDOWN: be.ErrorFields = { severity: 'FATAL', code: '57P01', message: 'terminating connection due to administrator command' }

export class PgConnection {
  readonly w = new BufferWriter()
  private socket: Socket
  private readonly parser: FrontendParser
  private phase: Phase = 'startup'
  private busy = false
  private auth: Authenticator | undefined
  private query: QueryProtocol | undefined
  /** the session the connection's statements run in, once logged in */
  private session: Session | undefined
  private pid = 0
  private startupTimer: NodeJS.Timeout | undefined
  private idleTimer: NodeJS.Timeout | undefined
  /** when the connection last received or sent something, or finished a statement (ms) */
  private lastActive = 0
  /** true while output waits for the socket's `drain` (a client that stopped reading is idle) */
  private draining = false
  private readonly onData = (d: Buffer): void => this.received(d)
  /** set by {@link PgConnection.terminate} while a message runs: the connection closes once it is answered */
  private terminating = false

  /**
   * @param admission `refuse`: the server is at its connection limit, so the startup message is
   *   answered FATAL 53300 (a CancelRequest is still served); `closed` is called once when the
   *   connection ends
   */
  constructor(socket: Socket, private readonly db: Database, private readonly opts: ResolvedOptions, private readonly registry: CancelRegistry,
    private readonly admission: { readonly refuse: boolean; readonly refusal?: string; readonly closed: () => void } = { refuse: false, closed: () => undefined }) {
    this.socket = socket
    this.remoteAddress = socket.remoteAddress
    this.parser = new FrontendParser(opts.maxMessageSize)
    this.parser.authenticating = true
    socket.setNoDelay(true)
    this.attach(socket)
    this.startupTimer = setTimeout(() => this.startupTimedOut(), opts.startupTimeoutMs)
    this.startupTimer.unref()
  }

  /**
   * Login took too long (a socket that sent nothing, half a startup packet, or no password):
   * closed, with FATAL 08006 once the startup message was read (PostgreSQL's authentication_timeout).
   */
  private startupTimedOut(): void {
    if (this.phase === 'auth') this.closeWith({ severity: 'FATAL', code: '08006', message: 'canceling authentication due to timeout' })
    else this.destroy()
  }

  /** Arms the idle timer (after login; `pg.net.connection.timeout`). */
  private armIdle(ms: number): void {
    if (this.opts.idleTimeoutMs <= 0 || this.phase === 'closed') return
    this.idleTimer = setTimeout(() => this.idleCheck(), ms)
    this.idleTimer.unref()
  }

  /**
   * Closes the connection when nothing was received or sent for the idle timeout and no statement
   * runs (a client that stopped reading its results counts as idle); else re-arms for the rest.
   */
  private idleCheck(): void {
    if (this.phase === 'closed') return
    const timeout = this.opts.idleTimeoutMs
    if (this.busy && !this.draining) { this.armIdle(timeout); return }
    const left = this.lastActive + timeout - Date.now()
    if (left > 0) { this.armIdle(left); return }
    this.closeWith({ severity: 'FATAL', code: '57P05', message: `terminating connection due to idle timeout of ${timeout} ms (pg.net.connection.timeout)` })
  }

  /** Sends the buffered output and one ErrorResponse at once (nothing held back, no sync awaited) and closes. */
  private closeWith(f: be.ErrorFields): void {
    if (this.phase === 'closed') return
    be.errorResponse(this.w, f)
    const s = this.socket
    if (!s.destroyed) s.write(this.w.flush())
    this.destroy()
  }

  private attach(s: Socket): void {
    s.on('data', this.onData)
    s.on('error', () => this.destroy())
    s.on('close', () => this.destroy())
  }

  private received(d: Buffer): void {
    this.lastActive = Date.now()
    this.parser.push(d)
    if (this.parser.pending > INPUT_HIGH_WATER) this.socket.pause()
    void this.pump()
  }

  /** Processes complete messages one at a time. */
  private async pump(): Promise<void> {
    if (this.busy) return
    this.busy = true
    try {
      while (this.phase !== 'closed' && !this.terminating) {
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
      this.lastActive = Date.now()
    }
    if (this.terminating) { this.closeWith(ADMIN_SHUTDOWN); return }
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
    // nothing is acknowledged before it is durable: one group commit covers every write in the
    // output. A reader's output shows only acknowledged writes and its own (which a query waits
    // for, see lib/storage/durable/commit-wait.ts): it waits for no other connection's commit
    if (this.db.hasUnsyncedWrites && this.query?.wrote === true) return this.syncThenWrite()
    return this.write()
  }

  private async syncThenWrite(): Promise<void> {
    if (this.query?.wrote === true) await this.syncWrites()
    await this.write()
  }

  /** Sends the buffered output; a promise only when the socket is full (it resolves on drain). */
  private write(): Promise<void> | undefined {
    if (this.query !== undefined) this.query.wrote = false
    const s = this.socket
    if (this.phase === 'closed' || s.destroyed || this.w.length === 0) { this.w.flush(); return undefined }
    let ok: boolean
    if (this.w.length >= HAND_OFF_MIN) {
      // large output goes out in the writer's own buffer, back in the pool once the socket wrote it
      const { out, release } = this.w.handOff()
      ok = s.write(out, release)
    } else ok = s.write(this.w.flush())
    if (ok || s.writableLength <= WRITE_AHEAD) return undefined
    this.draining = true
    return new Promise<void>((resolve) => {
      const done = (): void => { s.off('drain', done); s.off('close', done); this.draining = false; this.lastActive = Date.now(); resolve() }
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
      await this.db.sync(this.session)
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
        // bytes pipelined behind SSLRequest would be read as if they came over TLS (CVE-2021-23214)
        if (this.parser.pending > 0 || this.encrypted) return this.refuse('08P01', 'received unencrypted data after SSL request')
        if (this.opts.tls === undefined) { this.socket.write('N'); return }
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
        // like PostgreSQL, a connection over the limit is refused in answer to its startup message
        if (this.admission.refuse) { this.closeWith({ severity: 'FATAL', code: '53300', message: this.admission.refusal ?? 'sorry, too many clients already' }); return }
        const user = p.params.get('user') ?? ''
        if (this.opts.tls !== undefined && this.opts.tlsRequired && !this.encrypted) {
          return this.refuse('28000', 'SSL connection is required', 'this server accepts encrypted connections only (pg.tls.required): connect with sslmode=require')
        }
        if (user === '') return this.refuse('28000', 'no PostgreSQL user name specified in startup packet')
        const wait = this.opts.loginThrottle?.retryAfter(user, this.remoteAddress) ?? 0
        if (wait > 0) { const l = lockedOut(wait); return this.refuse(l.code, l.message) }
        this.applicationName = p.params.get('application_name') ?? ''
        this.statementTimeout = startupStatementTimeout(p.params)
        this.auth = new Authenticator(this.opts, user, p.params.get('database') ?? user, this.remoteAddress, this.db)
        this.phase = 'auth'
        this.auth.begin(this.w)
        await this.flush()
        return
      }
    }
  }

  private applicationName = ''
  /** the client's address, as the login throttle counts it (kept from the plain socket) */
  private readonly remoteAddress: string | undefined
  /** the socket is a TLS socket (after SSLRequest) */
  private encrypted = false

  /** Sends a FATAL ErrorResponse before any login and closes: nothing else is sent. */
  private async refuse(code: string, message: string, hint?: string): Promise<void> {
    be.errorResponse(this.w, { severity: 'FATAL', code, message, ...(hint === undefined ? {} : { hint }) })
    await this.flush()
    this.destroy()
  }
  /** `statement_timeout` from the startup packet (a parameter, or `-c statement_timeout=...` in `options`) */
  private statementTimeout: string | undefined

  private upgrade(): void {
    const raw = this.socket
    raw.off('data', this.onData)
    const tls = new TLSSocket(raw, { isServer: true, secureContext: this.opts.secureContext })
    this.socket = tls
    this.encrypted = true
    this.attach(tls)
  }

  private message(m: FrontendMessage): Promise<void> | undefined {
    if (m.kind === 'terminate') { this.destroy(); return undefined }
    if (this.phase === 'auth') return this.authMessage(m)
    // FunctionCall and Query are cycles of their own (ReadyForQuery follows); the rest skip to Sync
    if (m.kind === 'invalid') return this.query!.refuse(new PgError(m.sqlstate, m.message), m.code === 'Q' || m.code === 'F')
    return this.query!.handle(m)
  }

  private async authMessage(m: FrontendMessage): Promise<void> {
    // the parser lets only password messages through while logging in
    if (m.kind !== 'password') throw new Error(`expected a password message, got ${m.kind}`)
    const step = await this.auth!.step(m.body, this.w)
    switch (step.kind) {
      case 'continue': await this.flush(); return
      case 'fail': return this.refuse(step.code, step.message)
      case 'ok': {
        // the password was right; a principal without PGWIRE is refused as PostgreSQL refuses a
        // role without CONNECT: FATAL 42501 (`Access denied for <user> [PGWIRE]`)
        if (this.db.aclEnabled) {
          try { this.db.checkEndpoint(step.principal, 'PGWIRE') } catch (e) { const f = errorFields(e); return this.refuse(f.code, f.message) }
        }
        return this.loggedIn(step.principal)
      }
    }
  }

  private async loggedIn(principal: Parameters<Database['session']>[0]): Promise<void> {
    clearTimeout(this.startupTimer)
    this.parser.authenticating = false
    this.armIdle(this.opts.idleTimeoutMs)
    const session = this.session = this.db.session(principal)
    if (this.statementTimeout !== undefined) session.settings.set('statement_timeout', this.statementTimeout)
    this.query = new QueryProtocol({ db: this.db, session }, this, this.opts.readOnly)
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

  /**
   * A failure that ends the connection: the ErrorResponse goes out at once, never held back
   * behind pipelined input (which may be the very bytes that failed), then the socket closes.
   */
  private async fatal(e: unknown): Promise<void> {
    if (this.phase === 'closed') return
    const f = errorFields(e)
    const out = this.w.length > 0 && this.db.hasUnsyncedWrites ? this.syncThenWrite() : undefined
    if (out !== undefined) await out
    this.closeWith({ ...f, severity: 'FATAL', code: f.code === 'XX000' ? '08P01' : f.code })
  }

  /**
   * The server is shutting down: FATAL 57P01 `terminating connection due to administrator
   * command`, then the close, as PostgreSQL's fast shutdown does. An idle connection gets it at
   * once; a busy one once its current message is answered (the server cancels running
   * statements first: `db.close({ cancel: true })`). A socket that has not sent its startup
   * message yet is left to the caller (it has no protocol to speak).
   */
  terminate(): void {
    if (this.phase === 'closed' || this.phase === 'startup') return
    if (this.busy) { this.terminating = true; return }
    this.closeWith(ADMIN_SHUTDOWN)
  }

  /** Closes the connection and releases its state. */
  destroy(): void {
    if (this.phase === 'closed') return
    this.phase = 'closed'
    clearTimeout(this.startupTimer)
    clearTimeout(this.idleTimer)
    this.admission.closed()
    if (this.pid !== 0) this.registry.unregister(this.pid)
    this.query?.close()
    const s = this.socket
    s.end()
    s.destroySoon()
    // a client that stopped reading would keep the socket (and its unsent output) forever
    if (!s.destroyed) setTimeout(() => s.destroy(), CLOSE_GRACE_MS).unref()
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
