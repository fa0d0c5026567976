/**
 * The console's server session (QuestDB's `exec?...&session=true`): after signing in, the console
 * asks `/exec?query=...&session=true` with its credentials; the answer sets the cookie
 * `qdb_session=qs1…` (HttpOnly; Path=/; SameSite=Strict; Max-Age=2592000, QuestDB's attributes),
 * and later requests that carry the cookie and no `Authorization` header run as the same
 * principal. `session=false` ends the session and clears the cookie (the console's sign-out).
 *
 * Sessions live in memory, expire after `timeoutMs` without use (each use extends them), and are
 * bounded in number (the oldest go first). The principal is kept as it was authenticated;
 * its permissions are still resolved at each statement, and a disabled user is still refused.
 */
import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Principal } from '../../lib/index.js'

/** QuestDB's cookie name and id prefix. */
export const SESSION_COOKIE = 'qdb_session'
export const SESSION_PREFIX = 'qs1'
/** QuestDB's cookie lifetime (seconds); the server-side idle timeout decides sooner. */
const MAX_AGE = 2592000

/** Server sessions by id. */
export class HttpSessions {
  private readonly byId = new Map<string, { principal: Principal; expires: number }>()

  /** @param timeoutMs idle time after which a session ends; @param maxSessions the most kept at once */
  constructor(private readonly timeoutMs = 30 * 60_000, private readonly maxSessions = 10_000, private readonly now: () => number = Date.now) {}

  /** A new session for `principal`; its id. */
  create(principal: Principal): string {
    const id = SESSION_PREFIX + randomBytes(32).toString('base64url')
    if (this.byId.size >= this.maxSessions) this.byId.delete(this.byId.keys().next().value!)
    this.byId.set(id, { principal, expires: this.now() + this.timeoutMs })
    return id
  }

  /** The principal of the request's session cookie (its expiry extended), or undefined. */
  principalOf(req: IncomingMessage): Principal | undefined {
    const id = cookieValue(req)
    if (id === undefined) return undefined
    const s = this.byId.get(id)
    if (s === undefined) return undefined
    const now = this.now()
    if (s.expires <= now) { this.byId.delete(id); return undefined }
    s.expires = now + this.timeoutMs
    return s.principal
  }

  /** Ends the request's session, if any. */
  destroy(req: IncomingMessage): void {
    const id = cookieValue(req)
    if (id !== undefined) this.byId.delete(id)
  }

  /** How many sessions are open. */
  get size(): number {
    return this.byId.size
  }

  /**
   * Applies `/exec`'s `session` parameter for an authenticated request: `true` starts a session
   * (Set-Cookie), `false` ends the request's session and clears the cookie.
   */
  apply(req: IncomingMessage, res: ServerResponse, param: string | null | undefined, principal: Principal): void {
    if (param === 'true') res.setHeader('set-cookie', `${SESSION_COOKIE}=${this.create(principal)}; HttpOnly; Path=/; SameSite=Strict; Max-Age=${MAX_AGE}`)
    else if (param === 'false') { this.destroy(req); res.setHeader('set-cookie', `${SESSION_COOKIE}=; HttpOnly; Path=/; SameSite=Strict; Max-Age=0`) }
  }
}

function cookieValue(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie
  if (header === undefined || header.length > 8192) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue
    const v = part.slice(eq + 1).trim()
    if (v.startsWith(SESSION_PREFIX) && v.length <= 128) return v
  }
  return undefined
}
