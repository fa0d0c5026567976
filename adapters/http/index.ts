/**
 * EpochDB's REST adapter: QuestDB's HTTP endpoints (`/exec`, `/exp`, `/imp`, `/chk`,
 * `/settings`, `/ping`, `/api/v1/sql/validate`) for node:http, Express and Koa.
 *
 * @example
 * ```ts
 * import http from 'node:http'
 * import { Database } from 'epochdb'
 * import { createHttpHandler } from 'epochdb/http'
 * http.createServer(createHttpHandler(await Database.open())).listen(9000)
 * ```
 * @packageDocumentation
 * @module epochdb/http
 */
export { createHttpHandler } from './handler.js'
export type { HttpHandler } from './handler.js'
export { koaHttpHandler } from './koa.js'
export type { KoaLikeContext } from './koa.js'
export { createHttpServer } from './http-server.js'
export type { HttpServerOptions } from './http-server.js'
export type { HttpHandlerOptions, Authenticate, RequestLog } from './options.js'
export type { LineHttpOptions } from './ilp-write.js'
/**
 * The standalone server's configuration (`examples/server.ts`, docs/server.md): defaults, a
 * `server.conf` properties text, then `QDB_*` environment overrides, with QuestDB's key names;
 * for hosts that embed the adapters and want the same keys.
 */
export { loadConfig, ConfigError } from './server/config.js'
export type { ServerConfig, BindAddress, AclConfig, TlsFiles } from './server/config.js'
