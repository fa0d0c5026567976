/**
 * `--complete` mode: rewrites the expected rows of the queries in a `.test` file with what the
 * engine returned (enabled by `EPOCHDB_SLT_COMPLETE=1`). Review the diff before committing it:
 * the files are the behaviour spec, and completion copies bugs as faithfully as features.
 */
import type { FileOutcome, SltRecord } from './slt-types.js'

/**
 * Returns the file text with each query's expected block replaced by its actual rows. Queries
 * that did not run (skipped, or failed before producing rows) keep their expected rows.
 */
export function completeSlt(text: string, records: readonly SltRecord[], outcome: FileOutcome): string {
  const lines = text.split('\n')
  const actualByLine = new Map<number, readonly string[]>()
  for (const o of outcome.outcomes) if (o.actual !== undefined) actualByLine.set(o.line, o.actual)
  const queries = records.filter(r => r.kind === 'query').sort((a, b) => b.line - a.line)
  for (const q of queries) {
    const actual = actualByLine.get(q.line)
    if (actual === undefined) continue
    if (q.hasSeparator) {
      lines.splice(q.expectedStart, q.expectedLength, ...actual)
    } else {
      lines.splice(q.expectedStart, 0, '----', ...actual)
    }
  }
  return lines.join('\n')
}
