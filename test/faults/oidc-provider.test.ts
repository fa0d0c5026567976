/**
 * A misbehaving identity provider: malformed discovery documents, user-info answering HTML,
 * 10 MB bodies, a provider that never answers, claims of the wrong type. Each gives a clear
 * start-up error naming the key, or 401 / 503 — never a crash, a hang or a 10 MB allocation
 * kept. The bad provider is a plain node:http server playing the attacker; the guard is real.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { Database } from '../../lib/index.js'
import { createOidcGuard, OidcConfigError } from '../../adapters/oidc/index.js'
import { createHttpServer } from '../../adapters/http/index.js'
import { get } from '../adapters/http/helpers.js'

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, base: string) => void

/** A provider whose every answer comes from `handler`. */
async function badProvider(handler: Handler): Promise<{ base: string; close(): Promise<void> }> {
  const server = http.createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  server.on('request', (req, res) => handler(req, res, base))
  return { base, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()) }) }
}

const discovery = (base: string, drop?: string): string => JSON.stringify(Object.fromEntries(Object.entries({
  issuer: base, authorization_endpoint: `${base}/auth`, token_endpoint: `${base}/token`, userinfo_endpoint: `${base}/me`, jwks_uri: `${base}/jwks`,
}).filter(([k]) => k !== drop)))

const TEN_MB = Buffer.alloc(10 * 1024 * 1024, 'a')

t.test('a discovery document that cannot be used stops start-up naming acl.oidc.configuration.url', async (t) => {
  const cases: [string, Handler][] = [
    ['HTML', (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>')],
    ['a JSON array', (_q, res) => res.end('[1,2]')],
    ['HTTP 500', (_q, res) => res.writeHead(500).end('{}')],
    ['no userinfo_endpoint', (_q, res, b) => res.end(discovery(b, 'userinfo_endpoint'))],
    ['no jwks_uri', (_q, res, b) => res.end(discovery(b, 'jwks_uri'))],
    ['an endpoint of the wrong type', (_q, res, b) => res.end(JSON.stringify({ ...JSON.parse(discovery(b)), token_endpoint: 42 }))],
    ['an https endpoint with tls.enabled=false', (_q, res, b) => res.end(JSON.stringify({ ...JSON.parse(discovery(b)), token_endpoint: 'https://elsewhere/token' }))],
    ['10 MB', (_q, res) => res.end(TEN_MB)],
    ['10 MB without Content-Length', (_q, res) => { res.writeHead(200, { 'transfer-encoding': 'chunked' }); for (let i = 0; i < 10; i++) res.write(TEN_MB.subarray(0, 1024 * 1024)); res.end() }],
    ['no answer', () => undefined],
  ]
  const db = await Database.open()
  t.teardown(() => db.close())
  for (const [what, handler] of cases) {
    const p = await badProvider(handler)
    const started = Date.now()
    const err = await createOidcGuard(db, { configurationUrl: `${p.base}/.well-known/openid-configuration`, tlsEnabled: false, clientId: 'c', groupsClaim: 'groups', httpTimeoutMs: 500 }).then(() => undefined, (e: unknown) => e)
    t.type(err, OidcConfigError, what)
    t.match((err as Error).message, /^acl\.oidc\.configuration\.url/, `${what}: ${(err as Error).message}`)
    t.ok(Date.now() - started < 10_000, `${what}: did not hang`)
    await p.close()
  }
})

t.test('user-info answering badly: 503 (HTML, 10 MB, 500, a redirect, no answer) or 401 (wrong-typed claims)', async (t) => {
  let userinfo: Handler = () => undefined
  const p = await badProvider((req, res, base) => {
    if (req.url === '/.well-known/openid-configuration') { res.end(discovery(base)); return }
    userinfo(req, res, base)
  })
  const db = await Database.open()
  const guard = await createOidcGuard(db, { configurationUrl: `${p.base}/.well-known/openid-configuration`, tlsEnabled: false, clientId: 'c', groupsClaim: 'groups', httpTimeoutMs: 500, cacheTtlMs: 0, negativeCacheTtlMs: 0 })
  const server = createHttpServer(db, { authenticate: guard.http })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as AddressInfo).port
  t.teardown(async () => { server.closeAllConnections(); server.close(); await p.close(); await db.close() })
  const ask = async (): Promise<{ status: number; body: string }> => get(port, '/exec?query=select+1', { authorization: 'Bearer some-token' })
  const cases: [string, Handler, number, RegExp?][] = [
    ['HTML 200', (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>please log in</html>'), 503, /not JSON/],
    ['10 MB', (_q, res) => res.end(TEN_MB), 503, /buffer\.size/],
    ['HTTP 500', (_q, res) => res.writeHead(500).end(), 503, /HTTP 500/],
    ['a redirect to a login page', (_q, res) => res.writeHead(302, { location: '/login' }).end(), 503, /HTTP 302/],
    ['no answer (timeout)', () => undefined, 503, /within 500 ms/],
    ['the connection reset', (req) => req.socket.destroy(), 503],
    ['HTTP 401', (_q, res) => res.writeHead(401).end(), 401],
    ['sub is a number', (_q, res) => res.end('{"sub":123,"groups":["g"]}'), 401],
    ['groups is an object', (_q, res) => res.end('{"sub":"u","groups":{"a":1}}'), 401],
    ['groups holds numbers', (_q, res) => res.end('{"sub":"u","groups":[1,2]}'), 401],
    ['no sub', (_q, res) => res.end('{"groups":["g"]}'), 401],
    ['a 2,000-group claim', (_q, res) => res.end(JSON.stringify({ sub: 'u', groups: Array.from({ length: 2000 }, (_, i) => `g${i}`) })), 401],
    ['valid', (_q, res) => res.end('{"sub":"u","groups":["g"]}'), 200],
  ]
  for (const [what, handler, status, body] of cases) {
    userinfo = handler
    const started = Date.now()
    const r = await ask()
    t.equal(r.status, status, `${what}: ${r.body.trim()}`)
    if (body !== undefined) t.match(JSON.parse(r.body).error, body)
    t.ok(Date.now() - started < 10_000, `${what}: did not hang`)
  }
  t.ok(process.memoryUsage().rss < 1.5e9, 'memory stays bounded')
})

t.test('JWT mode: a key set of 10 MB or not JSON gives 503; a forged token with alg none gives 401', async (t) => {
  let jwks: Handler = (_q, res) => res.end(TEN_MB)
  const p = await badProvider((req, res, base) => {
    if (req.url === '/.well-known/openid-configuration') { res.end(discovery(base)); return }
    jwks(req, res, base)
  })
  const db = await Database.open()
  const guard = await createOidcGuard(db, { configurationUrl: `${p.base}/.well-known/openid-configuration`, tlsEnabled: false, clientId: 'c', groupsClaim: 'groups', groupsEncodedInToken: true, httpTimeoutMs: 500, jwksRefreshCooldownMs: 0, negativeCacheTtlMs: 0 })
  t.teardown(async () => { await p.close(); await db.close() })
  const enc = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url')
  const token = `${enc({ alg: 'RS256', kid: 'k' })}.${enc({ sub: 'u', aud: 'c', exp: Date.now() / 1000 + 60 })}.c2ln`
  await t.rejects(guard.identify(token), { status: 503 } as unknown as Error, '10 MB key set')
  jwks = (_q, res) => res.end('<html/>')
  await t.rejects(guard.identify(token), { status: 503 } as unknown as Error, 'HTML key set')
  jwks = (_q, res) => res.end('{"keys":[]}')
  await t.rejects(guard.identify(token), { status: 401 } as unknown as Error, 'no matching key')
  const none = `${enc({ alg: 'none' })}.${enc({ sub: 'u', aud: 'c', exp: Date.now() / 1000 + 60 })}.`
  await t.rejects(guard.identify(none), { status: 401 } as unknown as Error, 'alg none')
})
