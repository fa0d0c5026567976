/**
 * EpochDB's PostgreSQL wire protocol adapter: psql, JDBC, node `pg` / `postgres`, psycopg and
 * asyncpg connect to an EpochDB `Database` as they would to QuestDB on port 8812.
 *
 * @example
 * ```ts
 * import { Database } from 'epochdb'
 * import { createPgwireServer } from 'epochdb/pgwire'
 * const db = await Database.open()
 * createPgwireServer(db, { user: 'admin', password: 'quest' }).listen(8812, '127.0.0.1')
 * ```
 * @packageDocumentation
 * @module epochdb/pgwire
 */
export { createPgwireServer, createPgwireHandler } from './server.js'
export type { PgwireHandler, PgwireServer } from './server.js'
export type { PgwireOptions, Credentials, AuthMethod } from './options.js'
export { Oid, PG_TYPES } from './pg-types.js'
export type { PgType } from './pg-types.js'
