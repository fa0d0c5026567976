/**
 * Parses sqllogictest text into records. The format is documented in test/README.md; this
 * parser also reads QuestDB's own files (`query error`, `control`, `require`, `----` followed
 * by an expected error message).
 */
import type { Condition, ExpectedError, SltRecord, SortMode } from './slt-types.js'

/** A problem in the file itself (not in the engine), with its 1-based line. */
export class SltSyntaxError extends Error {
  constructor(readonly line: number, message: string) {
    super(`line ${line}: ${message}`)
    this.name = 'SltSyntaxError'
  }
}

const SORT_MODES: ReadonlySet<string> = new Set(['nosort', 'rowsort', 'valuesort'])
const QUESTDB_ERROR_PREFIX = /^db error: ERROR:\s*/
/** a SQLSTATE at the start of an expected error: 5 characters, class starting with a digit or XX */
const SQLSTATE = /^(?:[0-9][0-9A-Z]{4}|XX[0-9]{3})(?=\s|$)/

function isBlank(line: string): boolean {
  return line.trim() === ''
}

function isComment(line: string): boolean {
  return line.trimStart().startsWith('#')
}

/**
 * Splits the text after `statement error` (or an expected-error block) into an optional
 * SQLSTATE and a message substring; strips QuestDB's `db error: ERROR: ` prefix.
 */
export function parseExpectedError(text: string): ExpectedError {
  let rest = text.trim().replace(QUESTDB_ERROR_PREFIX, '')
  const m = SQLSTATE.exec(rest)
  let code: string | undefined
  if (m !== null) {
    code = m[0]
    rest = rest.slice(code.length).trim()
  }
  return {
    ...(code !== undefined ? { code } : {}),
    ...(rest !== '' ? { message: rest } : {}),
  }
}

/**
 * Parses the text of a `.test` file.
 *
 * @throws SltSyntaxError when a record header is malformed
 */
export function parseSlt(text: string): SltRecord[] {
  const lines = text.split(/\r?\n/)
  const records: SltRecord[] = []
  let conditions: Condition[] = []
  let i = 0

  /** reads SQL lines from i until a blank line, `----` or the end; comment lines are dropped */
  const readSql = (): string => {
    const sql: string[] = []
    while (i < lines.length && !isBlank(lines[i]!) && lines[i]!.trim() !== '----') {
      if (!isComment(lines[i]!)) sql.push(lines[i]!)
      i++
    }
    return sql.join('\n')
  }

  /** reads the block after `----` up to a blank line or the end */
  const readBlock = (): { start: number; rows: string[] } => {
    const start = i
    const rows: string[] = []
    while (i < lines.length && !isBlank(lines[i]!)) rows.push(lines[i++]!)
    return { start, rows }
  }

  while (i < lines.length) {
    const raw = lines[i]!
    if (isBlank(raw) || isComment(raw)) { i++; continue }
    const lineNo = i + 1
    const words = raw.trim().split(/\s+/)
    const head = words[0]!.toLowerCase()
    i++
    switch (head) {
      case 'skipif':
      case 'onlyif': {
        if (words[1] === undefined) throw new SltSyntaxError(lineNo, `${head} needs an engine name`)
        conditions.push({ kind: head, engine: words[1].toLowerCase() })
        continue
      }
      case 'statement': {
        const mode = words[1]?.toLowerCase()
        // QuestDB's files sometimes leave a blank line between the header and the SQL
        while (i < lines.length && isBlank(lines[i]!)) i++
        const sql = readSql()
        if (sql.trim() === '') throw new SltSyntaxError(lineNo, 'statement without SQL')
        if (mode === 'ok') {
          records.push({ kind: 'statement-ok', line: lineNo, conditions, sql })
        } else if (mode === 'error') {
          records.push({ kind: 'statement-error', line: lineNo, conditions, sql, expected: errorExpectation(words.slice(2).join(' ')) })
        } else {
          throw new SltSyntaxError(lineNo, `expected 'statement ok' or 'statement error', got '${raw.trim()}'`)
        }
        break
      }
      case 'query': {
        const types = words[1]
        if (types === undefined) throw new SltSyntaxError(lineNo, 'query needs type letters, e.g. query IT')
        const sql = readSql()
        if (sql.trim() === '') {
          // a malformed record (seen in QuestDB's files): report it, skip its block, go on
          records.push({ kind: 'unknown', line: lineNo, conditions, text: `${raw.trim()} (no SQL before ----)` })
          while (i < lines.length && !isBlank(lines[i]!)) i++
          if (i < lines.length) i++
          while (i < lines.length && !isBlank(lines[i]!)) i++
          conditions = []
          continue
        }
        if (types.toLowerCase() === 'error') {
          records.push({ kind: 'statement-error', line: lineNo, conditions, sql, expected: errorExpectation(words.slice(2).join(' ')) })
          break
        }
        let sort: SortMode | undefined
        let label: string | undefined
        let colnames = false
        for (const w of words.slice(2)) {
          if (SORT_MODES.has(w.toLowerCase())) sort = w.toLowerCase() as SortMode
          else if (w.toLowerCase() === 'colnames') colnames = true
          else label = w
        }
        const hasSeparator = i < lines.length && lines[i]!.trim() === '----'
        if (hasSeparator) i++
        const block = hasSeparator ? readBlock() : { start: i, rows: [] }
        records.push({
          kind: 'query', line: lineNo, conditions, sql, types, sort, label, colnames,
          expected: block.rows, expectedStart: block.start, expectedLength: block.rows.length, hasSeparator,
        })
        break
      }
      case 'halt':
        records.push({ kind: 'halt', line: lineNo, conditions })
        break
      case 'control':
        records.push({ kind: 'control', line: lineNo, conditions, name: (words[1] ?? '').toLowerCase(), value: (words[2] ?? '').toLowerCase() })
        break
      case 'require':
        records.push({ kind: 'require', line: lineNo, conditions, feature: words.slice(1).join(' ') })
        break
      case 'hash-threshold':
        continue
      default:
        records.push({ kind: 'unknown', line: lineNo, conditions, text: raw.trim() })
        // skip the rest of this unknown block
        while (i < lines.length && !isBlank(lines[i]!)) i++
    }
    conditions = []
  }
  return records

  /** the expectation of an error record: header text, or a `----` block after the SQL */
  function errorExpectation(headerText: string): ExpectedError {
    if (i < lines.length && lines[i]!.trim() === '----') {
      i++
      const block = readBlock()
      return parseExpectedError([headerText, ...block.rows].join(' '))
    }
    return parseExpectedError(headerText)
  }
}
