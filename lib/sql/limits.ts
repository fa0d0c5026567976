/**
 * Limits on what one call to the parser accepts, checked before the Earley parser runs: the
 * length of the SQL text (54000 program_limit_exceeded), the items of one comma-separated list
 * and the depth of nesting (54001 statement_too_complex). A statement over a limit costs one
 * linear pass over its text or tokens, never a parse, so a hostile 5 MB `1+1+...` is refused in
 * milliseconds and nothing after the parser (binder, evaluator, printers, the adapters' AST
 * walks, all recursive) ever sees a tree deeper than the limit.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../errors.js'
import type { Token } from './lexer.js'

/** What one parse accepts. Every field is a positive integer. */
export interface ParseLimits {
  /** characters of the SQL text given to one parse call (a script counts whole) */
  readonly maxLength: number
  /** items of one comma-separated list: an IN list, VALUES rows, select items, arguments, ... */
  readonly maxListItems: number
  /**
   * nesting depth, estimated from the tokens: each open parenthesis, bracket or CASE counts 2,
   * each operator (`+`, `=`, `::`, AND, OR, NOT, IN, LIKE, IS, BETWEEN, UNION, ...) and each
   * SELECT counts 1, over the operators and brackets that enclose a token (a comma starts a
   * sibling, so operators before it no longer count). A chain `1+1+...` of n terms has depth
   * about n, as the left-deep tree it builds.
   */
  readonly maxDepth: number
}

/**
 * The defaults: 2 Mi characters (a 30,000-row INSERT of 70-character rows fits; parsing takes
 * about 100 bytes of heap per character), 1,000,000 list items, depth 1,000 (a chain of 1,000
 * terms; the recursive passes after the parser are tested at this depth).
 */
export const DEFAULT_PARSE_LIMITS: ParseLimits = Object.freeze({
  maxLength: 2 * 1024 * 1024,
  maxListItems: 1_000_000,
  maxDepth: 1000,
})

/** Operator tokens (`op` type) that build a tree node; the rest are punctuation. */
const OPERATORS: ReadonlySet<string> = new Set([
  '::', '||', '<<=', '>>=', '<=', '>=', '<>', '!=', '!~', '<<', '>>', '=', '<', '>', '~', '&', '|', '^', '%', '+', '-', '*', '/',
])

/** Keywords that build a tree node (a boolean operator, a predicate, a set operation, a query). */
const KEYWORD_OPERATORS: ReadonlySet<string> = new Set([
  'AND', 'OR', 'NOT', 'IN', 'BETWEEN', 'LIKE', 'ILIKE', 'IS', 'UNION', 'EXCEPT', 'INTERSECT', 'SELECT',
])

/** The weight of one open parenthesis, bracket or CASE. */
const LEVEL_WEIGHT = 2

/** Fills the defaults in and checks the values. */
export function parseLimits(given: Partial<ParseLimits> = {}): ParseLimits {
  const out = { ...DEFAULT_PARSE_LIMITS, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) }
  for (const [k, v] of Object.entries(out)) {
    if (!Number.isSafeInteger(v) || v <= 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `parse limit ${k} must be a positive integer, got ${String(v)}`)
  }
  return out
}

/**
 * Refuses a text longer than `limits.maxLength` (54000), before it is lexed.
 *
 * @throws SqlError 54000 at the first character past the limit.
 */
export function checkLength(sql: string, limits: ParseLimits): void {
  if (sql.length > limits.maxLength) {
    throw new SqlError(SqlState.PROGRAM_LIMIT_EXCEEDED, `statement is too long: ${sql.length} characters, the limit is ${limits.maxLength}`, limits.maxLength,
      { hint: 'split it into several statements, or raise the limit (parseLimits.maxLength, server key epochdb.sql.max.statement.length)' })
  }
}

/** One open parenthesis, bracket or CASE, with the operators seen inside it since the last comma. */
interface Level {
  readonly close: string
  ops: number
  items: number
}

/**
 * Refuses a list longer than `limits.maxListItems` or nesting deeper than `limits.maxDepth`
 * (54001), in one pass over the tokens (see {@link ParseLimits.maxDepth} for how depth is
 * counted). Brackets need not balance here: the parser reports that.
 *
 * @throws SqlError 54001 at the token that crosses the limit.
 */
export function checkTokens(tokens: readonly Token[], limits: ParseLimits): void {
  const steps = checkTokenSteps(tokens, limits)
  while (steps.next().done !== true) { /* one go */ }
}

/** Tokens {@link checkTokenSteps} reads between two yields. */
const CHECK_STEP_TOKENS = 16384

/**
 * {@link checkTokens} as steps: yields after every {@link CHECK_STEP_TOKENS} tokens, so an async
 * parser can pause while it checks the 300,000 tokens of a 150,000-item list.
 *
 * @throws SqlError 54001 at the token that crosses a limit.
 */
export function* checkTokenSteps(tokens: readonly Token[], limits: ParseLimits): Generator<void, void> {
  const levels: Level[] = [{ close: ';', ops: 0, items: 1 }]
  let depth = 0 // LEVEL_WEIGHT per level above the outermost, plus every level's ops
  let counted = 0
  for (const t of tokens) {
    if (++counted === CHECK_STEP_TOKENS) { counted = 0; yield }
    // literals (most tokens of a bulk INSERT) neither open, close nor chain anything
    const type = t.type
    if (type === 'string' || type === 'float' || type === 'integer') continue
    const top = levels[levels.length - 1] as Level
    let grow = 0
    if (t.type === 'op') {
      const s = t.text
      if (s === '(' || s === '[') {
        levels.push({ close: s === '(' ? ')' : ']', ops: 0, items: 1 })
        grow = LEVEL_WEIGHT
      } else if (s === top.close && levels.length > 1) {
        levels.pop()
        depth -= LEVEL_WEIGHT + top.ops
      } else if (s === ',') {
        if (++top.items > limits.maxListItems) throw tooComplex(`a list has more than ${limits.maxListItems} items`, t.offset, 'parseLimits.maxListItems, server key epochdb.sql.max.list.items')
        depth -= top.ops
        top.ops = 0
      } else if (s === ';') {
        levels.length = 1
        levels[0] = { close: ';', ops: 0, items: 1 }
        depth = 0
      } else if (OPERATORS.has(s)) {
        top.ops++
        grow = 1
      }
    } else if (t.type === 'CASE') {
      levels.push({ close: 'END', ops: 0, items: 1 })
      grow = LEVEL_WEIGHT
    } else if (t.type === 'END' && top.close === 'END') {
      levels.pop()
      depth -= LEVEL_WEIGHT + top.ops
    } else if (KEYWORD_OPERATORS.has(t.type as string)) {
      top.ops++
      grow = 1
    }
    depth += grow
    if (depth > limits.maxDepth) throw tooComplex(`expressions are nested too deeply or operator chains are too long (depth limit ${limits.maxDepth})`, t.offset, 'parseLimits.maxDepth, server key epochdb.sql.max.expression.depth')
  }
}

function tooComplex(message: string, position: number, limit: string): SqlError {
  return new SqlError(SqlState.STATEMENT_TOO_COMPLEX, `statement is too complex: ${message}`, position,
    { hint: `simplify or split the statement, or raise the limit (${limit})` })
}
