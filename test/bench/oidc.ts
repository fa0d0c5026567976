/**
 * OIDC guard benchmark (not a test): `node --import tsx test/bench/oidc.ts`.
 *
 *  (a) `/exec?query=select 1` with 32 keep-alive connections (autocannon in a child process):
 *      no authentication, then `Authorization: Bearer` with one cached token (user-info mode);
 *      the two runs alternate (A B A B) and the best of each is reported;
 *  (b) 1,000 distinct valid tokens validated at once: user-info calls counted at the provider;
 *  (c) 10,000 garbage tokens: 100 distinct ones repeated (the negative cache), then 10,000
 *      distinct ones (only the cache bounds hold), calls counted at the provider.
 * The provider is the development provider (oidc-provider) in this process. Environment:
 * EPOCHDB_BENCH_SECONDS (default 5).
 */
import { execFile } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import { Database } from '../../lib/index.js'
import { createHttpServer } from '../../adapters/http/index.js'
import { createOidcGuard } from '../../adapters/oidc/index.js'
import { startDevProvider } from '../../examples/oidc/provider.js'

const run = promisify(execFile)
const SECONDS = Number(process.env['EPOCHDB_BENCH_SECONDS'] ?? 5)
const users = new Map([['alice', { sub: 'alice', name: 'Alice', groups: ['analysts'] }]])
const idp = await startDevProvider({ users, clients: { console: ['http://127.0.0.1/cb'] } })
let userinfoCalls = 0
idp.server.prependListener('request', (req) => { if ((req.url ?? '').startsWith('/me')) userinfoCalls++ })
const db = await Database.open()
const guard = await createOidcGuard(db, { configurationUrl: idp.discoveryUrl, tlsEnabled: false, clientId: 'console', groupsClaim: 'groups', negativeCacheTtlMs: 60_000 })
const plain = createHttpServer(db)
const guarded = createHttpServer(db, { authenticate: guard.http })
const listen = async (s: typeof plain): Promise<string> => { await new Promise<void>((r) => s.listen(0, '127.0.0.1', r)); return `http://127.0.0.1:${(s.address() as AddressInfo).port}` }
const plainUrl = await listen(plain)
const guardedUrl = await listen(guarded)
console.log(`EpochDB OIDC benchmarks, ${new Date().toISOString()}, node ${process.version}`)

// (a)
const token = (await idp.signIn('alice', 'console', 'http://127.0.0.1/cb')).access_token
const cannon = async (base: string, headers: string[]): Promise<{ rps: number; p99: number; non2xx: number }> => {
  const { stdout } = await run(process.execPath, ['node_modules/autocannon/autocannon.js', '-c', '32', '-d', String(SECONDS), '-j', ...headers, `${base}/exec?query=select%201`], { maxBuffer: 1 << 24 })
  const ac = JSON.parse(stdout) as { requests: { average: number }; latency: { p99: number }; non2xx: number }
  return { rps: ac.requests.average, p99: ac.latency.p99, non2xx: ac.non2xx }
}
const best = { plain: { rps: 0, p99: 0, non2xx: 0 }, bearer: { rps: 0, p99: 0, non2xx: 0 } }
for (let i = 0; i < 2; i++) {
  const a = await cannon(plainUrl, [])
  if (a.rps > best.plain.rps) best.plain = a
  const b = await cannon(guardedUrl, ['-H', `Authorization=Bearer ${token}`])
  if (b.rps > best.bearer.rps) best.bearer = b
}
console.log(`(a) select 1, 32 connections, ${SECONDS} s, best of 2: unauthenticated ${Math.round(best.plain.rps)} req/s (p99 ${best.plain.p99} ms); ` +
  `Bearer, cached ${Math.round(best.bearer.rps)} req/s (p99 ${best.bearer.p99} ms, non-2xx ${best.bearer.non2xx}) = ${(100 * best.bearer.rps / best.plain.rps).toFixed(1)}%`)

// (a2) the guard's own cost per request with a cached token, CPU time in this process
const req = { headers: { authorization: `Bearer ${token}` } } as unknown as import('node:http').IncomingMessage
for (let i = 0; i < 1000; i++) await guard.http(req)
const cpu0 = process.cpuUsage()
const N = 100_000
for (let i = 0; i < N; i++) await guard.http(req)
const cpu = process.cpuUsage(cpu0)
console.log(`(a2) guard.http with a cached token: ${((cpu.user + cpu.system) / N).toFixed(2)} µs CPU per request (${N.toLocaleString('en-US')} calls)`)

// (b) 1,000 distinct valid tokens, minted at the provider, validated at once
const client = await idp.provider.Client.find('console')
const grant = new idp.provider.Grant({ accountId: 'alice', clientId: 'console' })
grant.addOIDCScope('openid profile')
const grantId = await grant.save()
const tokens: string[] = []
for (let i = 0; i < 1000; i++) tokens.push(await new idp.provider.AccessToken({ accountId: 'alice', client: client!, grantId, scope: 'openid profile', gty: 'authorization_code' }).save())
userinfoCalls = 0
let t0 = performance.now()
const twice = [...tokens, ...tokens] // each token asked twice at once: single flight
const ok = (await Promise.allSettled(twice.map((t) => guard.identify(t)))).filter((r) => r.status === 'fulfilled').length
console.log(`(b) 1,000 distinct valid tokens, each sent twice at once: ${ok}/2000 accepted, ${userinfoCalls} user-info calls, ${Math.round(performance.now() - t0)} ms; cache ${JSON.stringify(guard.stats())}`)

// (c) garbage
const garbage = (i: number): string => `garbage-${i}-${'x'.repeat(20)}`
userinfoCalls = 0
t0 = performance.now()
for (let round = 0; round < 100; round++) await Promise.allSettled(Array.from({ length: 100 }, (_, i) => guard.identify(garbage(i))))
console.log(`(c1) 10,000 garbage tokens, 100 distinct: ${userinfoCalls} user-info calls, ${Math.round(performance.now() - t0)} ms`)
userinfoCalls = 0
t0 = performance.now()
const rss0 = process.memoryUsage().rss
for (let round = 0; round < 100; round++) await Promise.allSettled(Array.from({ length: 100 }, (_, i) => guard.identify(garbage(1000 + round * 100 + i))))
console.log(`(c2) 10,000 distinct garbage tokens: ${userinfoCalls} user-info calls, ${Math.round(performance.now() - t0)} ms, refusals remembered ${guard.stats().refusals}, RSS +${Math.round((process.memoryUsage().rss - rss0) / 2 ** 20)} MB`)

plain.closeAllConnections(); plain.close(); guarded.closeAllConnections(); guarded.close()
await idp.close()
await db.close()
