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
import type { Server as NetServer } from 'node:net'
import { join } from 'node:path'
import { Database, VERSION } from '../lib/index.js'
import { createHttpServer } from '../adapters/http/index.js'
import { ConfigError, loadConfig, type BindAddress, type ServerConfig } from '../adapters/http/server/config.js'
import { createConsoleHandler } from '../adapters/console/index.js'
import { createPgwireServer } from '../adapters/pgwire/index.js'

/** How long in-flight requests may take to finish after SIGINT/SIGTERM before they are cancelled. */
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

function listen(server: Server | NetServer, at: BindAddress): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(at.port, at.host, () => { server.off('error', reject); resolve() })
  })
}

function shown(server: Server | NetServer, at: BindAddress): string {
  const a = server.address()
  const port = typeof a === 'object' && a !== null ? a.port : at.port
  const host = at.host === '0.0.0.0' || at.host === '::' ? 'localhost' : at.host
  return `${host}:${port}`
}

async function main(): Promise<void> {
  let config: ServerConfig
  try {
    config = readConfig(process.argv.slice(2))
  } catch (e) {
    console.error(`epochdb: ${(e as Error).message}`)
    process.exit(2)
  }
  // the data directory: durable tables (WAL + partitions), locked while this server runs
  let db: Database
  try {
    db = await Database.open({ path: config.cairoRoot, queryTimeout: config.queryTimeoutMs })
  } catch (e) {
    console.error(`epochdb: cannot open cairo.root=${config.cairoRoot}: ${(e as Error).message}`)
    process.exit(1)
  }
  const log = (entry: object): void => { process.stdout.write(JSON.stringify({ t: new Date().toISOString(), ...entry }) + '\n') }

  let http: Server | undefined
  if (config.httpEnabled) {
    http = createHttpServer(db, {
      user: config.httpUser, password: config.httpPassword,
      readOnly: config.readOnly, maxResponseRows: config.maxResponseRows,
      keepAliveTimeout: config.keepAliveTimeoutMs, maxQueryLength: config.maxQueryLength,
      onRequest: (e) => log({ msg: 'http', ...e }),
      fallback: createConsoleHandler(),
    })
    await listen(http, config.http)
  }

  // ---- pgwire (adapters/pgwire) ------------------------------------------------------------
  let pg: NetServer | undefined
  if (config.pgEnabled) {
    pg = createPgwireServer(db, { user: config.pgUser, password: config.pgPassword })
    await listen(pg, config.pg)
  }
  // -------------------------------------------------------------------------------------------

  const lines = [`EpochDB (${VERSION})`]
  if (http !== undefined) {
    const h = shown(http, config.http)
    lines.push(`  REST API      http://${h}/exec?query=select+1   (/exp, /imp, /chk, /settings, /ping)`)
    lines.push(`  Web Console   http://${h}/`)
  }
  if (pg !== undefined) lines.push(`  PostgreSQL    postgresql://${config.pgUser}@${shown(pg, config.pg)}/qdb`)
  lines.push(`  data          ${resolve(config.cairoRoot)} (cairo.root)`)
  if (config.httpUser !== undefined) lines.push(`  REST auth     HTTP Basic (http.user=${config.httpUser})`)
  console.log(lines.join('\n'))

  let stopping = false
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return
    stopping = true
    log({ msg: 'shutdown', signal })
    const closing: Promise<void>[] = []
    if (http !== undefined) {
      const h = http
      closing.push(new Promise((r) => h.close(() => r())))
      h.closeIdleConnections()
      setTimeout(() => h.closeAllConnections(), SHUTDOWN_GRACE_MS).unref()
    }
    if (pg !== undefined) {
      const p = pg
      closing.push(new Promise((r) => p.close(() => r())))
      setTimeout(() => (p as NetServer & { closeAllConnections?: () => void }).closeAllConnections?.(), SHUTDOWN_GRACE_MS).unref()
    }
    await Promise.race([Promise.all(closing), new Promise((r) => setTimeout(r, SHUTDOWN_GRACE_MS + 1000).unref())])
    await db.close()
    log({ msg: 'stopped' })
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

await main()
