/**
 * Options of {@link createHttpHandler}: authentication, limits and the console's settings.
 */
import { HttpSessions } from './session-cookie.js'
import type { IncomingMessage } from 'node:http'
import { LoginThrottle, type Principal } from '../../lib/index.js'
import { type AllowList, hostAllowList, originAllowList } from './cross-site.js'
import type { LineHttpOptions } from './ilp-write.js'

/**
 * Resolves the principal of a request, or null when the request is not authenticated (the
 * handler answers 401 as QuestDB does). May be async (an OIDC guard validates a Bearer token).
 * A hook that throws an error with `status` 403 or 503 gets that status with the error's
 * message (403: no HTTP permission; 503: the identity provider cannot answer); any other
 * throw answers 401.
 */
export type Authenticate = (req: IncomingMessage) => Principal | null | Promise<Principal | null>

/** One finished request, for access logs (`onRequest`). */
export interface RequestLog {
  readonly method: string
  /** path without the query string */
  readonly path: string
  readonly status: number
  /** wall time from the request's arrival to the end of the response, in milliseconds */
  readonly ms: number
  /** rows sent (/exec, /exp) or imported (/imp); 0 otherwise */
  readonly rows: number
  /** the authenticated principal's name (an OIDC subject), when the request got that far */
  readonly user?: string
  /** its display name, for external principals */
  readonly name?: string
}

/** Options of {@link createHttpHandler}. */
export interface HttpHandlerOptions {
  /**
   * Resolves the principal of each request (except /ping and /settings, which QuestDB leaves
   * open). Overrides `user`/`password`. Default: Basic auth when `user`/`password` are set,
   * otherwise every request runs as the built-in admin.
   */
  readonly authenticate?: Authenticate
  /** `http.user`: enables HTTP Basic auth together with `password` */
  readonly user?: string
  /** `http.password` */
  readonly password?: string
  /** longest accepted request target (path + query string), in bytes; longer answers 414 (default 65536) */
  readonly maxQueryLength?: number
  /** answer 400 to query-string parameters the endpoint does not know (default true) */
  readonly rejectUnknownParams?: boolean
  /** `http.security.readonly`: writes answer 403 (default false) */
  readonly readOnly?: boolean
  /** rows sent per /exec or /exp response at most (`http.security.max.response.rows`; default unlimited) */
  readonly maxResponseRows?: number
  /**
   * `http.security.allowed.origins`: origins (`https://app.example.com`) whose pages may call
   * the endpoints from the browser; `['*']` turns the cross-site check off. Default none: a
   * request a browser marks as same-site or cross-site (an `<img>`, a form, a `fetch` from
   * another page) answers 403. Clients that are not browsers are not affected.
   */
  readonly allowedOrigins?: readonly string[]
  /**
   * `http.security.allowed.hosts`: host names accepted in the `Host` header besides IP
   * literals and `localhost` (DNS rebinding). Default none: a foreign name is refused on
   * loopback connections only; when set, on every connection. `['*']` turns the check off.
   */
  readonly allowedHosts?: readonly string[]
  /** release version reported by /settings (default the package version) */
  readonly releaseVersion?: string
  /** more `/settings` config keys, e.g. an OIDC guard's `acl.oidc.*` (`guard.settings`) */
  readonly settings?: Readonly<Record<string, string | number | boolean | null>>
  /**
   * The protocols that accept writes, reported by /settings as `accepting.writes` (the Web
   * Console reads it). Default: `http` unless `readOnly`, and `pgwire`; the standalone server
   * passes the real list (`pg.security.readonly`, disabled interfaces).
   */
  readonly acceptingWrites?: readonly string[]
  /**
   * Failed Basic-auth logins limited per client address and per user (429 while locked out);
   * share one {@link LoginThrottle} with the pgwire adapter to share the counts. Default a
   * throttle of its own with the default limits; `false` for none. Not applied to `authenticate`.
   */
  readonly loginThrottle?: LoginThrottle | false
  /** called once per finished request (access log) */
  readonly onRequest?: (entry: RequestLog) => void
  /** idle ms after which a console session (`exec?session=true`) ends, default 1800000 (`http.session.timeout`) */
  readonly sessionTimeoutMs?: number
  /** the clock in milliseconds (Content-Disposition default file names); default `Date.now` */
  readonly now?: () => number
  /** InfluxDB Line Protocol over HTTP (POST /write, /api/v2/write): on by default; see docs/ilp.md */
  readonly lineProtocol?: LineHttpOptions
}

/** Options with every default filled in. */
export interface ResolvedOptions {
  readonly authenticate: Authenticate | undefined
  /** the expected `Authorization` header when Basic auth is on */
  readonly basicAuth: string | undefined
  /** `http.user`, the principal name Basic auth resolves to */
  readonly basicUser: string | undefined
  readonly maxQueryLength: number
  readonly rejectUnknownParams: boolean
  readonly readOnly: boolean
  readonly maxResponseRows: number
  readonly allowedOrigins: AllowList
  readonly allowedHosts: AllowList
  readonly releaseVersion: string
  readonly settings: Readonly<Record<string, string | number | boolean | null>>
  readonly acceptingWrites: readonly string[]
  /** failed Basic-auth limits, undefined when off */
  readonly loginThrottle: LoginThrottle | undefined
  readonly onRequest: ((entry: RequestLog) => void) | undefined
  /** the console's server sessions (`exec?session=true`, cookie `qdb_session`) */
  readonly sessions: HttpSessions
  readonly now: () => number
  readonly lineProtocol: LineHttpOptions
}

/** Default request-target limit, close to QuestDB's 64,448-byte header buffer. */
export const DEFAULT_MAX_QUERY_LENGTH = 65536

/** Fills in defaults; rejects a user without a password (and vice versa) as QuestDB does. */
export function resolveOptions(o: HttpHandlerOptions): ResolvedOptions {
  if ((o.user === undefined) !== (o.password === undefined)) throw new Error('http.user and http.password must be set together')
  return {
    authenticate: o.authenticate,
    basicAuth: o.user === undefined ? undefined : 'Basic ' + Buffer.from(`${o.user}:${o.password}`, 'utf8').toString('base64'),
    basicUser: o.user,
    maxQueryLength: o.maxQueryLength ?? DEFAULT_MAX_QUERY_LENGTH,
    rejectUnknownParams: o.rejectUnknownParams ?? true,
    readOnly: o.readOnly ?? false,
    maxResponseRows: o.maxResponseRows ?? Number.MAX_SAFE_INTEGER,
    allowedOrigins: originAllowList(o.allowedOrigins),
    allowedHosts: hostAllowList(o.allowedHosts),
    releaseVersion: o.releaseVersion ?? '0.1.0',
    settings: o.settings ?? {},
    acceptingWrites: o.acceptingWrites ?? (o.readOnly === true ? ['pgwire'] : ['http', 'pgwire']),
    loginThrottle: o.loginThrottle === false ? undefined : o.loginThrottle ?? new LoginThrottle(),
    onRequest: o.onRequest,
    now: o.now ?? Date.now,
    lineProtocol: o.lineProtocol ?? {},
    sessions: new HttpSessions(o.sessionTimeoutMs, undefined, o.now),
  }
}
