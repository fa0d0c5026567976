/**
 * Runs one `.test` file from disk in a fresh database: parse, run, optionally rewrite the
 * expected output (`EPOCHDB_SLT_COMPLETE=1`), close the database.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { completeSlt } from './complete-slt.js'
import { parseSlt, SltSyntaxError } from './parse-slt.js'
import { runSlt } from './run-slt.js'
import type { FileOutcome, Flavor, SltDatabase } from './slt-types.js'

/** Options of {@link runSltFile}. */
export interface RunFileOptions {
  /** absolute path of the file */
  readonly path: string
  /** path shown in messages (relative to the repository root) */
  readonly display: string
  readonly flavor: Flavor
  /** opens the fresh database the file runs in */
  readonly open: () => Promise<SltDatabase>
  /** rewrite the file's expected rows with the actual ones */
  readonly complete?: boolean
  /** features `require` accepts; any other `require` skips the rest of the file */
  readonly features?: ReadonlySet<string>
}

/**
 * Runs a file. A file that does not parse yields one failed outcome naming the bad line.
 */
export async function runSltFile(opts: RunFileOptions): Promise<FileOutcome> {
  const text = readFileSync(opts.path, 'utf8')
  let records
  try {
    records = parseSlt(text)
  } catch (e) {
    if (!(e instanceof SltSyntaxError)) throw e
    return {
      file: opts.display, passed: 0, failed: 1, skipped: 0,
      outcomes: [{ line: e.line, kind: 'unknown', status: 'fail', message: `${opts.display}:${e.line}: ${e.message}` }],
    }
  }
  const db = await opts.open()
  let outcome: FileOutcome
  try {
    outcome = await runSlt(records, db, { file: opts.display, flavor: opts.flavor, ...(opts.features === undefined ? {} : { features: opts.features }) })
  } finally {
    await db.close()
  }
  if (opts.complete === true) {
    const next = completeSlt(text, records, outcome)
    if (next !== text) writeFileSync(opts.path, next)
  }
  return outcome
}
