import t from 'tap'
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'

// The Web Console bundles the parser, the types and the function registry (highlighting,
// completion, signatures). Bundling them for the browser fails if anything they import reaches
// for a Node built-in.
const root = fileURLToPath(new URL('../../', import.meta.url))

for (const entry of ['lib/sql/index.ts', 'lib/types/index.ts', 'lib/functions/builtins.ts']) {
  t.test(`${entry} bundles for the browser`, async (t) => {
    const result = await build({
      entryPoints: [root + entry], bundle: true, write: false, platform: 'browser', format: 'esm', logLevel: 'silent',
    })
    t.equal(result.errors.length, 0)
    const code = result.outputFiles[0]!.text
    t.notMatch(code, /\bprocess\.env\b/, 'no process.env')
    t.ok(code.length > 1000, 'bundle has content')
  })
}
