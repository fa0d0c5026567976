/**
 * Who sends a request: the `authenticate` hook when given, built-in HTTP Basic auth when
 * `http.user`/`http.password` are set (compared byte for byte with the expected header, as
 * QuestDB does), the built-in admin otherwise.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ADMIN, type Principal } from '../../lib/index.js'
import type { ResolvedOptions } from './options.js'
import { TEXT_TYPE, sendBody } from './response.js'

/** The request's principal, or null when it is not authenticated. A throwing hook counts as not authenticated. */
export async function authenticate(req: IncomingMessage, o: ResolvedOptions): Promise<Principal | null> {
  if (o.authenticate !== undefined) {
    try {
      return await o.authenticate(req)
    } catch {
      return null
    }
  }
  if (o.basicAuth === undefined) return ADMIN
  if (req.headers.authorization !== o.basicAuth) return null
  return { name: o.basicUser!, groups: [], admin: true }
}

/** QuestDB's 401: text/plain `Unauthorized`, no `WWW-Authenticate` header. */
export function sendUnauthorized(res: ServerResponse): void {
  sendBody(res, 401, TEXT_TYPE, 'Unauthorized\r\n')
}
