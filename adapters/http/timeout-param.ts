/**
 * A request's query timeout, as QuestDB reads it: the `timeout` URL parameter in seconds, else
 * the `Statement-Timeout` header in milliseconds; absent, not a number or not positive, the
 * database's `queryTimeout` (`query.timeout`) applies. The engine ends a query that runs past it
 * with 57014.
 */
import type { RequestContext } from './context.js'

/** The timeout of this request in milliseconds, or undefined for the database's default. */
export function requestTimeout(ctx: RequestContext): number | undefined {
  const param = ctx.target.params.get('timeout')
  if (param !== undefined) {
    const s = Number(param)
    if (Number.isFinite(s) && s > 0) return s * 1000
    return undefined
  }
  const header = ctx.req.headers['statement-timeout']
  const ms = Number(Array.isArray(header) ? header[0] : header)
  return Number.isFinite(ms) && ms > 0 ? ms : undefined
}
