/**
 * InfluxDB Line Protocol over TCP (QuestDB's port 9009): a stream of lines, no replies. Rows
 * are committed every `commitInterval` ms, when `maxUncommittedRows` are pending and when the
 * peer disconnects (a last line without its newline is then dropped). The first bad line closes
 * the connection and is logged with its reason, as QuestDB does with
 * `line.tcp.disconnect.on.error=true`; the complete lines before it are committed.
 *
 * Authentication: with `authKeys` (QuestDB's `line.tcp.auth.db.path`) each connection must pass
 * the JWK challenge first: the client sends its key id and a newline, the server 512 random
 * printable bytes and a newline, the client their ECDSA P-256 SHA-256 signature in base64 and a
 * newline; a failure closes the connection silently. With access control on, the key id must
 * also be the name of an enabled user holding the `ILP` endpoint permission, and rows are
 * written with that user's permissions; without `authKeys` the server refuses to start when
 * access control is on.
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
  /** public keys of the JWK challenge (`line.tcp.auth.db.path`, see `parseAuthDb`); none: no authentication */
  readonly authKeys?: AuthKeys
  /** receives disconnects on errors, failed logins and commit failures */
  readonly onLog?: (entry: IlpTcpLog) => void
}

/**
 * A `net.Server` taking ILP over TCP into `db` (not yet listening). Throws when access control
 * is on and no `authKeys` are given (anyone could write as the admin).
 *
 * @example
 * ```ts
 * const server = createIlpTcpServer(db, { partitionBy: 'HOUR' })
 * server.listen(9009)
 * ```
 */
export function createIlpTcpServer(db: Database, options: IlpTcpOptions = {}): net.Server {
  if (db.aclEnabled && options.authKeys === undefined) {
    throw new Error('ILP over TCP with access control on needs line.tcp.auth.db.path (JWK keys); set it or line.tcp.enabled=false')
  }
  const server = net.createServer((socket) => serve(db, options, socket))
  const limit = options.maxConnections ?? 256
  if (limit > 0) server.maxConnections = limit
  return server
}

function serve(db: Database, o: IlpTcpOptions, socket: net.Socket): void {
  const remote = `${socket.remoteAddress ?? ''}:${socket.remotePort ?? ''}`
  const log = (entry: LogEntry): void => o.onLog?.({ ...entry, remote })
  socket.setNoDelay(true)
  let writer: LineWriter | undefined
  let chain: Promise<unknown> = Promise.resolve()
  let closed = false
  let timer: NodeJS.Timeout | undefined
  const maxRows = o.maxUncommittedRows ?? 500_000

  /** Commits what the writer holds, one commit at a time; a failure closes the connection. */
  const commit = (): Promise<unknown> => {
    const w = writer
    if (w === undefined) return chain
    chain = chain.then(() => w.pendingRows > 0 ? w.commit() : 0).catch((e: unknown) => {
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
    if (w.pendingRows >= maxRows) {
      socket.pause()
      void commit().then(() => { if (!closed) socket.resume() })
    }
  }

  if (o.authKeys === undefined) {
    start(principalOf(db, undefined)!)
    socket.on('data', (chunk: Buffer) => { if (!closed) ingest(chunk) })
  } else {
    authenticate(db, o.authKeys, socket, log, (principal, rest) => {
      start(principal)
      socket.on('data', (chunk: Buffer) => { if (!closed) ingest(chunk) })
      if (rest.length > 0) ingest(rest)
    })
  }
  socket.on('error', () => undefined)
  socket.on('close', () => {
    closed = true
    if (timer !== undefined) clearInterval(timer)
    if (writer === undefined) return
    const partial = writer.dropIncomplete()
    if (partial > 0) log({ msg: 'peer disconnected with partial measurement', bytes: partial })
    void commit()
  })
}

/** The principal rows are written as: the key id's user with access control on, else the admin. */
function principalOf(db: Database, keyId: string | undefined): Principal | null {
  if (!db.aclEnabled) return { name: keyId ?? 'admin', groups: [], admin: true }
  if (keyId === undefined) return null
  const p = db.userPrincipal(keyId)
  if (p === null) return null
  try { db.checkEndpoint(p, 'ILP') } catch { return null }
  return p
}

/** Runs the JWK challenge; calls `done` with the principal and the bytes after the signature line. */
function authenticate(db: Database, keys: AuthKeys, socket: net.Socket, log: (e: LogEntry) => void, done: (p: Principal, rest: Buffer) => void): void {
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
      const key = keys.get(keyId)
      if (key === undefined) { fail('unknown key id'); return }
      if (!checkSignature(key, challenge!, line)) { fail('bad signature'); return }
      const principal = principalOf(db, keyId)
      if (principal === null) { fail('no such user, user disabled or no ILP permission'); return }
      done(principal, Buffer.from(buf))
      return
    }
  }
  socket.on('data', onData)
}
