/**
 * The standalone EpochDB server (`npm start`): QuestDB's REST API and the Web Console on
 * `http.bind.to`, the PostgreSQL wire protocol on `pg.net.bind.to`, data in `cairo.root`.
 *
 * Configuration uses QuestDB's key names: a `server.conf` properties file (`--conf path`, or
 * `<cairo.root>/conf/server.conf` when present), overridden by `QDB_<KEY>` environment
 * variables (`QDB_HTTP_BIND_TO=127.0.0.1:19000`). See docs/server.md.
 */
import { resolve } from 'node:path'
import { existsSync, readFileSync } from 'node:fs'
import type { Server } from 'node:http'
import type { Server as NetServer, Socket } from 'node:net'
import { join } from 'node:path'
import { type SecureContextOptions, createSecureContext } from 'node:tls'
import { Database, LoginThrottle, VERSION, formatBytes, resolveTotalQueryMemory } from '../lib/index.js'
import { ConfigError, createHttpServer, loadConfig, type BindAddress, type ServerConfig, type TlsFiles } from '../adapters/http/index.js'
import { createConsoleHandler } from '../adapters/console/index.js'
import { createPgwireServer, type PgwireServer } from '../adapters/pgwire/index.js'
import { type OidcGuard, createOidcGuard } from '../adapters/oidc/index.js'
import { type AuthKeys, createIlpTcpServer, type IlpTcpServer, parseAuthDb } from '../adapters/ilp/index.js'

/** At SIGINT/SIGTERM: how long cancelled statements may take to end, and answered connections to close. */
const SHUTDOWN_GRACE_MS = 5000

function readConfig(argv: readonly string[]): ServerConfig {
  const at = argv.indexOf('--conf')
  let path: string | undefined = at >= 0 ? argv[at + 1] : undefined
  if (at >= 0 && path === undefined) throw new ConfigError('--conf needs a path')
  if (path === undefined) {
    const root = process.env.QDB_CAIRO_ROOT ?? './qdb_root'
    const candidate = join(root, 'conf', 'server.conf')
    if (existsSync(candidate)) path = candidate
  }
  let text: string | undefined
  if (path !== undefined) {
    try { text = readFileSync(path, 'utf8') } catch (e) { throw new ConfigError(`cannot read ${path}: ${(e as Error).message}`) }
  }
  return loadConfig(text, process.env, (msg) => console.warn(`warning: ${msg}`))
}

/** Reads a TLS key pair named by the `prefix.tls.*` keys; a missing or bad file stops start-up naming the key. */
function readTls(prefix: string, files: TlsFiles | undefined): SecureContextOptions | undefined {
  if (files === undefined) return undefined
  const read = (key: string, path: string): Buffer => {
    try { return readFileSync(path) } catch (e) { throw new ConfigError(`cannot read ${key} (${prefix}.${key} or ${key}) ${path}: ${(e as Error).message}`) }
  }
  const tls = { cert: read('tls.cert.path', files.certPath), key: read('tls.private.key.path', files.keyPath) }
  try { createSecureContext(tls) } catch (e) { throw new ConfigError(`${prefix}.tls: bad certificate or private key (${files.certPath}, ${files.keyPath}): ${(e as Error).message}`) }
  return tls
}


/** Thrown when a server cannot listen: names the configuration key and the address. */
class ListenError extends Error {}

function listen(server: Server | NetServer, at: BindAddress, key: string): Promise<void> {
  const env = `QDB_${key.toUpperCase().replace(/[.-]/g, '_')}`
  return new Promise((resolve, reject) => {
    const failed = (e: NodeJS.ErrnoException): void => {
      const why = e.code === 'EADDRINUSE' ? 'the address is already in use (another server runs there?)'
        : e.code === 'EACCES' ? 'permission denied (ports below 1024 need privileges)'
          : e.code === 'EADDRNOTAVAIL' ? 'no such local address' : e.message
      reject(new ListenError(`cannot listen on ${at.host}:${at.port} (${key} / ${env}): ${why}; set ${key} (or ${env}) to a free address`))
    }
    server.once('error', failed)
    server.listen(at.port, at.host, () => { server.off('error', failed); resolve() })
  })
}

/** True for an address only this machine can reach. */
function loopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host) || host === '::ffff:127.0.0.1'
}

function shown(server: Server | NetServer, at: BindAddress): string {
  const a = server.address()
  const port = typeof a === 'object' && a !== null ? a.port : at.port
  const host = at.host === '0.0.0.0' || at.host === '::' ? 'localhost' : at.host
  return `${host}:${port}`
}

async function main(): Promise<void> {
  let config: ServerConfig
  let pgTls: SecureContextOptions | undefined
  let httpTls: SecureContextOptions | undefined
  try {
    config = readConfig(process.argv.slice(2))
    pgTls = readTls('pg', config.pgTls)
    httpTls = readTls('http', config.httpTls)
  } catch (e) {
    console.error(`epochdb: ${(e as Error).message}`)
    process.exit(2)
  }
  // the data directory: durable tables (WAL + partitions), locked while this server runs
  let db: Database
  try {
    db = await Database.open({
      path: config.cairoRoot,
      copyRoot: config.copyRoot,
      exportRoot: config.copyExportRoot,
      maxNameLength: config.maxNameLength,
      columnAliasExpression: config.columnAliasExpression,
      columnAliasMaxLength: config.columnAliasMaxLength,
      lockLease: config.lockLeaseMs,
      parseLimits: config.parseLimits,
      // 0 means no limit, as in QuestDB (and in Database.open)
      totalQueryMemoryLimit: resolveTotalQueryMemory(config.ramUsageLimitBytes, config.ramUsageLimitPercent),
      queryMemoryLimit: config.queryMemoryLimit,
      queryTimeout: config.queryTimeoutMs,
      acl: {
        enabled: config.acl.enabled,
        admin: { user: config.pgUser, password: config.pgPassword, enabled: config.acl.adminEnabled },
        passwordHashIterations: config.acl.passwordHashIterations,
        entityNameMaxLength: config.acl.entityNameMaxLength,
      },
      maxQueryTimeout: config.maxQueryTimeoutMs,
    })
  } catch (e) {
    console.error(`epochdb: cannot open cairo.root=${config.cairoRoot}: ${(e as Error).message}`)
    process.exit(1)
  }
  const log = (entry: object): void => { process.stdout.write(JSON.stringify({ t: new Date().toISOString(), ...entry }) + '\n') }
  /** every open client connection (REST and pgwire), to end them at shutdown */
  const sockets = new Set<Socket>()
  const track = (s: Socket): void => { sockets.add(s); s.once('close', () => sockets.delete(s)) }

  // one failed-login count for REST and pgwire: switching protocol buys a guesser nothing
  const loginThrottle = new LoginThrottle({
    maxFailuresPerAddress: config.loginFailuresMax, maxFailuresPerUser: config.loginUserFailuresMax, lockoutMs: config.loginLockoutMs,
    onLockout: (e) => log({ msg: 'login lockout', ...e }),
  })

  // ---- OpenID Connect (adapters/oidc): Bearer tokens on REST, tokens as the pgwire password ----
  let guard: OidcGuard | undefined
  if (config.oidc !== undefined) {
    try {
      guard = await createOidcGuard(db, { ...config.oidc, onLog: (e) => log(e) })
    } catch (e) {
      console.error(`epochdb: ${(e as Error).message}`)
      await db.close()
      process.exit(2)
    }
  }

  let http: Server | undefined
  if (config.httpEnabled) {
    http = createHttpServer(db, {
      user: config.httpUser, password: config.httpPassword,
      readOnly: config.readOnly, maxResponseRows: config.maxResponseRows,
      acceptingWrites: [...(config.readOnly ? [] : ['http']), ...(config.pgEnabled && !config.pgReadOnly ? ['pgwire'] : [])],
      keepAliveTimeout: config.keepAliveTimeoutMs, maxQueryLength: config.maxQueryLength,
      maxConnections: config.httpConnectionLimit, idleTimeout: config.httpIdleTimeoutMs,
      maxConnectionsPerAddress: config.httpConnectionLimitPerAddress,
      headersTimeout: config.httpHeaderTimeoutMs, requestTimeout: config.httpRequestTimeoutMs,
      allowedOrigins: config.httpAllowedOrigins, allowedHosts: config.httpAllowedHosts,
      loginThrottle, tls: httpTls,
      authenticate: guard?.http, settings: guard?.settings,
      onRequest: (e) => log({ msg: 'http', ...e }),
      lineProtocol: { ...config.ilp.http, transports: [...(config.ilp.http.enabled ? ['http'] : []), ...(config.ilp.tcp.enabled ? ['tcp'] : [])] },
      fallback: createConsoleHandler(undefined, { connectOrigins: guard?.consoleOrigins }),
    })
    http.on('connection', track)
  }

  // ---- pgwire (adapters/pgwire) ------------------------------------------------------------
  let pg: PgwireServer | undefined
  if (config.pgEnabled) {
    pg = createPgwireServer(db, {
      user: config.pgUser, password: config.pgPassword, authMethod: config.pgAuthMethod,
      tls: pgTls, tlsRequired: config.pgTlsRequired, loginThrottle, readOnly: config.pgReadOnly,
      maxConnections: config.pgMaxConnections, idleTimeoutMs: config.pgIdleTimeoutMs, maxMessageSize: config.pgMaxMessageSize,
      authenticate: guard?.pgwire, cleartextUser: guard?.cleartextUser,
      maxConnectionsPerAddress: config.pgMaxConnectionsPerAddress,
    })
    pg.on('connection', track)
  }
  // ---- ILP over TCP (adapters/ilp): JWK challenge, the ACL's JWK tokens with access control on,
  // else the keys of line.tcp.auth.db.path (ignored, and logged, with access control on) -------
  let ilp: IlpTcpServer | undefined
  if (config.ilp.tcp.enabled) {
    try {
      const path = config.ilp.tcp.authDbPath
      const authKeys: AuthKeys | undefined = path === undefined ? undefined : parseAuthDb(readFileSync(resolve(config.cairoRoot, path), 'utf8'))
      ilp = createIlpTcpServer(db, { ...config.ilp.tcp, authKeys, onLog: (e) => log(e) })
    } catch (e) {
      console.error(`epochdb: ${(e as Error).message}`)
      await db.close()
      process.exit(2)
    }
    ilp.on('connection', track)
  }
  // -------------------------------------------------------------------------------------------

  try {
    if (http !== undefined) await listen(http, config.http, 'http.bind.to')
    if (pg !== undefined) await listen(pg, config.pg, 'pg.net.bind.to')
    if (ilp !== undefined) await listen(ilp, config.ilpTcp, 'line.tcp.net.bind.to')
  } catch (e) {
    if (!(e instanceof ListenError)) throw e
    console.error(`epochdb: ${e.message}`)
    http?.close()
    pg?.close()
    ilp?.close()
    await db.close() // releases the data-directory lock
    process.exit(1)
  }

  const lines = [`EpochDB (${VERSION})`]
  if (http !== undefined) {
    const h = shown(http, config.http)
    const scheme = httpTls === undefined ? 'http' : 'https'
    lines.push(`  REST API      ${scheme}://${h}/exec?query=select+1   (/exp, /imp, /chk, /settings, /ping)`)
    lines.push(`  Web Console   ${scheme}://${h}/`)
  }
  if (pg !== undefined) {
    const ssl = pgTls === undefined ? '' : config.pgTlsRequired ? '?sslmode=require' : '   (TLS available)'
    lines.push(`  PostgreSQL    postgresql://${config.pgUser}@${shown(pg, config.pg)}/qdb${ssl}   (${config.pgAuthMethod})`)
  }
  if (ilp !== undefined) lines.push(`  ILP/TCP       ${shown(ilp, config.ilpTcp)}${db.aclEnabled ? '   (JWK auth: ACL tokens)' : config.ilp.tcp.authDbPath === undefined ? '' : '   (JWK auth)'}`)
  lines.push(`  data          ${resolve(config.cairoRoot)} (cairo.root)`)
  const mem = db.queryMemory
  lines.push(`  query memory  ${formatBytes(mem.perQuery)} per query (cairo.query.memory.limit.bytes), ${formatBytes(mem.total)} in all (ram.usage.limit.*)`)
  if (config.acl.enabled) {
    lines.push(`  access        acl.enabled=true: REST, the console and pgwire log in as the engine's users (built-in admin ${config.pgUser}${config.acl.adminEnabled ? '' : ', disabled'})`)
    if (config.httpUser !== undefined) lines.push('  NOTE          http.user / http.password are ignored while acl.enabled=true')
  } else {
    lines.push('  access        acl.enabled=false: every login runs as the built-in admin (set acl.enabled=true for users and grants)')
  }
  if (guard !== undefined) lines.push(`  OIDC          ${guard.endpoints.issuer ?? guard.endpoints.authorization} (client ${config.oidc!.clientId}${config.oidc!.pgTokenAsPassword === true ? ', pgwire user _sso' : ''})`)
  if (config.httpUser !== undefined && !config.acl.enabled) lines.push(`  REST auth     HTTP Basic (http.user=${config.httpUser})`)
  if (http !== undefined && config.httpUser === undefined && !config.acl.enabled && !loopback(config.http.host)) {
    lines.push(`  WARNING       REST is open to anyone who can reach ${config.http.host}:${config.http.port} without a password: set http.user and http.password, or bind http.bind.to to 127.0.0.1`)
  }
  if (pg !== undefined && config.pgUser === 'admin' && config.pgPassword === 'quest' && !loopback(config.pg.host)) {
    lines.push(`  WARNING       pgwire on ${config.pg.host}:${config.pg.port} accepts the default login admin/quest: set pg.password, or bind pg.net.bind.to to 127.0.0.1`)
  }
  console.log(lines.join('\n'))

  // Shutdown: stop listening, cancel every running statement (a write cancelled this way commits
  // nothing; its client gets 57P01 over pgwire, 503 over REST), close the database (checkpoint,
  // or nothing on a full disk: the WAL keeps every acknowledged row), end the connections, exit 0.
  // A second signal exits at once: committed data is safe in the WAL; the lock goes with the process.
  let stopping = false
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) {
      log({ msg: 'shutdown now', signal })
      process.exit(signal === 'SIGINT' ? 130 : 143)
    }
    stopping = true
    log({ msg: 'shutdown', signal })
    http?.close()
    http?.closeIdleConnections()
    pg?.close()
    // rows ILP/TCP connections hold are committed before the database closes
    await ilp?.drain()
    try {
      await db.close({ cancel: true, timeout: SHUTDOWN_GRACE_MS })
    } catch (e) {
      console.error(`epochdb: closing the database failed: ${(e as Error).message}`)
    }
    await sleep(50) // the adapters answer the cancelled statements
    pg?.terminateConnections() // FATAL 57P01 to every pgwire client, as PostgreSQL's fast shutdown
    for (const s of sockets) s.end()
    const deadline = Date.now() + SHUTDOWN_GRACE_MS
    while (sockets.size > 0 && Date.now() < deadline) await sleep(20)
    for (const s of sockets) s.destroy()
    log({ msg: 'stopped' })
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

await main()
