import t from 'tap'
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../../', import.meta.url))

t.test('the generated grammar.ts is up to date with grammar.ne', async (t) => {
  const out = execFileSync(process.execPath, ['lib/sql/grammar/build.mjs', '--check'], { cwd: root, encoding: 'utf8' })
  t.match(out, /up to date/)
})
