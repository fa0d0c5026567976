/**
 * The conformance figure: records passed per QuestDB sqllogictest file, as a markdown report.
 */
import { FAILURE_REASONS } from './failure-reasons.js'
import type { FileOutcome } from '../sql/runner/slt-types.js'

/** Totals over a set of file outcomes. */
export interface ConformanceTotals {
  readonly files: number
  readonly passed: number
  /** passed + failed (skipped records are not counted) */
  readonly total: number
  readonly skipped: number
  /** query records passed / run (statements excluded: most `statement ok` are setup) */
  readonly queriesPassed: number
  readonly queries: number
}

/** Adds up file outcomes. */
export function totals(outcomes: readonly FileOutcome[]): ConformanceTotals {
  let passed = 0
  let total = 0
  let skipped = 0
  let queriesPassed = 0
  let queries = 0
  for (const o of outcomes) {
    passed += o.passed
    total += o.passed + o.failed
    skipped += o.skipped
    for (const r of o.outcomes) {
      if (r.kind !== 'query' || r.status === 'skip') continue
      queries++
      if (r.status === 'pass') queriesPassed++
    }
  }
  return { files: outcomes.length, passed, total, skipped, queriesPassed, queries }
}

function percent(passed: number, total: number): string {
  return total === 0 ? '-' : `${((100 * passed) / total).toFixed(1)}%`
}

/** One line summary, e.g. `QuestDB sqllogictest conformance: 120/480 records (25.0%) in 40 files`. */
export function summaryLine(t: ConformanceTotals): string {
  return `QuestDB sqllogictest conformance: ${t.passed}/${t.total} records (${percent(t.passed, t.total)}) in ${t.files} files, ${t.skipped} skipped; queries alone ${t.queriesPassed}/${t.queries} (${percent(t.queriesPassed, t.queries)})`
}

/** The markdown report written to docs/conformance.md by `npm run conformance`. */
export function markdownReport(outcomes: readonly FileOutcome[], when: Date): string {
  const t = totals(outcomes)
  const rows = outcomes.map(o => `| \`${o.file}\` | ${o.passed} | ${o.passed + o.failed} | ${percent(o.passed, o.passed + o.failed)} | ${o.skipped} |`)
  return [
    '# QuestDB conformance',
    '',
    'How many records (statements and queries) of QuestDB\'s own sqllogictest suite',
    '(`core/src/test/resources/sqllogictest/test/`, read from `../shared/conformance/questdb-slt`)',
    'EpochDB passes. This is a measurement, not a gate. Regenerate with `npm run conformance`;',
    'the rules of comparison are in [test/README.md](../test/README.md#questdb-conformance-testconformance).',
    '',
    `Measured ${when.toISOString().slice(0, 10)}: **${t.passed} / ${t.total} records (${percent(t.passed, t.total)})** in ${t.files} files; ${t.skipped} records skipped (after \`require parquet\`, and \`PRAGMA\` statements, which QuestDB's runner skips too). Queries alone (statements excluded, most are setup): **${t.queriesPassed} / ${t.queries} (${percent(t.queriesPassed, t.queries)})**.`,
    '',
    '| file | passed | records | % | skipped |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    ...failureList(outcomes),
  ].join('\n')
}

/** Every failed record with the runner's message and the reason from failure-reasons.ts. */
function failureList(outcomes: readonly FileOutcome[]): string[] {
  const lines: string[] = []
  for (const o of outcomes) {
    for (const r of o.outcomes) {
      if (r.status !== 'fail') continue
      const key = `${o.file}:${r.line}`
      const first = (r.message ?? '').split('\n')[0]!.replace(/^\S+:\d+: /, '').replace(/\|/g, '\\|').slice(0, 160)
      lines.push(`| \`${key.replace(/^questdb-slt\//, '')}\` | ${first} | ${(FAILURE_REASONS[key] ?? 'not analysed yet').replace(/\|/g, '\\|')} |`)
    }
  }
  if (lines.length === 0) return []
  return [
    '### Remaining failures',
    '',
    'Each failed record, what the runner saw, and why (test/conformance/failure-reasons.ts).',
    '',
    '| record | runner | reason |',
    '| --- | --- | --- |',
    ...lines,
    '',
  ]
}
