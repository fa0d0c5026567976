/**
 * InfluxDB Line Protocol over TCP (QuestDB's port 9009): a stream of lines, no replies. Rows
 * are committed every `commitInterval` ms, when `maxUncommittedRows` are pending and when the
 * peer disconnects (a last line without its newline is then dropped). A fast stream is also
 * committed every {@link COMMIT_BATCH_ROWS} rows, without pausing the socket: batches of the
 * size an HTTP request of the Node client carries, instead of up to `maxUncommittedRows` rows
 * gathered over a commit interval (column builders of 500k rows grown by doubling, and their
 * garbage, cost a TCP stream more CPU per row than the same rows over HTTP). The first bad line closes
 * the connection and is logged with its reason, as QuestDB does with
 * `line.tcp.disconnect.on.error=true`; the complete lines before it are committed.
 *
 * Authentication: QuestDB's JWK challenge. The client sends its key id and a newline, the server
 * 512 random printable bytes and a newline, the client their ECDSA P-256 SHA-256 signature in
 * base64 and a newline; a failure closes the connection silently (and is logged).
 * - Access control on (QuestDB Enterprise): always. The key id is a user or service account with
 *   a JWK token (`ALTER USER u CREATE TOKEN TYPE JWK`), checked by `db.authenticateJwk`; it must
 *   be enabled and hold the `ILP` endpoint permission, and rows are written with its grants.
 *   `authKeys` are then ignored (logged once at creation): the ACL is the one source of keys.
 * - Access control off (QuestDB OSS): with `authKeys` (`line.tcp.auth.db.path`) the key file's
 *   public keys; without them, no authentication (rows written as the admin).
 */
import net from 'node:net'
import type { Database, LineWriter, LineWriterOptions, Principal, Session } from '../../lib/index.js'
import { IlpError } from '../../lib/index.js'
import { type AuthKeys, CHALLENGE_LENGTH, checkSignature, newChallenge } from './auth-db.js'

/** One event of the TCP endpoint's log. */
export interface IlpTcpLog {
  readonly msg: string
  readonly remote?: string
  readonly [key: string]: unknown
}

/** A log event before the peer's address is added. */
type LogEntry = { readonly msg: string; readonly [key: string]: unknown }

/** Options of {@link createIlpTcpServer}. */
export interface IlpTcpOptions extends LineWriterOptions {
  /** commit pending rows this often, in ms (`line.tcp.commit.interval.default`, default 2000) */
  readonly commitInterval?: number
  /** commit as soon as this many rows are pending (`cairo.max.uncommitted.rows`, default 500000) */
  readonly maxUncommittedRows?: number
  /** simultaneous connections (`line.tcp.net.connection.limit`, default 256; 0 = unlimited) */
  readonly maxConnections?: number
  /**
   * public keys of the JWK challenge with access control off (`line.tcp.auth.db.path`, see
   * `parseAuthDb`); none: no authentication. Ignored with access control on (the ACL's JWK tokens).
   */
  readonly authKeys?: AuthKeys
  /** receives disconnects on errors, failed logins and commit failures */
  readonly onLog?: (entry: IlpTcpLog) => void
}

/** The TCP endpoint's server: a `net.Server` whose {@link IlpTcpServer.drain} commits what its connections hold. */
export interface IlpTcpServer extends net.Server {
  /**
   * Shutdown: stops listening, stops reading every connection, commits the complete lines each
   * holds (an incomplete last line is dropped and logged, as at a disconnect), then ends the
   * connections. Resolves once every commit has ended, so the database can be closed after it.
   * `close(callback)` does the same and calls back when the server has closed.
   */
  drain(): Promise<void>
}

/**
 * A `net.Server` taking ILP over TCP into `db` (not yet listening). With access control on every
 * connection logs in with a JWK token of the ACL; otherwise with `authKeys`, if given. Closing
 * it commits the rows its connections hold ({@link IlpTcpServer.drain}).
 *
 * @example
 * ```ts
 * const server = createIlpTcpServer(db, { partitionBy: 'HOUR' })
 * server.listen(9009)
 * process.once('SIGTERM', () => void server.drain().then(() => db.close()))
 * ```
 */
export function createIlpTcpServer(db: Database, options: IlpTcpOptions = {}): IlpTcpServer {
  if (db.aclEnabled && options.authKeys !== undefined) {
    options.onLog?.({ msg: 'ilp: access control on, line.tcp.auth.db.path ignored (JWK tokens of the ACL used)' })
  }
  /** the shutdown of each open connection */
  const open = new Set<() => Promise<void>>()
  const server = net.createServer((socket) => serve(db, options, socket, open)) as IlpTcpServer
  const limit = options.maxConnections ?? 256
  if (limit > 0) server.maxConnections = limit
  const close = server.close.bind(server)
  let draining: Promise<void> | undefined
  server.drain = () => {
    draining ??= (async () => {
      if (server.listening) close()
      await Promise.all([...open].map((finish) => finish()))
    })()
    return draining
  }
  server.close = (callback?: (err?: Error) => void) => {
    const listening = server.listening
    void server.drain().then(() => {
      if (!listening) callback?.(Object.assign(new Error('Server is not running.'), { code: 'ERR_SERVER_NOT_RUNNING' }))
      else if (callback !== undefined) { if (server.listening) close(callback); else server.once('close', () => callback()) }
    })
    return server
  }
  return server
}

/**
 * Pending rows at which a connection starts a commit (at most one waits behind
 * the running one; it takes every row pending when it starts). The Node client's
 * `auto_flush_rows` over HTTP, so TCP batches are what HTTP requests are. Once this many rows
 * are pending the connection stops reading until the commit queued for them has taken them (at
 * once, or when the running one ends): a batch holds at most this many rows and one chunk's
 * (before, a commit waiting behind a slow one took everything that came meanwhile, up to
 * `maxUncommittedRows`).
 */
export const COMMIT_BATCH_ROWS = 75_000

function serve(db: Database, o: IlpTcpOptions, socket: net.Socket, open: Set<() => Promise<void>>): void {
  const remote = `${socket.remoteAddress ?? ''}:${socket.remotePort ?? ''}`
  const log = (entry: LogEntry): void => o.onLog?.({ ...entry, remote })
  socket.setNoDelay(true)
  let writer: LineWriter | undefined
  let chain: Promise<unknown> = Promise.resolve()
  let closed = false
  let timer: NodeJS.Timeout | undefined
  const maxRows = o.maxUncommittedRows ?? 500_000
  const batchRows = Math.min(maxRows, COMMIT_BATCH_ROWS)
  /** a commit is chained behind the running one and has not taken the rows yet (it will take every row pending then) */
  let waiting = false
  /** reading paused until the commit queued for a batch's worth of pending rows has taken them */
  let held = false

  /** Commits what the writer holds, one commit at a time; a failure closes the connection. */
  const commit = (): Promise<unknown> => {
    const w = writer
    if (w === undefined || waiting) return chain
    waiting = true
    chain = chain.then(() => {
      waiting = false
      // the commit takes the pending rows before its first await: reading may go on
      const done = w.pendingRows > 0 ? w.commit() : 0
      if (held) { held = false; if (!closed) socket.resume() }
      return done
    }).catch((e: unknown) => {
      log({ msg: 'ilp commit failed', error: (e as Error).message })
      socket.destroy()
    })
    return chain
  }

  const start = (principal: Principal): void => {
    const session: Session = db.session(principal)
    writer = db.lineWriter({ ...o, precision: o.precision ?? 'n', session })
    timer = setInterval(() => { void commit() }, o.commitInterval ?? 2000)
    timer.unref()
  }

  const ingest = (chunk: Buffer): void => {
    const w = writer!
    try {
      w.write(chunk)
    } catch (e) {
      const err = e as IlpError
      log({ msg: 'ilp line rejected, disconnecting', line: err.line, error: e instanceof IlpError ? err.reason : err.message })
      socket.pause()
      void commit().then(() => socket.destroy())
      closed = true
      return
    }
    const pending = w.pendingRows
    if (pending >= maxRows) {
      socket.pause()
      void commit().then(() => { if (!closed) socket.resume() })
    } else if (pending >= batchRows) {
      // the commit takes these rows when it starts (now, or when the running one ends): nothing more is read until then
      void commit()
      if (!held) { held = true; socket.pause() }
    }
  }

  /** Shutdown of this connection: no more reading, the complete lines committed, then the end. */
  const finish = async (): Promise<void> => {
    if (!closed) {
      closed = true
      socket.pause()
      if (timer !== undefined) clearInterval(timer)
      const partial = writer?.dropIncomplete() ?? 0
      if (partial > 0) log({ msg: 'server shutting down, partial measurement dropped', bytes: partial })
    }
    await commit()
    socket.end()
    socket.destroySoon()
  }
  open.add(finish)

  if (!db.aclEnabled && o.authKeys === undefined) {
    start({ name: 'admin', groups: [], admin: true })
    socket.on('data', (chunk: Buffer) => { if (!closed) ingest(chunk) })
  } else {
    authenticate(db, db.aclEnabled ? undefined : o.authKeys, socket, log, (principal, rest) => {
      start(principal)
      socket.on('data', (chunk: Buffer) => { if (!closed) ingest(chunk) })
      if (rest.length > 0) ingest(rest)
    })
  }
  socket.on('error', () => undefined)
  socket.on('close', () => {
    open.delete(finish)
    if (closed) return
    closed = true
    if (timer !== undefined) clearInterval(timer)
    if (writer === undefined) return
    const partial = writer.dropIncomplete()
    if (partial > 0) log({ msg: 'peer disconnected with partial measurement', bytes: partial })
    void commit()
  })
}

/**
 * Checks the challenge's signature: with `keys` (access control off) against the key file, as
 * the admin; otherwise against the ACL's JWK tokens, and the account needs `ILP`. Returns the
 * principal, or why it failed.
 */
function login(db: Database, keys: AuthKeys | undefined, keyId: string, challenge: Buffer, signature: string): Principal | string {
  if (keys !== undefined) {
    const key = keys.get(keyId)
    if (key === undefined) return 'unknown key id'
    if (!checkSignature(key, challenge, signature)) return 'bad signature'
    return { name: keyId, groups: [], admin: true }
  }
  const p = db.authenticateJwk(keyId, challenge, signature)
  if (p === null) return 'unknown or disabled account, no JWK token or bad signature'
  try { db.checkEndpoint(p, 'ILP') } catch { return 'no ILP permission' }
  return p
}

/** Runs the JWK challenge; calls `done` with the principal and the bytes after the signature line. */
function authenticate(db: Database, keys: AuthKeys | undefined, socket: net.Socket, log: (e: LogEntry) => void, done: (p: Principal, rest: Buffer) => void): void {
  let buf = Buffer.alloc(0)
  let keyId: string | undefined
  let challenge: Buffer | undefined
  const fail = (why: string): void => { log({ msg: 'ilp authentication failed', keyId, why }); socket.destroy() }
  const onData = (chunk: Buffer): void => {
    buf = Buffer.concat([buf, chunk])
    if (buf.length > CHALLENGE_LENGTH + 128) { fail('line too long'); return }
    for (;;) {
      const nl = buf.indexOf(10)
      if (nl < 0) return
      const line = buf.toString('utf8', 0, nl).replace(/\r$/, '')
      buf = buf.subarray(nl + 1)
      if (keyId === undefined) {
        keyId = line
        challenge = newChallenge()
        socket.write(Buffer.concat([challenge, Buffer.from('\n')]))
        continue
      }
      socket.off('data', onData)
      const principal = login(db, keys, keyId, challenge!, line)
      if (typeof principal === 'string') { fail(principal); return }
      done(principal, Buffer.from(buf))
      return
    }
  }
  socket.on('data', onData)
}
