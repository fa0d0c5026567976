import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

// House rule: every failure the engine raises is a SqlError with a real SQLSTATE; a broken
// invariant is `internalError()` (XX000), never a plain `Error` a client sees as a bare message.
// (Errors that stand in for the OS's, with an errno `code`, are built with Object.assign; the
// RangeErrors of the storage decoders mark corrupted bytes and are reported as XX001 by their callers.)
const root = fileURLToPath(new URL('../../', import.meta.url))

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) yield* sources(p)
    else if (e.name.endsWith('.ts') && e.name !== 'grammar.ts') yield p
  }
}

t.test('lib/ throws no plain Error', async (t) => {
  const found: string[] = []
  for (const file of sources(join(root, 'lib'))) {
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (/throw new (Type)?Error\(/.test(line)) found.push(`${relative(root, file)}:${i + 1}: ${line.trim()}`)
    })
  }
  t.same(found, [], 'use internalError() or a SqlError with its SQLSTATE')
})
