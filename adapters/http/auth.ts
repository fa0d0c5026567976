/**
 * Who sends a request: the `authenticate` hook when given, built-in HTTP Basic auth when
 * `http.user`/`http.password` are set (the whole header compared in constant time with the
 * expected one), the built-in admin otherwise.
 *
 * With access control on (`db.aclEnabled`), the engine's users answer instead of `http.user`:
 * HTTP Basic is checked with `db.authenticate`, `Authorization: Bearer qt1…` (a REST token) with
 * `db.authenticateToken`. The hook still goes first; when it answers null, those credentials are
 * tried. Unknown user and wrong password answer the same 401.
 *
 * Basic-auth attempts go through the login throttle: a client address or user name that failed
 * too often gets 429 with `Retry-After` (even with the right credentials) until its lock-out
 * ends. A request without an `Authorization` header is not an attempt: it gets 401 uncounted.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ADMIN, type Database, type Principal } from '../../lib/index.js'
import type { ResolvedOptions } from './options.js'
import { JSON_TYPE, TEXT_TYPE, errorBody, sendBody } from './response.js'

/** A refused Basic-auth attempt from a locked-out client. */
export interface LockedOut {
  readonly retryAfterMs: number
  /** `busy`: too many attempts in progress rather than too many failures */
  readonly busy: boolean
}

/** A hook's refusal other than 401: 403 (no HTTP permission) or 503 (identity provider down). */
export interface Refused {
  readonly status: 403 | 503
  readonly message: string
}

/** Principals of the requests being served, for the request log. */
const principals = new WeakMap<IncomingMessage, Principal>()

/** The principal `req` was authenticated as, if it was. */
export function principalOf(req: IncomingMessage): Principal | undefined {
  return principals.get(req)
}

/**
 * The request's principal, null when it is not authenticated, {@link LockedOut} when the
 * client may not try now, or {@link Refused} when the hook threw an error with `status` 403 or
 * 503. Any other throw counts as not authenticated.
 */
export async function authenticate(req: IncomingMessage, o: ResolvedOptions, db: Database): Promise<Principal | LockedOut | Refused | null> {
  // the console's server session (exec?session=true): the cookie stands for the credentials
  if (req.headers.authorization === undefined && req.headers.cookie !== undefined) {
    const s = o.sessions.principalOf(req)
    if (s !== undefined) { principals.set(req, s); return s }
  }
  if (o.authenticate !== undefined) {
    let p: Principal | null
    try {
      p = await o.authenticate(req)
    } catch (e) {
      const status = (e as { status?: unknown }).status
      if (status === 403 || status === 503) return { status, message: (e as Error).message }
      p = null
    }
    if (p !== null) principals.set(req, p)
    if (p !== null || !db.aclEnabled) return p
  }
  if (db.aclEnabled) {
    const p = await engineLogin(req, o, db)
    if (p !== null && !isLockedOut(p)) principals.set(req, p)
    return p
  }
  if (o.basicAuth === undefined) return ADMIN
  const header = req.headers.authorization
  if (header === undefined) return null
  const gate = o.loginThrottle?.begin(basicUser(header), req.socket.remoteAddress)
  if (gate !== undefined && !gate.allowed) return { retryAfterMs: gate.retryAfterMs, busy: gate.reason === 'busy' }
  if (!constantTimeEqual(header, o.basicAuth)) { gate?.failed(); return null }
  gate?.succeeded()
  return { name: o.basicUser!, groups: [], admin: true }
}

/** REST tokens start with this (QuestDB's `qt1…`); other Bearer tokens are not the engine's. */
const REST_TOKEN_PREFIX = 'qt1'

/** Basic or a REST token, checked against the engine's users through the login throttle. */
async function engineLogin(req: IncomingMessage, o: ResolvedOptions, db: Database): Promise<Principal | LockedOut | null> {
  const header = req.headers.authorization
  if (header === undefined) return null
  const basic = /^basic\s+(\S+)\s*$/i.exec(header)
  const bearer = basic === null ? /^bearer\s+(\S+)\s*$/i.exec(header) : null
  if (basic === null && (bearer === null || !bearer[1]!.startsWith(REST_TOKEN_PREFIX))) return null
  // a token is counted per client address only: its own key, so bad tokens lock no user out
  const who = basic !== null ? basicUser(header) : `\0token:${createHash('sha256').update(bearer![1]!).digest('base64').slice(0, 16)}`
  const gate = o.loginThrottle?.begin(who, req.socket.remoteAddress)
  if (gate !== undefined && !gate.allowed) return { retryAfterMs: gate.retryAfterMs, busy: gate.reason === 'busy' }
  let p: Principal | null = null
  try {
    if (basic !== null) {
      const text = Buffer.from(basic[1]!, 'base64').toString('utf8')
      const colon = text.indexOf(':')
      if (colon >= 0) p = await db.authenticate(text.slice(0, colon), text.slice(colon + 1))
    } else {
      p = await db.authenticateToken(bearer![1]!)
    }
  } catch {
    p = null
  }
  if (p === null) gate?.failed()
  else gate?.succeeded()
  return p
}

/** True when `a` is a {@link LockedOut} answer. */
export function isLockedOut(a: Principal | LockedOut | Refused): a is LockedOut {
  return (a as Partial<LockedOut>).retryAfterMs !== undefined
}

/** True when `a` is a {@link Refused} answer. */
export function isRefused(a: Principal | Refused): a is Refused {
  return typeof (a as Partial<Refused>).status === 'number'
}

/** 403 or 503 with QuestDB's JSON error body (`Access denied for <sub> [HTTP]`). */
export function sendRefused(res: ServerResponse, r: Refused): void {
  sendBody(res, r.status, JSON_TYPE, errorBody('', r.message, 0), r.status === 503 ? { 'Retry-After': '5' } : undefined)
}

/** The user name of a Basic `Authorization` header ('' when it is not Basic or not decodable). */
function basicUser(header: string): string {
  const m = /^basic\s+(\S+)/i.exec(header)
  if (m === null) return ''
  const text = Buffer.from(m[1]!, 'base64').toString('utf8')
  const colon = text.indexOf(':')
  return colon < 0 ? text : text.slice(0, colon)
}

function constantTimeEqual(a: string, b: string): boolean {
  const h = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest()
  return timingSafeEqual(h(a), h(b))
}

/** QuestDB's 401: text/plain `Unauthorized`, no `WWW-Authenticate` header. */
export function sendUnauthorized(res: ServerResponse): void {
  sendBody(res, 401, TEXT_TYPE, 'Unauthorized\r\n')
}

/** 429 with `Retry-After` (seconds) and a QuestDB-style JSON error. */
export function sendLockedOut(res: ServerResponse, l: LockedOut): void {
  const seconds = Math.max(1, Math.ceil(l.retryAfterMs / 1000))
  const what = l.busy ? 'too many login attempts in progress' : 'too many failed login attempts'
  sendBody(res, 429, JSON_TYPE, errorBody('', `${what}, retry in ${seconds} s`, 0), { 'Retry-After': String(seconds) })
}
