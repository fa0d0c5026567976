/**
 * The standalone server's configuration with QuestDB's key names: defaults, then a
 * `server.conf` file, then `QDB_*` environment variables. Unknown keys are warned about; bad
 * values stop start-up with a {@link ConfigError} naming the key and the source.
 */
import { envName, parseProperties } from './properties.js'
import { originAllowList } from '../cross-site.js'
import { OIDC_KEYS, type OidcOptions, oidcConfig } from '../../oidc/index.js'
import { ILP_KEYS, type IlpConfig, ilpConfig } from '../../ilp/index.js'
import { dirname, resolve } from 'node:path'

/** A `host:port` listen address. */
export interface BindAddress {
  readonly host: string
  readonly port: number
}

/** The resolved configuration. */
export interface ServerConfig {
  readonly http: BindAddress
  readonly httpEnabled: boolean
  readonly pg: BindAddress
  readonly pgEnabled: boolean
  readonly cairoRoot: string
  /** `cairo.sql.copy.root`: where read_parquet() reads (relative paths resolve next to cairo.root) */
  readonly copyRoot: string
  /** `cairo.sql.copy.export.root`: where COPY ... TO writes (relative paths resolve next to cairo.root) */
  readonly copyExportRoot: string
  readonly httpUser: string | undefined
  readonly httpPassword: string | undefined
  readonly pgUser: string
  readonly pgPassword: string
  readonly readOnly: boolean
  readonly maxResponseRows: number | undefined
  readonly keepAliveTimeoutMs: number
  readonly maxQueryLength: number
  /** the longest table or column name (`cairo.max.file.name.length`) */
  readonly maxNameLength: number
  /** `cairo.sql.column.alias.expression.enabled`: name unaliased result columns after their expression text */
  readonly columnAliasExpression: boolean
  /** `cairo.sql.column.alias.generated.max.size`: the longest such generated name */
  readonly columnAliasMaxLength: number
  /** ms after its last heartbeat when a data-directory lock whose owner cannot be proven dead is taken over */
  readonly lockLeaseMs: number
  /** the engine's parse limits (EpochDB keys `epochdb.sql.max.*`) */
  readonly parseLimits: { readonly maxLength: number; readonly maxListItems: number; readonly maxDepth: number }
  /** bytes one query may hold (`cairo.query.memory.limit.bytes`); undefined for the default, half of the shared budget */
  readonly queryMemoryLimit: number | undefined
  /** `ram.usage.limit.bytes`: the shared budget of running queries in bytes; 0 to use the percent */
  readonly ramUsageLimitBytes: number
  /** `ram.usage.limit.percent`: the shared budget as a percent of physical memory (capped at half the V8 heap); 0 with bytes 0 for no limit */
  readonly ramUsageLimitPercent: number
  readonly httpConnectionLimit: number
  /** `epochdb.http.net.connection.limit.per.address`: HTTP connections one client address may hold (0 = no limit of its own) */
  readonly httpConnectionLimitPerAddress: number
  readonly httpIdleTimeoutMs: number
  readonly httpHeaderTimeoutMs: number
  readonly httpRequestTimeoutMs: number
  readonly httpAllowedOrigins: readonly string[]
  readonly httpAllowedHosts: readonly string[]
  /** failed logins per client address before a lock-out (`auth.login.failures.max`, 0 = no limit) */
  readonly loginFailuresMax: number
  /** failed logins per user name before a lock-out (`auth.login.user.failures.max`, 0 = no limit) */
  readonly loginUserFailuresMax: number
  /** the failed-login window and lock-out length (`auth.login.lockout.ms`) */
  readonly loginLockoutMs: number
  /** pgwire TLS certificate and key files (`pg.tls.*`, falling back to `tls.*`); undefined when TLS is off */
  readonly pgTls: TlsFiles | undefined
  /** with pgwire TLS on, refuse plaintext logins (`pg.tls.required`) */
  readonly pgTlsRequired: boolean
  /** how pgwire passwords travel (`pg.auth.method`) */
  readonly pgAuthMethod: 'password' | 'scram-sha-256'
  /** HTTPS certificate and key files (`http.tls.*`, falling back to `tls.*`); undefined when TLS is off */
  readonly httpTls: TlsFiles | undefined
  /** pgwire: `pg.security.readonly`, `pg.net.connection.limit`, `pg.net.connection.timeout` (ms), `pg.recv.buffer.size` (bytes) */
  readonly pgReadOnly: boolean
  readonly pgMaxConnections: number
  /** `epochdb.pg.net.connection.limit.per.address`: pgwire connections one client address may hold (0 = no limit of its own) */
  readonly pgMaxConnectionsPerAddress: number
  readonly pgIdleTimeoutMs: number
  readonly pgMaxMessageSize: number
  /** `query.timeout` (alias `query.timeout.sec`): milliseconds after which a query ends with 57014; 0 = none */
  readonly queryTimeoutMs: number
  /**
   * `epochdb.query.timeout.max`: the longest timeout a client may ask for (REST `timeout=`,
   * `Statement-Timeout`, pgwire `SET statement_timeout`, `0` included); default `query.timeout`,
   * so clients can shorten it but not lengthen it. 0 = no ceiling.
   */
  readonly maxQueryTimeoutMs: number
  /** the OIDC guard's options (`acl.oidc.*`); undefined when `acl.oidc.enabled` is false */
  readonly oidc: OidcOptions | undefined
  /** access control (`acl.*`); the admin's name and password are also {@link pgUser} / {@link pgPassword} */
  readonly acl: AclConfig
  /** InfluxDB Line Protocol over HTTP and TCP (`line.*`, docs/ilp.md) */
  readonly ilp: IlpConfig
  /** `line.tcp.net.bind.to` */
  readonly ilpTcp: BindAddress
}

/** The `acl.*` keys: access control in the engine (issue #13). */
export interface AclConfig {
  /** `acl.enabled`, default false (QuestDB Enterprise's default is true) */
  readonly enabled: boolean
  /** `acl.admin.user.enabled`: whether the built-in admin may log in */
  readonly adminEnabled: boolean
  /** `acl.password.hash.iteration.count`: PBKDF2 iterations of stored password verifiers */
  readonly passwordHashIterations: number
  /** `acl.entity.name.max.length`: the longest user, group or service-account name */
  readonly entityNameMaxLength: number
}

/** Where a server's TLS certificate (chain, PEM) and private key (PEM) are. */
export interface TlsFiles {
  readonly certPath: string
  readonly keyPath: string
}

/** A configuration value that cannot be used. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError'
}

type Kind = 'bind' | 'bool' | 'string' | 'int' | 'size'

/** Keys the server reads, with their kind and default (QuestDB's `http.net.bind.to` is an alias of `http.bind.to`). */
export const KEYS: Readonly<Record<string, { kind: Kind; def: string | undefined }>> = {
  'http.bind.to': { kind: 'bind', def: '0.0.0.0:9000' },
  'http.net.bind.to': { kind: 'bind', def: undefined },
  'http.enabled': { kind: 'bool', def: 'true' },
  'pg.net.bind.to': { kind: 'bind', def: '0.0.0.0:8812' },
  'pg.enabled': { kind: 'bool', def: 'true' },
  'cairo.root': { kind: 'string', def: './qdb_root' },
  'cairo.sql.copy.root': { kind: 'string', def: 'import' },
  'cairo.sql.copy.export.root': { kind: 'string', def: 'export' },
  'http.user': { kind: 'string', def: undefined },
  'http.password': { kind: 'string', def: undefined },
  'pg.user': { kind: 'string', def: 'admin' },
  'pg.password': { kind: 'string', def: 'quest' },
  'http.security.readonly': { kind: 'bool', def: 'false' },
  'http.security.max.response.rows': { kind: 'int', def: undefined },
  'http.keep-alive.timeout': { kind: 'int', def: '5' },
  'http.request.header.buffer.size': { kind: 'int', def: '65536' },
  'cairo.max.file.name.length': { kind: 'int', def: '127' },
  'cairo.lock.lease': { kind: 'int', def: '15000' },
  // result column names as a QuestDB 9 server makes them by default (expression text, x_2)
  'cairo.sql.column.alias.expression.enabled': { kind: 'bool', def: 'true' },
  'cairo.sql.column.alias.generated.max.size': { kind: 'int', def: '64' },
  // EpochDB's own (QuestDB has no such keys): the parse limits, checked before parsing
  'epochdb.sql.max.statement.length': { kind: 'int', def: '2097152' },
  'epochdb.sql.max.list.items': { kind: 'int', def: '1000000' },
  'epochdb.sql.max.expression.depth': { kind: 'int', def: '1000' },
  'cairo.query.memory.limit.bytes': { kind: 'size', def: undefined },
  'ram.usage.limit.bytes': { kind: 'size', def: '0' },
  'ram.usage.limit.percent': { kind: 'int', def: '90' },
  'http.net.connection.limit': { kind: 'int', def: '64' },
  'epochdb.http.net.connection.limit.per.address': { kind: 'int', def: '32' },
  'http.net.connection.timeout': { kind: 'int', def: '300000' },
  'http.request.header.timeout': { kind: 'int', def: '10000' },
  'http.request.timeout': { kind: 'int', def: '300000' },
  'http.security.allowed.origins': { kind: 'string', def: '' },
  'http.security.allowed.hosts': { kind: 'string', def: '' },
  'auth.login.failures.max': { kind: 'int', def: '5' },
  'auth.login.user.failures.max': { kind: 'int', def: '20' },
  'auth.login.lockout.ms': { kind: 'int', def: '60000' },
  'tls.enabled': { kind: 'bool', def: 'false' },
  'tls.cert.path': { kind: 'string', def: undefined },
  'tls.private.key.path': { kind: 'string', def: undefined },
  'pg.tls.enabled': { kind: 'bool', def: undefined },
  'pg.tls.cert.path': { kind: 'string', def: undefined },
  'pg.tls.private.key.path': { kind: 'string', def: undefined },
  'pg.tls.required': { kind: 'bool', def: 'true' },
  'pg.auth.method': { kind: 'string', def: 'scram-sha-256' },
  'http.tls.enabled': { kind: 'bool', def: undefined },
  'http.tls.cert.path': { kind: 'string', def: undefined },
  'http.tls.private.key.path': { kind: 'string', def: undefined },
  'pg.security.readonly': { kind: 'bool', def: 'false' },
  'pg.net.connection.limit': { kind: 'int', def: '64' },
  'epochdb.pg.net.connection.limit.per.address': { kind: 'int', def: '32' },
  'pg.net.connection.timeout': { kind: 'int', def: '300000' },
  'pg.recv.buffer.size': { kind: 'int', def: '67108864' },
  'query.timeout': { kind: 'string', def: '60s' },
  'query.timeout.sec': { kind: 'string', def: undefined },
  ...OIDC_KEYS,
  ...ILP_KEYS,
  // access control; acl.admin.user / acl.admin.password fall back to pg.user / pg.password
  'acl.enabled': { kind: 'bool', def: 'false' },
  'acl.admin.user': { kind: 'string', def: undefined },
  'acl.admin.password': { kind: 'string', def: undefined },
  'acl.admin.user.enabled': { kind: 'bool', def: 'true' },
  'acl.password.hash.iteration.count': { kind: 'int', def: '4096' },
  'acl.entity.name.max.length': { kind: 'int', def: '255' },
  'epochdb.query.timeout.max': { kind: 'string', def: undefined },
}

/** Resolves the configuration from a server.conf text (or none) and an environment. */
export function loadConfig(confText: string | undefined, env: Readonly<Record<string, string | undefined>>, warn: (msg: string) => void): ServerConfig {
  const values = new Map<string, { value: string; source: string }>()
  if (confText !== undefined) {
    const { entries, errors } = parseProperties(confText)
    if (errors.length > 0) throw new ConfigError(`server.conf: ${errors.join('; ')}`)
    for (const e of entries) {
      if (KEYS[e.key] === undefined) { warn(`server.conf line ${e.line}: unknown key '${e.key}' ignored`); continue }
      values.set(e.key, { value: e.value, source: `server.conf line ${e.line}` })
    }
  }
  const byEnv = new Map(Object.keys(KEYS).map((k) => [envName(k), k]))
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('QDB_') || value === undefined) continue
    const key = byEnv.get(name)
    if (key === undefined) { warn(`environment: unknown variable ${name} ignored`); continue }
    values.set(key, { value, source: `environment ${name}` })
  }
  const raw = (key: string): { value: string; source: string } | undefined => values.get(key) ?? (KEYS[key]!.def === undefined ? undefined : { value: KEYS[key]!.def!, source: 'default' })
  const str = (key: string): string | undefined => raw(key)?.value
  const bool = (key: string): boolean => {
    const r = raw(key)!
    if (r.value !== 'true' && r.value !== 'false') throw bad(key, r, 'true or false')
    return r.value === 'true'
  }
  const int = (key: string): number | undefined => {
    const r = raw(key)
    if (r === undefined) return undefined
    if (!/^\d+$/.test(r.value)) throw bad(key, r, 'a non-negative integer')
    return Number(r.value)
  }
  const positive = (key: string): number => {
    const v = int(key)!
    if (v === 0) throw bad(key, raw(key)!, 'a positive integer')
    return v
  }
  /** bytes, with QuestDB's optional K/M/G suffix (powers of 1024) */
  const size = (key: string): number | undefined => {
    const r = raw(key)
    if (r === undefined) return undefined
    const m = /^(\d+)\s*([kKmMgG]?)[bB]?$/.exec(r.value)
    if (m === null) throw bad(key, r, 'a size in bytes (optionally with K, M or G)')
    return Number(m[1]) * 1024 ** ' kmg'.indexOf((m[2] || ' ').toLowerCase())
  }
  const percent = (key: string): number => {
    const n = int(key)!
    if (n > 100) throw bad(key, raw(key)!, 'a percent 0-100')
    return n
  }
  const bind = (key: string): BindAddress => {
    const r = raw(key)!
    const m = /^(.*):(\d{1,5})$/.exec(r.value)
    if (m === null || Number(m[2]) > 65535 || m[1]!.length === 0) throw bad(key, r, 'host:port with a port 0-65535')
    return { host: m[1]!, port: Number(m[2]) }
  }
  const list = (key: string): string[] => (str(key) ?? '').split(',').map((v) => v.trim()).filter((v) => v.length > 0)
  const origins = list('http.security.allowed.origins')
  try { originAllowList(origins) } catch (e) { throw bad('http.security.allowed.origins', raw('http.security.allowed.origins')!, `comma-separated origins such as https://app.example.com, or * (${(e as Error).message})`) }
  // per-protocol TLS keys fall back to the global tls.* ones, as QuestDB Enterprise's do
  const tls = (prefix: string): TlsFiles | undefined => {
    if (!(values.has(`${prefix}.tls.enabled`) ? bool(`${prefix}.tls.enabled`) : bool('tls.enabled'))) return undefined
    const certPath = str(`${prefix}.tls.cert.path`) ?? str('tls.cert.path')
    const keyPath = str(`${prefix}.tls.private.key.path`) ?? str('tls.private.key.path')
    if (certPath === undefined || keyPath === undefined) {
      throw new ConfigError(`${prefix}.tls.enabled: TLS needs ${prefix}.tls.cert.path and ${prefix}.tls.private.key.path (or tls.cert.path and tls.private.key.path)`)
    }
    return { certPath, keyPath }
  }
  const method = raw('pg.auth.method')!
  if (method.value !== 'password' && method.value !== 'scram-sha-256') throw bad('pg.auth.method', method, 'password or scram-sha-256')
  // a duration with a unit (500ms, 60s, 5m, 1h); a bare number is in `bare` units; 0 = none
  const duration = (key: string, bare: 'ms' | 's'): number => {
    const r = raw(key)!
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(r.value.trim())
    if (m === null) throw bad(key, r, 'a duration such as 60s, 500ms, 5m or 0')
    return Math.round(Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? bare) as 'ms' | 's' | 'm' | 'h'])
  }
  const queryTimeoutMs = values.has('query.timeout') || !values.has('query.timeout.sec')
    ? duration('query.timeout', 'ms') : duration('query.timeout.sec', 's')
  let oidc: OidcOptions | undefined
  try {
    oidc = oidcConfig({ str, bool, int, size, duration: (key) => duration(key, 'ms') })
  } catch (e) {
    if (e instanceof ConfigError) throw e
    throw new ConfigError((e as Error).message)
  }
  if (oidc !== undefined && !bool('acl.enabled')) throw new ConfigError('acl.oidc.enabled=true needs acl.enabled=true (external users get their permissions from groups)')
  const httpUser = str('http.user')
  const httpPassword = str('http.password')
  if ((httpUser === undefined) !== (httpPassword === undefined)) throw new ConfigError('http.user and http.password must be set together')
  return {
    http: values.has('http.bind.to') || !values.has('http.net.bind.to') ? bind('http.bind.to') : bind('http.net.bind.to'),
    httpEnabled: bool('http.enabled'),
    pg: bind('pg.net.bind.to'),
    pgEnabled: bool('pg.enabled'),
    cairoRoot: str('cairo.root')!,
    // as QuestDB's import/ and export/ beside db/: relative to the directory holding cairo.root
    copyRoot: resolve(dirname(resolve(str('cairo.root')!)), str('cairo.sql.copy.root')!),
    copyExportRoot: resolve(dirname(resolve(str('cairo.root')!)), str('cairo.sql.copy.export.root')!),
    httpUser, httpPassword,
    // QuestDB Enterprise's acl.admin.* name the built-in admin; pg.user / pg.password are its aliases
    pgUser: str('acl.admin.user') ?? str('pg.user')!,
    pgPassword: str('acl.admin.password') ?? str('pg.password')!,
    readOnly: bool('http.security.readonly'),
    maxResponseRows: int('http.security.max.response.rows'),
    keepAliveTimeoutMs: int('http.keep-alive.timeout')! * 1000,
    maxQueryLength: int('http.request.header.buffer.size')!,
    maxNameLength: int('cairo.max.file.name.length')!,
    lockLeaseMs: int('cairo.lock.lease')!,
    columnAliasExpression: bool('cairo.sql.column.alias.expression.enabled'),
    columnAliasMaxLength: positive('cairo.sql.column.alias.generated.max.size'),
    parseLimits: {
      maxLength: positive('epochdb.sql.max.statement.length'),
      maxListItems: positive('epochdb.sql.max.list.items'),
      maxDepth: positive('epochdb.sql.max.expression.depth'),
    },
    queryMemoryLimit: size('cairo.query.memory.limit.bytes'),
    ramUsageLimitBytes: size('ram.usage.limit.bytes')!,
    ramUsageLimitPercent: percent('ram.usage.limit.percent'),
    httpConnectionLimit: int('http.net.connection.limit')!,
    httpConnectionLimitPerAddress: int('epochdb.http.net.connection.limit.per.address')!,
    httpIdleTimeoutMs: int('http.net.connection.timeout')!,
    httpHeaderTimeoutMs: int('http.request.header.timeout')!,
    httpRequestTimeoutMs: int('http.request.timeout')!,
    httpAllowedOrigins: origins,
    httpAllowedHosts: list('http.security.allowed.hosts'),
    loginFailuresMax: int('auth.login.failures.max')!,
    loginUserFailuresMax: int('auth.login.user.failures.max')!,
    loginLockoutMs: int('auth.login.lockout.ms')!,
    pgTls: tls('pg'),
    pgTlsRequired: bool('pg.tls.required'),
    pgAuthMethod: method.value,
    httpTls: tls('http'),
    pgReadOnly: bool('pg.security.readonly'),
    pgMaxConnections: int('pg.net.connection.limit')!,
    pgMaxConnectionsPerAddress: int('epochdb.pg.net.connection.limit.per.address')!,
    pgIdleTimeoutMs: int('pg.net.connection.timeout')!,
    pgMaxMessageSize: int('pg.recv.buffer.size')!,
    queryTimeoutMs,
    maxQueryTimeoutMs: raw('epochdb.query.timeout.max') === undefined ? queryTimeoutMs : duration('epochdb.query.timeout.max', 'ms'),
    oidc,
    acl: {
      enabled: bool('acl.enabled'),
      adminEnabled: bool('acl.admin.user.enabled'),
      passwordHashIterations: positive('acl.password.hash.iteration.count'),
      entityNameMaxLength: positive('acl.entity.name.max.length'),
    },
    ilp: ilpConfig({ str, bool, int, size }),
    ilpTcp: bind('line.tcp.net.bind.to'),
  }
}

function bad(key: string, r: { value: string; source: string }, expected: string): ConfigError {
  return new ConfigError(`bad value for ${key} (${r.source}): '${r.value}', expected ${expected}`)
}
