/**
 * EpochDB's Web Console: a browser SQL workbench (editor, completion from the engine's grammar,
 * results grid, charts, schema browser, CSV import) served as static assets next to the REST
 * API. The browser app lives in `app/`; this module serves its bundle.
 *
 * @example
 * ```ts
 * import { Database } from 'epochdb'
 * import { createHttpServer } from 'epochdb/http'
 * import { createConsoleHandler } from 'epochdb/console'
 * createHttpServer(await Database.open(), { fallback: createConsoleHandler() }).listen(9000)
 * ```
 * @packageDocumentation
 * @module epochdb/console
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { type Asset, assetsDir, loadAssets } from './static-assets.js'

/** Serves the console at `/`, `/index.html` and `/assets/*`; anything else is a 404. */
export type ConsoleHandler = (req: IncomingMessage, res: ServerResponse) => void

const MISSING = '<!doctype html><meta charset="utf-8"><title>EpochDB</title><p>The Web Console assets are missing: run <code>npm run build:console</code>. The REST API is at <a href="exec?query=select%201">/exec</a>.</p>'

/** Options of {@link createConsoleHandler}. */
export interface ConsoleOptions {
  /**
   * Origins the page may call besides its own (the Content-Security-Policy's `connect-src`): an
   * OIDC provider's token endpoint (`guard.consoleOrigins`). Default none.
   */
  readonly connectOrigins?: readonly string[]
}

/**
 * Creates the console's request handler. `dir` overrides where the built assets are read from
 * (default: adapters/console/assets). The assets are read once, on the first request.
 */
export function createConsoleHandler(dir?: string, options: ConsoleOptions = {}): ConsoleHandler {
  let assets: Map<string, Asset> | undefined
  const connect = ["'self'", ...(options.connectOrigins ?? []).map((o) => new URL(o).origin)].join(' ')
  return (req, res) => {
    if (assets === undefined) {
      const d = dir ?? assetsDir()
      assets = d === undefined ? new Map() : loadAssets(d)
    }
    const path = (req.url ?? '/').split('?')[0]!
    const name = path === '/' || path === '/index.html' ? 'index.html' : path.startsWith('/assets/') ? path.slice('/assets/'.length) : undefined
    if (req.method !== 'GET' && req.method !== 'HEAD') { send(res, 405, 'text/plain; charset=utf-8', Buffer.from('Method Not Allowed\r\n')); return }
    if (name === 'index.html' && !assets.has(name)) { send(res, 200, 'text/html; charset=utf-8', Buffer.from(MISSING)); return }
    const asset = name === undefined || name.includes('/') ? undefined : assets.get(name)
    if (asset === undefined) { send(res, 404, 'text/plain; charset=utf-8', Buffer.from('Not Found\r\n')); return }
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) && asset.gzip.length < asset.body.length
    res.setHeader('Cache-Control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
    res.setHeader('Vary', 'Accept-Encoding')
    res.setHeader('X-Content-Type-Options', 'nosniff')
    if (name === 'index.html') res.setHeader('Content-Security-Policy', `default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src ${connect}`)
    if (gzip) res.setHeader('Content-Encoding', 'gzip')
    send(res, 200, asset.type, gzip ? asset.gzip : asset.body, req.method === 'HEAD')
  }
}

function send(res: ServerResponse, status: number, type: string, body: Buffer, head = false): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': body.length })
  res.end(head ? undefined : body)
}
