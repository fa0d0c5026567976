/**
 * Test helpers: the development provider (a real oidc-provider in the test process), a database
 * and a REST server behind an OIDC guard, and a GET with a Bearer token.
 */
import type { AddressInfo } from 'node:net'
import { Database } from '../../../lib/index.js'
import { createHttpServer, type HttpServerOptions } from '../../../adapters/http/index.js'
import { createOidcGuard, type OidcGuard, type OidcOptions } from '../../../adapters/oidc/index.js'
import { type DevProvider, type DevProviderOptions, type DevUser, startDevProvider } from '../../../examples/oidc/provider.js'
import { get, type Reply } from '../http/helpers.js'

/** The console's client id and a script's. */
export const CONSOLE = 'epochdb-console'
export const SCRIPT = 'nightly-report'
export const REDIRECT = 'http://127.0.0.1:1/callback'

/** Users: alice (analysts), bob (no groups claim), carol (empty groups), dave (wrong-typed groups). */
export function defaultUsers(): Map<string, DevUser> {
  return new Map<string, DevUser>([
    ['alice', { sub: 'alice', name: 'Alice Analyst', groups: ['analysts', 'cn=readers,dc=example'] }],
    ['bob', { sub: 'bob', name: 'Bob' }],
    ['carol', { sub: 'carol', name: 'Carol', groups: [] }],
    ['dave', { sub: 'dave', name: 'Dave', groups: 42 }],
  ])
}

/** A provider, a database, a guard and a REST server, torn down together. */
export interface OidcSetup {
  readonly idp: DevProvider
  readonly users: Map<string, DevUser>
  readonly db: Database
  readonly guard: OidcGuard
  readonly port: number
  /** log lines of the guard and of requests */
  readonly logs: object[]
  /** a token for `sub` from a real sign-in (console client unless told) */
  token(sub: string, clientId?: string): Promise<string>
  /** GET `/exec?query=` with `Authorization: Bearer <token>` (or a raw header when it has a space) */
  query(sql: string, auth?: string): Promise<Reply>
  close(): Promise<void>
}

/** Starts everything; `guardOptions` override the defaults (discovery, groups claim `groups`). */
export async function setup(guardOptions: Partial<OidcOptions> = {}, providerOptions: Partial<DevProviderOptions> = {}, httpOptions: HttpServerOptions = {}, db?: Database): Promise<OidcSetup> {
  const users = providerOptions.users ?? defaultUsers()
  const idp = await startDevProvider({ users, clients: { [CONSOLE]: [REDIRECT], [SCRIPT]: [REDIRECT] }, ...providerOptions })
  const database = db ?? await Database.open()
  const logs: object[] = []
  const guard = await createOidcGuard(database, {
    configurationUrl: idp.discoveryUrl, tlsEnabled: false, clientId: CONSOLE, groupsClaim: 'groups',
    onLog: (e) => logs.push(e), ...guardOptions,
  })
  const server = createHttpServer(database, { authenticate: guard.http, settings: guard.settings, onRequest: (e) => logs.push(e), ...httpOptions })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    idp, users, db: database, guard, port, logs,
    token: async (sub, clientId = CONSOLE) => {
      const t = await idp.signIn(sub, clientId, REDIRECT)
      return guardOptions.groupsEncodedInToken === true ? t.id_token! : t.access_token
    },
    query: (sql, auth) => get(port, `/exec?query=${encodeURIComponent(sql)}`, auth === undefined ? {} : { authorization: auth.includes(' ') ? auth : `Bearer ${auth}` }),
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await idp.close()
      await database.close()
    },
  }
}

/** Waits `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
