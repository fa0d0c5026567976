/** POST /imp (placeholder). */
import type { RequestContext } from '../context.js'
import { sendJson } from '../response.js'

/** Answers one /imp request; resolves to the number of rows imported. */
export async function handleImp(ctx: RequestContext): Promise<number> {
  sendJson(ctx.res, 501, '{"status":"not implemented"}')
  return 0
}
