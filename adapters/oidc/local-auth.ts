/**
 * What the guard does with credentials that are not OIDC tokens: HTTP Basic and REST tokens
 * (`Bearer qt1…`) go to the engine's users, as do pgwire users other than `_sso`.
 */
import type { IncomingMessage } from 'node:http'
import type { Database, Principal } from '../../lib/index.js'
import type { PgCredentials } from './options.js'

/** The engine's users over HTTP: Basic (`db.authenticate`) or a REST token (`db.authenticateToken`). */
export function localHttp(db: Database): (req: IncomingMessage) => Promise<Principal | null> {
  return async (req) => {
    const header = req.headers.authorization ?? ''
    const bearer = /^Bearer[ ]+(qt1\S*)\s*$/i.exec(header)
    if (bearer !== null) return db.authenticateToken(bearer[1]!)
    const basic = /^Basic[ ]+(\S+)\s*$/i.exec(header)
    if (basic === null) return null
    const text = Buffer.from(basic[1]!, 'base64').toString('utf8')
    const colon = text.indexOf(':')
    if (colon < 0) return null
    return db.authenticate(text.slice(0, colon), text.slice(colon + 1))
  }
}

/** The engine's users over pgwire (`db.authenticate`). */
export function localPgwire(db: Database): (c: PgCredentials) => Promise<Principal | null> {
  return (c) => db.authenticate(c.user, c.password)
}
