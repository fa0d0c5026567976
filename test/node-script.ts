/**
 * How a test starts a TypeScript script in a child process. Under `npm test` (test/run.mjs) the
 * tests themselves run transpiled, from the mirror tree where every `.ts` has its `.js` beside it:
 * the child then runs that `.js` with plain `node`, which starts in about half the time of
 * `node --import tsx` — the crash tests start a child per kill round, dozens per file. Run
 * directly (`node --import tsx x.test.ts`, `npx tap x.test.ts`) the child goes through tsx as before.
 */
import { existsSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'

/** True when this module itself was transpiled beforehand (the runner's mirror tree). */
const compiled = import.meta.url.endsWith('.js')

/**
 * The `node` arguments that run TypeScript script `script` (absolute, or relative to `cwd`):
 * `[script.js]` when the tests run transpiled and the script's `.js` is there, else
 * `['--import', 'tsx', script]`.
 */
export function nodeScript(script: string, cwd: string = process.cwd()): string[] {
  if (compiled && script.endsWith('.ts')) {
    const js = `${script.slice(0, -3)}.js`
    if (existsSync(isAbsolute(js) ? js : join(cwd, js))) return [js]
  }
  return ['--import', 'tsx', script]
}
