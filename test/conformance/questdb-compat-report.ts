/**
 * The "PostgreSQL drivers" section of docs/conformance.md: pass/fail of QuestDB's cross-driver
 * suite per test and driver, and the first failure of each. Only that section (from its heading
 * to the end of the file) is rewritten; the part above belongs to the SQL conformance runner.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { TestOutcome } from './questdb-compat-compare.js'

/** Outcomes of one driver, or why it did not run. */
export interface DriverRun {
  readonly driver: string
  readonly outcomes?: readonly TestOutcome[]
  readonly skipped?: string
}

const HEADING = '## PostgreSQL drivers'

const cell = (o: TestOutcome | undefined): string => (o === undefined ? '–' : o.status === 'pass' ? 'pass' : o.status === 'fail' ? '**fail**' : 'excluded')
const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** The markdown section. */
export function compatMarkdown(runs: readonly DriverRun[], tests: readonly string[], date: string): string {
  const lines = [HEADING, '',
    "QuestDB's cross-driver suite (`compat/src/test/resources/test_cases.yaml`, read from",
    '`../shared/conformance/questdb-compat`) run against the pgwire adapter through each driver.',
    'A measurement, not a gate. Regenerate with `npm run conformance:drivers`.', '',
    `Measured ${date}:`, '']
  for (const r of runs) {
    if (r.outcomes === undefined) { lines.push(`- ${r.driver}: not run (${r.skipped ?? 'unavailable'})`); continue }
    const pass = r.outcomes.filter((o) => o.status === 'pass').length
    const ran = r.outcomes.filter((o) => o.status !== 'excluded').length
    lines.push(`- ${r.driver}: **${pass} / ${ran}** tests pass (${r.outcomes.length - ran} excluded by the suite)`)
  }
  lines.push('', `| test | ${runs.map((r) => r.driver).join(' | ')} |`, `| --- |${runs.map(() => ' :---: |').join('')}`)
  for (const t of tests) lines.push(`| ${esc(t)} | ${runs.map((r) => cell(r.outcomes?.find((o) => o.test === t))).join(' | ')} |`)
  lines.push('', '### First failure per test and driver', '')
  const before = lines.length
  for (const r of runs) {
    for (const o of r.outcomes ?? []) if (o.status === 'fail') lines.push(`- ${r.driver} / ${esc(o.test)}: ${esc(o.message ?? '').slice(0, 300)}`)
  }
  if (lines.length === before) lines.push('None: every test that ran passed.')
  return lines.join('\n') + '\n'
}

/** Writes the section into `path`, replacing a previous one. */
export function writeCompatSection(path: string, section: string): void {
  const old = existsSync(path) ? readFileSync(path, 'utf8') : ''
  const at = old.indexOf(`\n${HEADING}\n`)
  const head = at >= 0 ? old.slice(0, at + 1) : old.endsWith('\n') || old === '' ? old : old + '\n'
  writeFileSync(path, `${head}${head === '' ? '' : '\n'}${section}`.replace(/\n\n\n+/g, '\n\n'))
}
