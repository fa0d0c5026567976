import t from 'tap'
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'

// The committed console bundle must match its sources (rebuild with `npm run build:console`)
// and stay within the budget of 400 KB of compressed JavaScript.
// The checkout this file belongs to, asked of git: under test/run.mjs this file runs from the mirror
// tree in .cache/, where each .ts has a transpiled .js beside it that esbuild would bundle instead.
const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: fileURLToPath(new URL('.', import.meta.url)), encoding: 'utf8' }).trim() + '/'

t.test('committed console assets are up to date', async (t) => {
  let out = ''
  let ok = true
  try {
    out = execFileSync(process.execPath, ['adapters/console/build.mjs', '--check'], { cwd: root, encoding: 'utf8', stdio: 'pipe' })
  } catch (e) {
    ok = false
    out = String((e as { stderr?: string }).stderr ?? e)
  }
  t.ok(ok, out.trim())
})

t.test('compressed JavaScript is at most 400 KB', async (t) => {
  const dir = root + 'adapters/console/assets/'
  const js = readdirSync(dir).filter((n) => n.endsWith('.js'))
  const size = js.reduce((n, f) => n + gzipSync(readFileSync(dir + f), { level: 9 }).length, 0)
  t.comment(`console JavaScript: ${(size / 1024).toFixed(1)} KB gzip`)
  t.ok(size <= 400 * 1024, `${size} bytes`)
})
