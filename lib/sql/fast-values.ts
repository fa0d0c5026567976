/**
 * The parser's fastest path, for the commonest big statement: `INSERT ... VALUES (...), (...)`
 * whose rows after the first are plain literals. The statement's head, up to the end of the
 * first row, is lexed and parsed as usual (grammar, templates, fast-lists.ts); the other rows are
 * read straight from the text into the AST nodes the grammar's builders make (`build/expr.ts`),
 * without a token per value — a 1,000-row x 21-value INSERT makes 43,000 tokens otherwise, most
 * of the parse's time and garbage.
 *
 * A row item is a string literal, a plain number (as the lexer reads it by hand: digits,
 * optionally `.` and digits), NULL, TRUE, FALSE or NaN, optionally signed. Anything else —
 * comments, casts, parameters, typed literals, other characters, a second statement, a list over
 * the parse limits — makes {@link scanValues} answer undefined, and the caller parses the whole
 * text as before: the AST and every error are the grammar's (test/unit/sql/fast-values.test.ts
 * compares both ways on a corpus).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { Expr, Statement } from './ast.js'
import type { Token } from './lexer.js'
import { tokenizeHead } from './lexer.js'
import { keywordLiteral, numberLiteral, stringLiteral, unary } from './build/expr.js'
import type { ParseLimits } from './limits.js'
import { checkTokens } from './limits.js'
import { valuesIndex } from './fast-lists.js'

/** Tokens lexed to find the end of the first row (a longer head: the usual path). */
const HEAD_TOKENS = 1024

/** Rows read between two yields of {@link scanValues}. */
const STEP_ROWS = 256

/** Depth of a row item as the limits count it: the row's parenthesis (2) and a sign (1). */
const ITEM_DEPTH = 3

/** What {@link scanValues} read: the head to parse, and the rows after it. */
export interface ScannedValues {
  /** tokens of the statement up to the first row's `)` (checked against the limits) */
  readonly head: Token[]
  /** the other rows, as the grammar's builders make them */
  readonly rows: Expr[][]
  /** offset just past the last row's `)` */
  readonly end: number
}

const isOp = (t: Token | undefined, text: string): boolean => t !== undefined && t.type === 'op' && t.text === text

/** The index of the first row's `)` in `tokens`, after `INSERT ... VALUES`; -1 if not there. */
function firstRowEnd(tokens: readonly Token[]): number {
  const values = valuesIndex(tokens)
  if (values < 0 || !isOp(tokens[values + 1], '(')) return -1
  let depth = 0
  for (let i = values + 1; i < tokens.length; i++) {
    const t = tokens[i] as Token
    if (isOp(t, '(')) depth++
    else if (isOp(t, ')') && --depth === 0) return i
    else if (isOp(t, ';')) return -1
  }
  return -1
}

const CH_0 = 48
const CH_9 = 57

const isDigit = (c: number): boolean => c >= CH_0 && c <= CH_9
/** Characters that continue a number beyond what this scanner reads (`1_000`, `1e5`, `5L`, `1.`, `0x1f`). */
const continuesNumber = (c: number): boolean => c === 46 || c === 95 || isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c >= 0xc0
/** Characters of a word (an identifier or keyword as the lexer reads it; `$` and non-ASCII send the text to the usual path). */
const isWordChar = (c: number): boolean => c === 95 || isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
const isSpace = (c: number): boolean => c === 32 || c === 10 || c === 9 || c === 13

/** The keyword literals a row item may be, by lower-case spelling: their token types. */
const KEYWORD_ITEMS: ReadonlyMap<string, string> = new Map([['null', 'NULL'], ['true', 'TRUE'], ['false', 'FALSE'], ['nan', 'NAN']])

/** A token-shaped record for the builders (they read `type`, `text` and `offset`). */
const tok = (type: string, text: string, offset: number): Token => ({ type, value: text, text, offset }) as Token

/**
 * Reads `sql` as `INSERT ... VALUES (first row), (row), ...` as steps (yields every few hundred
 * rows); returns undefined when the text is anything else or over `limits` (then parse it as
 * usual). Throws only what lexing the head throws.
 */
export function* scanValues(sql: string, limits: ParseLimits): Generator<void, ScannedValues | undefined> {
  let p = 0
  while (isSpace(sql.charCodeAt(p))) p++
  // INSERT, case-insensitively, before any lexing
  if (sql.length - p < 7 || sql.slice(p, p + 6).toLowerCase() !== 'insert' || isWordChar(sql.charCodeAt(p + 6))) return undefined
  let head: Token[]
  try {
    head = tokenizeHead(sql, HEAD_TOKENS).tokens
  } catch {
    return undefined
  }
  const close = firstRowEnd(head)
  if (close < 0 || limits.maxDepth < ITEM_DEPTH) return undefined
  head = head.slice(0, close + 1)
  const n = sql.length
  p = (head[close] as Token).offset + 1
  const rows: Expr[][] = []
  let end = p
  for (;;) {
    end = p
    while (isSpace(sql.charCodeAt(p))) p++
    if (sql.charCodeAt(p) !== 44 /* , */) break
    p++
    while (isSpace(sql.charCodeAt(p))) p++
    if (sql.charCodeAt(p) !== 40 /* ( */) return undefined
    p++
    const row: Expr[] = []
    for (;;) {
      while (isSpace(sql.charCodeAt(p))) p++
      let sign: Token | undefined
      let c = sql.charCodeAt(p)
      if (c === 45 /* - */ || c === 43 /* + */) {
        sign = tok('op', c === 45 ? '-' : '+', p)
        p++
        while (isSpace(sql.charCodeAt(p))) p++
        c = sql.charCodeAt(p)
      }
      let item: Expr
      const start = p
      if (c === 39 /* ' */) {
        let j = p + 1
        for (;;) {
          j = sql.indexOf("'", j)
          if (j < 0) return undefined
          if (sql.charCodeAt(j + 1) === 39) { j += 2; continue }
          break
        }
        p = j + 1
        item = stringLiteral(tok('string', sql.slice(start, p), start))
      } else if (isDigit(c)) {
        if (c === CH_0 && (sql.charCodeAt(p + 1) | 32) === 120 /* x */) return undefined
        p++
        while (isDigit(sql.charCodeAt(p))) p++
        let type = 'integer'
        if (sql.charCodeAt(p) === 46 /* . */ && isDigit(sql.charCodeAt(p + 1))) {
          p += 2
          while (isDigit(sql.charCodeAt(p))) p++
          type = 'float'
        }
        if (p < n && continuesNumber(sql.charCodeAt(p))) return undefined
        item = numberLiteral(tok(type, sql.slice(start, p), start))
      } else if (isWordChar(c)) {
        while (isWordChar(sql.charCodeAt(p))) p++
        const after = sql.charCodeAt(p)
        if (after === 36 /* $ */ || after >= 0x80) return undefined
        const type = KEYWORD_ITEMS.get(sql.slice(start, p).toLowerCase())
        if (type === undefined) return undefined
        const t = tok(type, sql.slice(start, p), start)
        item = type === 'NAN' ? numberLiteral(t) : keywordLiteral(t)
      } else {
        return undefined
      }
      row.push(sign === undefined ? item : unary(sign, item))
      while (isSpace(sql.charCodeAt(p))) p++
      c = sql.charCodeAt(p)
      p++
      if (c === 41 /* ) */) break
      if (c !== 44 /* , */ || row.length >= limits.maxListItems) return undefined
    }
    rows.push(row)
    // the rows are items of the statement's outermost list; the first row is one of them
    if (rows.length + 1 > limits.maxListItems) return undefined
    if (rows.length % STEP_ROWS === 0) yield
  }
  if (sql.charCodeAt(p) === 59 /* ; */) {
    p++
    while (isSpace(sql.charCodeAt(p))) p++
  }
  if (p < n || rows.length === 0) return undefined
  try {
    checkTokens(head, limits)
  } catch {
    return undefined
  }
  return { head, rows, end }
}

/**
 * Puts the scanned rows after the first row of `stmt` (the head's parse); false when `stmt` is
 * not the one-row INSERT ... VALUES the head should give.
 */
export function appendRows(stmt: Statement, scanned: ScannedValues): boolean {
  if (stmt.kind !== 'insert' || stmt.source.kind !== 'values' || stmt.source.rows.length !== 1) return false
  ;(stmt.source as unknown as { rows: (readonly Expr[])[] }).rows = [stmt.source.rows[0] as readonly Expr[], ...scanned.rows]
  return true
}
