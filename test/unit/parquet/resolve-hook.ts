/**
 * Test-only: lets tap's TypeScript loader (a ts-node fork whose ESM resolver predates exports
 * patterns with a suffix, `"./src/*.js"`) load hyparquet-writer, which imports
 * `hyparquet/src/<file>.js`. A resolve hook registered after the loader runs before it and maps
 * those specifiers to the files; Node's own resolver (tsx, plain node, the built package) needs
 * none of this. Import this module first in every test that writes Parquet.
 */
import { createRequire, register } from 'node:module'
import { dirname } from 'node:path'
import { pathToFileURL } from 'node:url'

// the package's main file is src/node.js: its directory is hyparquet/src/
const src = pathToFileURL(dirname(createRequire(import.meta.url).resolve('hyparquet')) + '/').href
// hyparquet-writer's main file is src/index.js (tests that build hostile footers use its src/ modules)
const writerSrc = pathToFileURL(dirname(createRequire(import.meta.url).resolve('hyparquet-writer')) + '/').href
const hook = `export async function resolve(specifier, context, next) {
  if (specifier.startsWith('hyparquet/src/')) return { url: ${JSON.stringify(src)} + specifier.slice('hyparquet/src/'.length), format: 'module', shortCircuit: true }
  if (specifier.startsWith('hyparquet-writer/src/')) return { url: ${JSON.stringify(writerSrc)} + specifier.slice('hyparquet-writer/src/'.length), format: 'module', shortCircuit: true }
  return next(specifier, context)
}`
register(`data:text/javascript,${encodeURIComponent(hook)}`)
