/**
 * Refusing requests a browser sends on behalf of another site (CSRF: an `<img>`, a form or a
 * `fetch` on a foreign page aimed at `/exec?query=drop+table+t`) and requests whose `Host` names
 * a foreign domain on a loopback connection (DNS rebinding). QuestDB's own clients send neither
 * `Origin` nor `Sec-Fetch-Site`, so they pass unchanged.
 *
 * The rule, per request:
 * 1. `Sec-Fetch-Site` (set by the browser, a page cannot forge it): `same-origin` and `none`
 *    (typed URL, bookmark) pass; `same-site` and `cross-site` pass only when `Origin` is on the
 *    allow-list. `same-site` is refused too: a page on localhost:3000 is "same-site" with
 *    localhost:9000, since ports do not count in a site.
 * 2. No `Sec-Fetch-Site` (older browsers, tools): an `Origin` must equal the request's own
 *    origin (its `Host`) or be on the allow-list.
 * 3. Neither header: a `Referer` from another origin is refused; no `Referer` passes.
 */
import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'

/** Origins (`scheme://host[:port]`) or host names allowed in, or `'*'` for any. */
export type AllowList = ReadonlySet<string> | '*'

/** Normalises configured origins (`https://App.example.com:443` → `https://app.example.com`); throws on a value that is not an origin. */
export function originAllowList(origins: readonly string[] | undefined): AllowList {
  if (origins === undefined) return new Set()
  if (origins.includes('*')) return '*'
  return new Set(origins.map((o) => {
    let u: URL
    try { u = new URL(o) } catch { throw new Error(`not an origin (scheme://host[:port]): '${o}'`) }
    if (u.origin === 'null' || (u.pathname !== '/' && u.pathname !== '') || u.search !== '' || u.hash !== '') throw new Error(`not an origin (scheme://host[:port]): '${o}'`)
    return u.origin
  }))
}

/** Normalises configured host names (lower case, no port). */
export function hostAllowList(hosts: readonly string[] | undefined): AllowList {
  if (hosts === undefined) return new Set()
  if (hosts.includes('*')) return '*'
  return new Set(hosts.map((h) => hostname(h)))
}

/** Why a request is refused as cross-site, or undefined when it may proceed. */
export function crossSiteRefusal(req: IncomingMessage, allowed: AllowList): string | undefined {
  if (allowed === '*') return undefined
  const site = header(req, 'sec-fetch-site')
  const origin = header(req, 'origin')
  const onList = origin !== undefined && allowed.has(normalOrigin(origin) ?? '')
  if (site !== undefined) {
    if (site === 'same-origin' || site === 'none' || onList) return undefined
    return `cross-site request refused [sec-fetch-site=${site}${origin === undefined ? '' : `, origin=${origin}`}]; allow its origin with http.security.allowed.origins`
  }
  if (origin !== undefined) {
    if (onList || sameOrigin(origin, header(req, 'host'))) return undefined
    return `cross-origin request refused [origin=${origin}]; allow it with http.security.allowed.origins`
  }
  const referer = header(req, 'referer')
  if (referer === undefined) return undefined
  const from = normalOrigin(referer)
  if (from !== undefined && (allowed.has(from) || sameOrigin(from, header(req, 'host')))) return undefined
  return `cross-origin request refused [referer=${from ?? referer}]; allow its origin with http.security.allowed.origins`
}

/**
 * Why a request's `Host` is refused (DNS rebinding), or undefined. IP literals, `localhost` and
 * `*.localhost` always pass, as does any name on the allow-list. With an empty allow-list only
 * connections that arrived on a loopback address are checked (a server on a network is reached
 * by names it cannot know); with a non-empty one, every connection is.
 */
export function hostRefusal(req: IncomingMessage, allowed: AllowList): string | undefined {
  if (allowed === '*') return undefined
  const host = header(req, 'host')
  if (host === undefined) return undefined
  const name = hostname(host)
  if (isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost') || allowed.has(name)) return undefined
  if (allowed.size === 0 && !isLoopback(req.socket.localAddress)) return undefined
  return `request refused: the Host header names a domain this server does not serve [host=${host}]; add it to http.security.allowed.hosts`
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name]
  return typeof v === 'string' ? v : undefined
}

/** `scheme://host[:port]` of a URL (default port dropped), or undefined when it is not one (`null`). */
function normalOrigin(url: string): string | undefined {
  try {
    const o = new URL(url).origin
    return o === 'null' ? undefined : o
  } catch {
    return undefined
  }
}

/** True when `origin` names the host (and port) the request was sent to. */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false
  let u: URL
  try { u = new URL(origin) } catch { return false }
  if (u.origin === 'null') return false
  const port = u.port !== '' ? u.port : u.protocol === 'https:' ? '443' : '80'
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host.trim())
  if (m === null) return false
  return m[1]!.toLowerCase() === u.hostname.toLowerCase() && (m[2] ?? port) === port
}

/** The host name of a `Host` value: lower case, port and IPv6 brackets removed. */
function hostname(host: string): string {
  const h = host.trim().toLowerCase()
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') < 0 ? h.length : h.indexOf(']'))
  const colon = h.indexOf(':')
  return (colon < 0 ? h : h.slice(0, colon)).replace(/\.$/, '')
}

function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.')
}
