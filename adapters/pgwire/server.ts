/**
 * Entry points: a ready `net.Server` speaking the PostgreSQL wire protocol, or a connection
 * handler to attach to a server the host application already owns.
 */
import { type Server, type Socket, createServer } from 'node:net'
import type { Database } from '../../lib/index.js'
import { AddressSlots } from '../../lib/internal.js'
import { CancelRegistry } from './cancel-registry.js'
import { PgConnection } from './connection.js'
import { type PgwireOptions, resolveOptions } from './options.js'

/** A `connection` listener that serves each socket as a PostgreSQL client. */
export type PgwireHandler = ((socket: Socket) => void) & {
  /** live logged-in connections */
  readonly connections: () => number
  /**
   * Ends every connection for a shutdown: each gets FATAL 57P01 `terminating connection due to
   * administrator command` (a busy one once its current statement is answered) and is closed.
   * Call it after `db.close({ cancel: true })`, so running statements were cancelled first.
   */
  readonly terminate: () => void
}

/** A `net.Server` speaking pgwire, with its handler's `terminate`. */
export type PgwireServer = Server & {
  /** the handler's `terminate`, for this server's connections */
  readonly terminateConnections: () => void
}

/**
 * A connection handler for any `net.Server`.
 *
 * @example
 * ```ts
 * const server = net.createServer()
 * server.on('connection', createPgwireHandler(db, { password: 'secret' }))
 * server.listen(8812)
 * ```
 */
export function createPgwireHandler(db: Database, options: PgwireOptions = {}): PgwireHandler {
  const opts = resolveOptions(options)
  const registry = new CancelRegistry()
  const limit = opts.maxConnections > 0 ? opts.maxConnections : Infinity
  // sockets served, and sockets over the limit waiting for their startup message to be refused
  let open = 0
  let refusing = 0
  const live = new Set<PgConnection>()
  const perAddress = new AddressSlots(opts.maxConnectionsPerAddress)
  const serve = (socket: Socket, refusal: string | undefined, closed: () => void): void => {
    const c: PgConnection = new PgConnection(socket, db, opts, registry, { refuse: refusal !== undefined, refusal, closed: () => { live.delete(c); closed() } })
    live.add(c)
  }
  const refuse = (socket: Socket, refusal: string): void => {
    if (refusing < limit) {
      refusing++
      serve(socket, refusal, () => { refusing-- })
    } else {
      socket.destroy() // a flood: at most twice the limit of sockets are kept open
    }
  }
  const handler = (socket: Socket): void => {
    // one address may not hold every slot (CancelRequests, sent on a connection of their own, are still served)
    const release = perAddress.take(socket.remoteAddress)
    if (release === undefined) {
      refuse(socket, `too many connections from this address [limit=${opts.maxConnectionsPerAddress}] (epochdb.pg.net.connection.limit.per.address)`)
    } else if (open < limit) {
      open++
      serve(socket, undefined, () => { open--; release() })
    } else {
      release()
      refuse(socket, 'sorry, too many clients already')
    }
  }
  const terminate = (): void => { for (const c of [...live]) c.terminate() }
  return Object.assign(handler, { connections: () => registry.size, terminate })
}

/**
 * A `net.Server` speaking the PostgreSQL wire protocol over `db` (call `listen` yourself;
 * QuestDB's port is 8812).
 *
 * @example
 * ```ts
 * import { Database } from 'epochdb'
 * import { createPgwireServer } from 'epochdb/pgwire'
 * const db = await Database.open()
 * createPgwireServer(db).listen(8812, '127.0.0.1')
 * // psql -h 127.0.0.1 -p 8812 -U admin   (password: quest)
 * ```
 */
export function createPgwireServer(db: Database, options: PgwireOptions = {}): PgwireServer {
  const server = createServer()
  const handler = createPgwireHandler(db, options)
  server.on('connection', handler)
  return Object.assign(server, { terminateConnections: handler.terminate })
}
