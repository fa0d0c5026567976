/**
 * `acl.oidc.tls.*` against a real oidc-provider served over HTTPS with a self-signed certificate
 * (made with openssl for the test): refused by default (validation on, the system's CAs), trusted
 * through `acl.oidc.tls.keystore.path` (PEM) with validation on, or reached with
 * `acl.oidc.tls.validation.enabled=false`; the start-up rules for the keystore keys.
 */
import t from 'tap'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Database } from '../../../lib/index.js'
import { createOidcGuard, OidcConfigError, type OidcOptions } from '../../../adapters/oidc/index.js'
import { startDevProvider } from '../../../examples/oidc/provider.js'
import { CONSOLE, REDIRECT, defaultUsers } from './helpers.js'

const run = promisify(execFile)

t.test('TLS to the provider', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-oidc-tls-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const key = join(dir, 'key.pem')
  const cert = join(dir, 'cert.pem')
  await run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { timeout: 30_000 })
  const idp = await startDevProvider({ users: defaultUsers(), clients: { [CONSOLE]: [REDIRECT] }, tls: { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') } })
  const db = await Database.open()
  t.teardown(async () => { await idp.close(); await db.close() })
  t.match(idp.discoveryUrl, /^https:/)
  const base: OidcOptions = { configurationUrl: idp.discoveryUrl, clientId: CONSOLE, groupsClaim: 'groups', httpTimeoutMs: 5000 }

  await t.rejects(createOidcGuard(db, base), { name: 'OidcConfigError', message: /acl\.oidc\.configuration\.url: .*(SELF_SIGNED|certificate)/i }, 'the system CAs do not trust it: start-up stops')

  const trusted = await createOidcGuard(db, { ...base, tlsKeystorePath: cert, tlsKeystorePassword: 'unused' })
  t.match(trusted.endpoints.userinfo, /^https:\/\/127\.0\.0\.1:/)
  t.match(await trusted.identify('garbage-token').catch((e: unknown) => e), { failure: 'unauthenticated' }, 'userinfo answered over TLS with the keystore: 401, not 503')

  const unchecked = await createOidcGuard(db, { ...base, tlsValidationEnabled: false })
  t.match(await unchecked.identify('another-garbage-token').catch((e: unknown) => e), { failure: 'unauthenticated' }, 'validation off: reached')

  // another CA in the keystore: refused
  const otherKey = join(dir, 'other-key.pem')
  const other = join(dir, 'other.pem')
  await run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', otherKey, '-out', other, '-days', '2', '-subj', '/CN=other'], { timeout: 30_000 })
  await t.rejects(createOidcGuard(db, { ...base, tlsKeystorePath: other, tlsKeystorePassword: 'x' }), { name: 'OidcConfigError' }, 'a keystore without the provider\'s CA')

  // start-up rules: both keys or neither; a readable PEM file
  await t.rejects(createOidcGuard(db, { ...base, tlsKeystorePath: cert }), { name: 'OidcConfigError', message: /keystore\.path and acl\.oidc\.tls\.keystore\.password must be set together/ })
  await t.rejects(createOidcGuard(db, { ...base, tlsKeystorePassword: 'x' }), OidcConfigError)
  await t.rejects(createOidcGuard(db, { ...base, tlsKeystorePath: join(dir, 'missing.pem'), tlsKeystorePassword: 'x' }), { message: /acl\.oidc\.tls\.keystore\.path: cannot read/ })
  const p12 = join(dir, 'store.p12')
  writeFileSync(p12, Buffer.from([0x30, 0x82, 0x01, 0x00, 1, 2, 3]))
  await t.rejects(createOidcGuard(db, { ...base, tlsKeystorePath: p12, tlsKeystorePassword: 'x' }), { message: /not a PEM file of CA certificates; convert/ })
})

