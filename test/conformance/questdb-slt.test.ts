/**
 * Measures conformance with QuestDB's own sqllogictest files (../shared/conformance/questdb-slt,
 * outside this repository): each file runs in a fresh Database with the SLT runner in `questdb`
 * flavor. The figure is printed and, with EPOCHDB_CONFORMANCE_REPORT=<path>, written as markdown.
 * Not a gate: the test asserts only that the files were found and parsed.
 */
import t from 'tap'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Database } from '../../lib/index.js'
import { findSltFiles } from '../sql/runner/find-files.js'
import { runSltFile } from '../sql/runner/run-file.js'
import type { FileOutcome, QueryResult, SltDatabase } from '../sql/runner/slt-types.js'
import { markdownReport, summaryLine, totals } from './conformance-report.js'

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
// EPOCHDB_CONFORMANCE_DIR: the folder holding questdb-slt/ (a git worktree is not beside ../shared)
const dataDir = join(process.env['EPOCHDB_CONFORMANCE_DIR'] ?? join(repoRoot, '..', 'shared', 'conformance'), 'questdb-slt')
/**
 * Features the files may `require`. QuestDB's runner (AbstractSqllogicTestRunner) serves the
 * files from a server whose `cairo.sql.copy.root` is the sqllogictest resource folder, so a
 * file's `parquet_scan('data/...')` reads from that folder's data/; EpochDB has read_parquet and
 * QuestDB's alias parquet_scan, so `require parquet` runs the rest of the file here too.
 */
const SLT_FEATURES: ReadonlySet<string> = new Set(['parquet'])
/** a statement that takes longer than this counts as failed (the engine may still be busy) */
const STATEMENT_TIMEOUT_MS = 10_000

async function openDb(): Promise<SltDatabase> {
  // the copy root is the data folder, as QuestDB's runner sets it (relative 'data/...' paths)
  const db = await Database.open({ copyRoot: dataDir })
  return {
    query: (sql: string): Promise<QueryResult> => {
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`statement timed out after ${STATEMENT_TIMEOUT_MS} ms`)), STATEMENT_TIMEOUT_MS)
      })
      return Promise.race([db.query(sql), timeout]).finally(() => clearTimeout(timer))
    },
    close: () => db.close(),
  }
}

if (!existsSync(dataDir)) {
  t.plan(0, `QuestDB conformance data not found at ${dataDir}; skipping`)
} else {
  // EPOCHDB_CONFORMANCE_ONLY=<substring>: run only the files whose path contains it (no report then)
  const only = process.env['EPOCHDB_CONFORMANCE_ONLY']
  const files = findSltFiles(dataDir).filter(f => only === undefined || only === '' || f.includes(only))
  const outcomes: FileOutcome[] = []
  for (const file of files) {
    const display = `questdb-slt/${file}`
    try {
      outcomes.push(await runSltFile({ path: join(dataDir, file), display, flavor: 'questdb', open: openDb, features: SLT_FEATURES }))
    } catch (e) {
      // the engine failed outside a statement (open/close): the file counts as one failed record
      outcomes.push({ file: display, passed: 0, failed: 1, skipped: 0, outcomes: [{ line: 0, kind: 'unknown', status: 'fail', message: String(e) }] })
    }
  }
  const sum = totals(outcomes)
  t.comment(summaryLine(sum))
  for (const o of outcomes) t.comment(`${o.file}: ${o.passed}/${o.passed + o.failed}`)
  if (process.env['EPOCHDB_CONFORMANCE_VERBOSE'] === '1') {
    for (const o of outcomes) for (const r of o.outcomes) if (r.status === 'fail') t.comment(r.message ?? '')
  }
  t.ok(files.length > 0, `found ${files.length} QuestDB .test files`)
  t.ok(sum.total + sum.skipped > 0, `parsed ${sum.total + sum.skipped} records`)
  const report = process.env['EPOCHDB_CONFORMANCE_REPORT']
  if (report !== undefined && report !== '' && (only === undefined || only === '')) {
    const path = isAbsolute(report) ? report : join(repoRoot, report)
    // the file may go on with sections written by other runners (e.g. "## PostgreSQL drivers"):
    // keep everything from the first such heading on
    const old = existsSync(path) ? readFileSync(path, 'utf8') : ''
    const keep = old.search(/^## PostgreSQL drivers/m)
    writeFileSync(path, markdownReport(outcomes, new Date()) + (keep >= 0 ? '\n' + old.slice(keep) : ''))
    t.comment(`wrote ${path}`)
  }
}
