/**
 * The standalone server's `acl.oidc.*` keys: defaults, environment names, and QuestDB's start-up
 * rules with messages naming the key.
 */
import t from 'tap'
import { ConfigError, loadConfig } from '../../../adapters/http/server/config.js'

const load = (conf: string, env: Record<string, string> = {}): ReturnType<typeof loadConfig> => loadConfig(conf, env, () => {})
const MIN = 'acl.enabled=true\nacl.oidc.enabled=true\nacl.oidc.client.id=console\nacl.oidc.groups.claim=groups\nacl.oidc.configuration.url=https://idp.example.com/.well-known/openid-configuration\n'

t.test('off by default; on with the minimal keys; env QDB_ACL_OIDC_*', async (t) => {
  t.equal(load('').oidc, undefined)
  t.match(load(MIN).oidc, { clientId: 'console', groupsClaim: 'groups', tlsEnabled: true, cacheTtlMs: 30000, pkceRequired: true, stateRequired: false, scope: 'openid', subClaim: 'sub', publicKeysExpiryMs: 120000, responseBufferSize: 1048576 })
  const e = load(MIN, { QDB_ACL_OIDC_CACHE_TTL: '500', QDB_ACL_OIDC_PG_TOKEN_AS_PASSWORD_ENABLED: 'true', QDB_ACL_OIDC_PUBLIC_KEYS_EXPIRY: '2m', QDB_ACL_OIDC_AUDIENCE: 'console,report' })
  t.match(e.oidc, { cacheTtlMs: 500, pgTokenAsPassword: true, publicKeysExpiryMs: 120000, audience: 'console,report' })
  t.match(load('acl.enabled=true\nacl.oidc.enabled=true\nacl.oidc.client.id=c\nacl.oidc.groups.claim=roles,groups\nacl.oidc.host=pf.example.com\n').oidc, { host: 'pf.example.com', groupsClaim: 'roles,groups' })
})

t.test('start-up rules name the key', async (t) => {
  const bad = (conf: string, msg: RegExp, what: string): void => { t.throws(() => load(conf), new RegExp(msg.source), what); try { load(conf) } catch (e) { t.type(e, ConfigError) } }
  bad('acl.oidc.enabled=true\nacl.oidc.groups.claim=g\nacl.oidc.host=h\n', /acl\.oidc\.client\.id is required/, 'no client id')
  bad('acl.oidc.enabled=true\nacl.oidc.client.id=c\nacl.oidc.host=h\n', /acl\.oidc\.groups\.claim is required/, 'no groups claim')
  bad('acl.oidc.enabled=true\nacl.oidc.client.id=c\nacl.oidc.groups.claim=g\n', /exactly one of acl\.oidc\.host and acl\.oidc\.configuration\.url/, 'neither')
  bad(MIN + 'acl.oidc.host=h\n', /exactly one of acl\.oidc\.host and acl\.oidc\.configuration\.url/, 'both')
  bad(MIN + 'acl.oidc.tls.enabled=false\n', /acl\.oidc\.configuration\.url: .* does not match acl\.oidc\.tls\.enabled=false/, 'scheme vs tls.enabled')
  bad(MIN + 'acl.oidc.sub.claim=groups\n', /acl\.oidc\.sub\.claim and acl\.oidc\.groups\.claim both name 'groups'/, 'overlap')
  bad(MIN + 'acl.oidc.sub.claim=sub,sub\n', /acl\.oidc\.sub\.claim: a claim is listed twice/, 'duplicate')
  bad(MIN + 'acl.oidc.cache.ttl=-1\n', /acl\.oidc\.cache\.ttl/, 'negative ttl')
  bad(MIN + 'acl.oidc.cache.ttl=30s\n', /acl\.oidc\.cache\.ttl/, 'plain integer only, as QuestDB')
  bad(MIN + 'acl.oidc.http.timeout=0\n', /acl\.oidc\.http\.timeout/, 'zero timeout')
  bad(MIN.replace('acl.enabled=true', 'acl.enabled=false'), /acl\.oidc\.enabled=true needs acl\.enabled=true/, 'OIDC without access control')
  bad('acl.oidc.configuration.url=ftp://x/\n', /acl\.oidc\.configuration\.url/, 'checked even when OIDC is off')
  bad('acl.enabled=true\nacl.oidc.enabled=true\nacl.oidc.client.id=c\nacl.oidc.groups.claim=g\nacl.oidc.host=h\nacl.oidc.port=70000\n', /acl\.oidc\.port/, 'port range')
  bad(MIN + 'acl.oidc.tls.keystore.path=/etc/ssl/certs/ca-certificates.crt\n', /acl\.oidc\.tls\.keystore\.path and acl\.oidc\.tls\.keystore\.password must be set together/, 'keystore without its password')
  bad(MIN + 'acl.oidc.tls.keystore.password=x\n', /must be set together/, 'password without a keystore')
  bad(MIN + 'acl.oidc.tls.keystore.path=/nonexistent/store.pem\nacl.oidc.tls.keystore.password=x\n', /acl\.oidc\.tls\.keystore\.path: cannot read/, 'unreadable keystore')
})

t.test('ROPC and TLS keys (QuestDB names, env QDB_ACL_OIDC_*)', async (t) => {
  t.match(load(MIN).oidc, { ropcFlowEnabled: false, tlsValidationEnabled: true, tlsKeystorePath: undefined })
  t.match(load(MIN + 'acl.oidc.ropc.flow.enabled=true\nacl.oidc.tls.validation.enabled=false\n').oidc, { ropcFlowEnabled: true, tlsValidationEnabled: false })
  t.match(load(MIN, { QDB_ACL_OIDC_ROPC_FLOW_ENABLED: 'true', QDB_ACL_OIDC_TLS_VALIDATION_ENABLED: 'false' }).oidc, { ropcFlowEnabled: true, tlsValidationEnabled: false })
})

t.test('acl.oidc.device.authorization.endpoint (QuestDB name, env QDB_ACL_OIDC_DEVICE_AUTHORIZATION_ENDPOINT), no default', async (t) => {
  t.equal(load(MIN).oidc?.deviceAuthorizationEndpoint, undefined)
  const host = 'acl.enabled=true\nacl.oidc.enabled=true\nacl.oidc.client.id=c\nacl.oidc.groups.claim=g\nacl.oidc.host=pf.example.com\n'
  t.match(load(host + 'acl.oidc.device.authorization.endpoint=/as/device_authz.oauth2\n').oidc, { deviceAuthorizationEndpoint: '/as/device_authz.oauth2' })
  t.match(load(host, { QDB_ACL_OIDC_DEVICE_AUTHORIZATION_ENDPOINT: 'https://pf.example.com/device' }).oidc, { deviceAuthorizationEndpoint: 'https://pf.example.com/device' })
  t.throws(() => load(host + 'acl.oidc.device.authorization.endpoint=http://pf.example.com/device\n'), /acl\.oidc\.device\.authorization\.endpoint: .* does not match acl\.oidc\.tls\.enabled=true/, 'its scheme follows tls.enabled, like every endpoint')
})
