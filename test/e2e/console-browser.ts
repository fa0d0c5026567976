/**
 * Test helpers for the Web Console e2e tests: find Debian's Chromium, start the REST handler
 * with the console on 127.0.0.1 port 0, and open a page with playwright-core.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { Database } from '../../lib/index.js'
import { createHttpServer } from '../../adapters/http/index.js'
import { createConsoleHandler } from '../../adapters/console/index.js'

/** Where screenshots go (git-ignored). */
export const ARTIFACTS = fileURLToPath(new URL('./.artifacts/console/', import.meta.url))

/** The Chromium binary, or undefined when none is installed. */
export function findChromium(): string | undefined {
  for (const p of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']) if (p !== undefined && p !== '' && existsSync(p)) return p
  return undefined
}

/** A running console: the database, its server URL, a browser page, and a closer. */
export interface ConsoleRig {
  readonly db: Database
  readonly url: string
  readonly page: Page
  shot(name: string): Promise<void>
  close(): Promise<void>
}

/** Starts the server (over `database`, default a fresh in-memory one) and the browser at 1280x720. */
export async function startConsole(executablePath: string, database?: Database): Promise<ConsoleRig> {
  const db = database ?? await Database.open()
  const server: Server = createHttpServer(db, { fallback: createConsoleHandler(), loginThrottle: false })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  const profile = mkdtempSync(join(tmpdir(), 'epochdb-console-'))
  let context: BrowserContext
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath, headless: true, viewport: { width: 1280, height: 720 }, timeout: 30_000,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    })
  } catch (e) {
    server.close()
    rmSync(profile, { recursive: true, force: true })
    throw e
  }
  const page = context.pages()[0] ?? await context.newPage()
  page.setDefaultTimeout(10_000)
  mkdirSync(ARTIFACTS, { recursive: true })
  return {
    db, url, page,
    shot: async (name) => { await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) }) },
    close: async () => {
      await context.close().catch(() => undefined)
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      rmSync(profile, { recursive: true, force: true })
    },
  }
}
