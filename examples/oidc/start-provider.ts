/**
 * Starts the development identity provider for the walk-through (README.md): port 9080 (or
 * OIDC_PORT), users alice (analysts), bob (ops) and carol (no groups), the console's client id
 * `epochdb-console` and a script's `report-script`. Development only.
 *
 *   node --import tsx examples/oidc/start-provider.ts
 */
import { startDevProvider, type DevUser } from './provider.js'

const port = Number(process.env.OIDC_PORT ?? 9080)
const consoleUrl = process.env.EPOCHDB_CONSOLE_URL ?? 'http://localhost:9000/'
const users = new Map<string, DevUser>([
  ['alice', { sub: 'alice', name: 'Alice Analyst', groups: ['analysts'] }],
  ['bob', { sub: 'bob', name: 'Bob Operator', groups: ['ops'] }],
  ['carol', { sub: 'carol', name: 'Carol (no groups)' }],
])
const idp = await startDevProvider({ port, users, clients: { 'epochdb-console': [consoleUrl, consoleUrl.replace('localhost', '127.0.0.1')], 'report-script': ['http://127.0.0.1/callback'] } })
console.log(`development identity provider: ${idp.discoveryUrl}`)
console.log(`users: ${[...users.values()].map((u) => `${u.sub} [${(u.groups as string[] | undefined)?.join(', ') ?? 'no groups'}]`).join('; ')}`)
