/**
 * The console's built assets (adapters/console/assets, written by adapters/console/build.mjs),
 * read once into memory with their gzip form.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

/** One file ready to send. */
export interface Asset {
  readonly body: Buffer
  readonly gzip: Buffer
  readonly type: string
  /** true for content-hashed names, which may be cached for a year */
  readonly immutable: boolean
}

const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml', png: 'image/png', ico: 'image/x-icon', json: 'application/json',
}

/**
 * Where the assets are: beside this module (source tree, run through tsx), or the source tree's
 * folder when this module runs compiled from dist/adapters/console.
 */
export function assetsDir(): string | undefined {
  for (const rel of ['./assets/', '../../../adapters/console/assets/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url))
    if (existsSync(dir + 'index.html')) return dir
  }
  return undefined
}

/** Loads every asset of `dir` by file name. */
export function loadAssets(dir: string): Map<string, Asset> {
  const out = new Map<string, Asset>()
  for (const name of readdirSync(dir)) {
    const body = readFileSync(dir + name)
    const ext = name.slice(name.lastIndexOf('.') + 1)
    out.set(name, { body, gzip: gzipSync(body, { level: 9 }), type: TYPES[ext] ?? 'application/octet-stream', immutable: /-[A-Z0-9]{8}\.\w+$/.test(name) })
  }
  return out
}
