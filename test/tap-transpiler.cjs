/**
 * How tap's TypeScript loader (ts-node, transpile-only) turns test and engine files into
 * JavaScript: with esbuild (as tsx does for `npm start` and the benchmarks) instead of
 * TypeScript's own transpileModule. Every test file runs in a process of its own and loads
 * a few hundred engine modules; TypeScript's emitter costs ~9 s of CPU per such process,
 * esbuild well under one. Types are checked once, by `npm run typecheck`.
 *
 * A ts-node "third-party transpiler" (https://typestrong.org/ts-node/docs/transpilers),
 * named in tsconfig.json's "ts-node" section (tap's TypeScript plugin runs ts-node).
 */
'use strict'
const { transformSync } = require('esbuild')

exports.create = function create(options) {
  const format = options.nodeModuleEmitKind === 'nodecjs' ? 'cjs' : 'esm'
  return {
    transpile(input, { fileName }) {
      const r = transformSync(input, {
        loader: fileName.endsWith('.tsx') ? 'tsx' : 'ts',
        format,
        target: 'node20',
        sourcemap: 'external',
        sourcefile: fileName,
        tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } },
      })
      return { outputText: r.code, sourceMapText: r.map }
    },
  }
}
