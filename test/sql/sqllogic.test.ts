/**
 * Runs every sqllogictest file under test/sql (`test/sql/<feature>/*.test`), each in a fresh
 * in-memory Database and as its own tap subtest; every record is one test point.
 *
 * Environment: EPOCHDB_SLT_FILTER=<substring> runs only matching files;
 * EPOCHDB_SLT_COMPLETE=1 rewrites expected rows with actual ones (review the diff!).
 * The format is described in test/README.md.
 */
import t from 'tap'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readFileSync } from 'node:fs'
import { findSltFiles } from './runner/find-files.js'
import { runSltFile } from './runner/run-file.js'
import { openSltDatabase } from './runner/acl-database.js'

const here = dirname(fileURLToPath(import.meta.url))
const repoRoot = join(here, '..', '..')
const filter = process.env['EPOCHDB_SLT_FILTER'] ?? ''
const complete = process.env['EPOCHDB_SLT_COMPLETE'] === '1'
const files = findSltFiles(here).filter(f => f.includes(filter))

t.ok(files.length > 0, `found .test files under test/sql${filter === '' ? '' : ` matching '${filter}'`}`)

for (const file of files) {
  const display = relative(repoRoot, join(here, file))
  t.test(display, async t => {
    const outcome = await runSltFile({ path: join(here, file), display, flavor: 'epochdb', open: () => openSltDatabase(readFileSync(join(here, file), 'utf8')), complete })
    for (const o of outcome.outcomes) {
      if (o.status === 'pass') t.pass(`${display}:${o.line} ${o.kind}`)
      else if (o.status === 'fail') t.fail(o.message ?? `${display}:${o.line} failed`)
    }
    if (outcome.skipped > 0) t.comment(`${outcome.skipped} records skipped`)
  })
}
