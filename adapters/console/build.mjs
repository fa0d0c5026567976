#!/usr/bin/env node
/**
 * Bundles the Web Console (adapters/console/app) with esbuild into static assets under
 * adapters/console/assets/: index.html, console-<hash>.js, console-<hash>.css. The assets are
 * committed so that `npm ci && npm start` serves them with no build step; `--check` rebuilds in
 * memory and fails when the committed files differ (CI runs it through the console tests).
 *
 * The function list (names, signatures, descriptions) is read from lib/functions/builtins.ts at
 * build time and bundled as data, so the page does not carry the kernels.
 */
import { build } from 'esbuild'
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = fileURLToPath(new URL('../../', import.meta.url))
const outDir = join(root, 'adapters/console/assets')
const check = process.argv.includes('--check')

/** Function metadata for completion: one entry per name (aliases included). */
async function functionMeta() {
  const tmp = join(tmpdir(), `epochdb-builtins-${process.pid}.mjs`)
  await build({ entryPoints: [join(root, 'lib/functions/builtins.ts')], bundle: true, platform: 'node', format: 'esm', outfile: tmp, logLevel: 'silent' })
  try {
    const { BUILTINS } = await import(pathToFileURL(tmp).href)
    const out = []
    for (const f of BUILTINS) {
      if (!/^[a-z_][a-z0-9_]*$/.test(f.name)) continue // operators
      const sigs = f.signatures.map((s) => {
        const args = [...s.args]
        if (s.variadic !== undefined) args.push(`${s.variadic}...`)
        const ret = typeof s.returns === 'string' ? s.returns : 'ANY'
        return `(${args.join(', ')}) → ${ret}`
      })
      for (const name of [f.name, ...(f.aliases ?? [])]) out.push({ name, kind: f.kind, sigs: [...new Set(sigs)].slice(0, 6), description: f.description })
    }
    out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    return out
  } finally {
    rmSync(tmp, { force: true })
  }
}

/** Eight characters of the content's SHA-1, in esbuild's alphabet (A-Z, 2-7), for cache-busting file names. */
function contentHash(text) {
  const digest = createHash('sha1').update(text).digest()
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let out = ''
  for (let i = 0; i < 8; i++) out += alphabet[digest[i] & 31]
  return out
}

async function bundle() {
  const functions = await functionMeta()
  const result = await build({
    entryPoints: { console: join(root, 'adapters/console/app/main.ts') },
    bundle: true, write: false, minify: true, platform: 'browser', format: 'esm', target: 'es2022',
    // esbuild's [hash] also covers the input paths, so a checkout whose node_modules is a symlink
    // names the same bytes differently; the name's hash is taken from the content alone below
    outdir: outDir, entryNames: '[name]', legalComments: 'none', logLevel: 'warning',
    define: { CONSOLE_FUNCTIONS: JSON.stringify(functions) },
  })
  const files = new Map()
  let js = '', css = ''
  for (const f of result.outputFiles) {
    const plain = f.path.slice(outDir.length + 1)
    const dot = plain.lastIndexOf('.')
    const name = `${plain.slice(0, dot)}-${contentHash(f.text)}${plain.slice(dot)}`
    files.set(name, f.text)
    if (name.endsWith('.js')) js = name
    if (name.endsWith('.css')) css = name
  }
  const html = readFileSync(join(root, 'adapters/console/app/index.html'), 'utf8').replace('%JS%', js).replace('%CSS%', css)
  files.set('index.html', html)
  return files
}

const files = await bundle()
if (check) {
  const present = existsSync(outDir) ? readdirSync(outDir).sort() : []
  const stale = [...files.keys()].sort().join() !== present.join() ||
    [...files].some(([n, text]) => readFileSync(join(outDir, n), 'utf8') !== text)
  if (stale) {
    console.error('adapters/console/assets is stale: run `npm run build:console` and commit the result')
    process.exit(1)
  }
  console.log('adapters/console/assets is up to date')
} else {
  rmSync(outDir, { recursive: true, force: true })
  mkdirSync(outDir, { recursive: true })
  for (const [n, text] of files) writeFileSync(join(outDir, n), text)
  const sizes = [...files].map(([n, t]) => `${n} ${(Buffer.byteLength(t) / 1024).toFixed(1)} KB (${createHash('sha1').update(t).digest('hex').slice(0, 7)})`)
  console.log(`console assets written to adapters/console/assets:\n  ${sizes.join('\n  ')}`)
}
