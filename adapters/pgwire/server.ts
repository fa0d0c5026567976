/**
 * Entry points: a ready `net.Server` speaking the PostgreSQL wire protocol, or a connection
 * handler to attach to a server the host application already owns.
 */
import { type Server, type Socket, createServer } from 'node:net'
import type { Database } from '../../lib/index.js'
import { CancelRegistry } from './cancel-registry.js'
import { PgConnection } from './connection.js'
import { type PgwireOptions, resolveOptions } from './options.js'

/** A `connection` listener that serves each socket as a PostgreSQL client. */
export type PgwireHandler = ((socket: Socket) => void) & {
  /** live logged-in connections */
  readonly connections: () => number
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
  const handler = (socket: Socket): void => {
    if (open < limit) {
      open++
      new PgConnection(socket, db, opts, registry, { refuse: false, closed: () => { open-- } })
    } else if (refusing < limit) {
      refusing++
      new PgConnection(socket, db, opts, registry, { refuse: true, closed: () => { refusing-- } })
    } else {
      socket.destroy() // a flood: at most twice the limit of sockets are kept open
    }
  }
  return Object.assign(handler, { connections: () => registry.size })
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
export function createPgwireServer(db: Database, options: PgwireOptions = {}): Server {
  const server = createServer()
  server.on('connection', createPgwireHandler(db, options))
  return server
}
