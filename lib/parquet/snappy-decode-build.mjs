// Rebuilds lib/parquet/snappy-decode-wasm.ts from snappy-decode.wat with wat2wasm (Debian: wabt).
// The generated file is committed, like lib/sql/grammar.ts; test/unit/parquet/snappy-decode.test.ts
// checks it is current wherever wat2wasm is installed.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(new URL('.', import.meta.url))

/** The generated module's TypeScript text for the .wat at `watPath`. */
export function generate(watPath = join(here, 'snappy-decode.wat')) {
  const dir = mkdtempSync(join(tmpdir(), 'snappy-wasm-'))
  try {
    const out = join(dir, 'snappy.wasm')
    execFileSync('wat2wasm', [watPath, '-o', out])
    const b64 = readFileSync(out).toString('base64')
    return `/**\n * The Snappy decoder module, generated from snappy-decode.wat by snappy-decode-build.mjs: do not edit.\n */\n\n/** The module's bytes, base64. */\nexport const SNAPPY_DECODE_WASM = '${b64}'\n`
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(join(here, 'snappy-decode-wasm.ts'), generate())
