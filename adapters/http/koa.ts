/**
 * The REST handler as Koa middleware: requests it serves are answered directly (Koa's own
 * response handling is switched off for them); others continue down the Koa chain.
 */
import type { Database } from '../../lib/index.js'
import { createHttpHandler } from './handler.js'
import type { HttpHandlerOptions } from './options.js'

/** The parts of a Koa context the middleware uses (no dependency on Koa's types). */
export interface KoaLikeContext {
  readonly req: import('node:http').IncomingMessage
  readonly res: import('node:http').ServerResponse
  respond?: boolean
}

/**
 * Koa middleware serving QuestDB's REST endpoints from `db`.
 *
 * @example
 * ```ts
 * import Koa from 'koa'
 * import { koaHttpHandler } from 'epochdb/http'
 * const app = new Koa()
 * app.use(koaHttpHandler(db))
 * ```
 */
export function koaHttpHandler(db: Database, options: HttpHandlerOptions = {}): (ctx: KoaLikeContext, next: () => Promise<unknown>) => Promise<void> {
  const handler = createHttpHandler(db, options)
  return async (ctx, next) => {
    let passed = false
    await handler(ctx.req, ctx.res, () => { passed = true })
    if (passed) await next()
    else ctx.respond = false
  }
}
