/**
 * Runs parsed sqllogictest records against one database and reports an outcome per record.
 * A record fails with a `file:line` message showing expected versus actual.
 */
import { SqlError } from '../../../lib/errors.js'
import { compareRows } from './compare-rows.js'
import { formatValue, isIntegerType, isRealType, normaliseQuestDbTimestamps, typeLetter } from './format-value.js'
import type {
  FileOutcome, Flavor, Query, QueryResult, RecordOutcome, SltDatabase, SltRecord, StatementError,
} from './slt-types.js'

/** The engine name that `skipif` / `onlyif` match. */
export const ENGINE_NAME = 'epochdb'

/** Options of {@link runSlt}. */
export interface RunOptions {
  /** path shown in failure messages */
  readonly file: string
  readonly flavor: Flavor
  /** features `require` accepts; any other `require` skips the rest of the file */
  readonly features?: ReadonlySet<string>
}

const ORDER_BY = /\border\s+by\b/i

function indent(lines: readonly string[]): string {
  return lines.length === 0 ? '  (no rows)' : lines.map(l => '  ' + l).join('\n')
}

function describeError(e: unknown): string {
  if (e instanceof SqlError) return `SqlError ${e.code} at ${e.position}: ${e.message}`
  if (e instanceof Error) return `${e.name}: ${e.message}`
  return String(e)
}

function applies(record: SltRecord): boolean {
  for (const c of record.conditions) {
    if (c.kind === 'skipif' && c.engine === ENGINE_NAME) return false
    if (c.kind === 'onlyif' && c.engine !== ENGINE_NAME) return false
  }
  return true
}

/** Formats every row of a result as cells of text. */
export function formatRows(result: QueryResult, flavor: Flavor): string[][] {
  const types = result.columns.map(c => c.type)
  return result.rows.map(row => row.map((v, k) => formatValue(v, types[k] ?? 'STRING', flavor)))
}

function checkTypes(q: Query, result: QueryResult): string | undefined {
  const letters = q.types.toUpperCase()
  if (letters.length !== result.columns.length) {
    return `query declares ${letters.length} columns (${q.types}), result has ${result.columns.length}`
  }
  for (let k = 0; k < letters.length; k++) {
    const type = result.columns[k]!.type
    const letter = letters[k]!
    if (letter === 'I' && !isIntegerType(type)) return `column ${k + 1} (${result.columns[k]!.name}) is ${type}, declared I`
    if (letter === 'R' && !isRealType(type)) return `column ${k + 1} (${result.columns[k]!.name}) is ${type}, declared R`
  }
  return undefined
}

async function runStatementError(r: StatementError, db: SltDatabase, where: string): Promise<RecordOutcome> {
  const base = { line: r.line, kind: r.kind }
  const want = [r.expected.code, r.expected.message].filter(x => x !== undefined).join(' ') || '(any error)'
  try {
    await db.query(r.sql)
  } catch (e) {
    if (!(e instanceof SqlError)) {
      return { ...base, status: 'fail', message: `${where}: expected a SqlError (${want}), got ${describeError(e)}\nSQL: ${r.sql}` }
    }
    const codeOk = r.expected.code === undefined || r.expected.code === e.code
    const messageOk = r.expected.message === undefined || e.message.includes(r.expected.message)
    if (codeOk && messageOk) return { ...base, status: 'pass' }
    return { ...base, status: 'fail', message: `${where}: wrong error\nSQL: ${r.sql}\nexpected: ${want}\nactual:   ${e.code} ${e.message}` }
  }
  return { ...base, status: 'fail', message: `${where}: statement succeeded, expected error: ${want}\nSQL: ${r.sql}` }
}

async function runQuery(q: Query, db: SltDatabase, opts: RunOptions, labels: Map<string, string>): Promise<RecordOutcome> {
  const where = `${opts.file}:${q.line}`
  const base = { line: q.line, kind: q.kind }
  let result: QueryResult
  try {
    result = await db.query(q.sql)
  } catch (e) {
    return { ...base, status: 'fail', message: `${where}: query failed: ${describeError(e)}\nSQL: ${q.sql}` }
  }
  const rows = formatRows(result, opts.flavor)
  const names = result.columns.map(c => c.name)
  const actual = (q.colnames ? [names, ...rows] : rows).map(r => r.join('\t'))
  const fail = (why: string): RecordOutcome => ({
    ...base, status: 'fail', actual,
    message: `${where}: ${why}\nSQL: ${q.sql}\nexpected:\n${indent(q.expected)}\nactual (${result.columns.map(c => `${c.name} ${c.type}`).join(', ')}):\n${indent(actual)}`,
  })
  if (opts.flavor === 'epochdb') {
    const typeProblem = checkTypes(q, result)
    if (typeProblem !== undefined) return fail(typeProblem)
    const expectedRows = q.expected.length - (q.colnames ? 1 : 0)
    if (q.sort === undefined && Math.max(rows.length, expectedRows) > 1 && !ORDER_BY.test(q.sql)) {
      return fail('a query with more than one row needs ORDER BY or a sort mode (nosort, rowsort, valuesort)')
    }
  }
  const expected = opts.flavor === 'questdb' ? q.expected.map(normaliseQuestDbTimestamps) : q.expected
  let cmp = compareRows(expected.slice(q.colnames ? 1 : 0), rows, q.sort, opts.flavor)
  if (cmp.ok && q.colnames) {
    cmp = compareRows(expected.slice(0, 1), [names], 'nosort', opts.flavor)
    if (!cmp.ok) cmp = { ok: false, reason: 'column names differ' }
  }
  if (!cmp.ok) return fail(cmp.reason ?? 'result differs')
  if (q.label !== undefined) {
    const text = actual.join('\n')
    const seen = labels.get(q.label)
    if (seen === undefined) labels.set(q.label, text)
    else if (seen !== text && q.sort === undefined) return fail(`result differs from the earlier query labelled ${q.label}`)
  }
  return { ...base, status: 'pass', actual }
}

/** Runs the records of one file in order against `db`. */
export async function runSlt(records: readonly SltRecord[], db: SltDatabase, opts: RunOptions): Promise<FileOutcome> {
  const outcomes: RecordOutcome[] = []
  const labels = new Map<string, string>()
  let skipRest = false
  for (const r of records) {
    if (r.kind === 'halt') { if (applies(r)) break; continue }
    if (skipRest || !applies(r)) { outcomes.push({ line: r.line, kind: r.kind, status: 'skip' }); continue }
    // QuestDB's runner (core/rust/qdbr/src/sqllogictest) skips statements that start with PRAGMA
    if (opts.flavor === 'questdb' && r.kind.startsWith('statement') && 'sql' in r && r.sql.startsWith('PRAGMA')) { outcomes.push({ line: r.line, kind: r.kind, status: 'skip' }); continue }
    const where = `${opts.file}:${r.line}`
    switch (r.kind) {
      case 'control':
        await db.control?.(r.name, r.value)
        break
      case 'require':
        if (!(opts.features?.has(r.feature) ?? false)) skipRest = true
        break
      case 'unknown':
        outcomes.push({ line: r.line, kind: r.kind, status: 'fail', message: `${where}: unknown directive '${r.text}'` })
        break
      case 'statement-ok':
        try {
          await db.query(r.sql)
          outcomes.push({ line: r.line, kind: r.kind, status: 'pass' })
        } catch (e) {
          outcomes.push({ line: r.line, kind: r.kind, status: 'fail', message: `${where}: statement failed: ${describeError(e)}\nSQL: ${r.sql}` })
        }
        break
      case 'statement-error':
        outcomes.push(await runStatementError(r, db, where))
        break
      case 'query':
        outcomes.push(await runQuery(r, db, opts, labels))
        break
      default: {
        const never: never = r
        throw new Error(`unhandled record ${(never as SltRecord).kind}`)
      }
    }
  }
  let passed = 0
  let failed = 0
  let skipped = 0
  for (const o of outcomes) {
    if (o.status === 'pass') passed++
    else if (o.status === 'fail') failed++
    else skipped++
  }
  return { file: opts.file, outcomes, passed, failed, skipped }
}

/** The type letters of a result, for rewriting a query header. */
export function resultTypeLetters(result: QueryResult): string {
  return result.columns.map(c => typeLetter(c.type)).join('')
}
