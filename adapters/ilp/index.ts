/**
 * EpochDB's InfluxDB Line Protocol adapter over TCP (QuestDB's port 9009), with QuestDB's JWK
 * challenge authentication. ILP over HTTP (`POST /write`) is served by the REST adapter
 * (`epochdb/http`); both write through `Database.lineWriter` (see docs/ilp.md).
 *
 * @example
 * ```ts
 * import { Database } from 'epochdb'
 * import { createIlpTcpServer } from 'epochdb/ilp'
 * createIlpTcpServer(await Database.open({ path: './data' })).listen(9009)
 * ```
 * @packageDocumentation
 * @module epochdb/ilp
 */
export { createIlpTcpServer } from './tcp-server.js'
export type { IlpTcpOptions, IlpTcpLog, IlpTcpServer } from './tcp-server.js'
export { parseAuthDb, checkSignature, newChallenge, CHALLENGE_LENGTH } from './auth-db.js'
export type { AuthKeys } from './auth-db.js'
export { ILP_KEYS, ilpConfig } from './server-keys.js'
export type { IlpConfig, IlpKeyReader } from './server-keys.js'
