/**
 * Syntax errors of a join's condition that QuestDB words itself, found by walking the tokens
 * back from where the Earley parser stopped: the ON of a CROSS JOIN, and the USING of standard
 * SQL, which QuestDB's dialect does not have (its form for same-named columns is `ON (k)`).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { SqlError } from '../errors.js'
import { syntaxError } from '../errors.js'
import type { Token } from './lexer.js'

/**
 * The error for `JOIN t USING (k)`, at the USING. QuestDB reads `using` as the table's alias and
 * then wants ON (`'on' expected`, at the parenthesis); ours names the word and the form to use.
 */
export function joinUsingError(position: number): SqlError {
  return syntaxError("'on' expected: JOIN ... USING (k) is not supported; join on same-named columns with ON (k)", position)
}

/**
 * The index of the JOIN keyword whose FROM item ends just before `tokens[at]`: walking back, only
 * a name (quoted too), an alias, AS, `.` or a parenthesized subquery (or call) may stand between
 * them, and LATERAL when `lateral`; -1 when something else does.
 */
function joinBefore(tokens: readonly Token[], at: number, lateral = false): number {
  let depth = 0
  for (let i = at - 1; i > 0; i--) {
    const t = tokens[i] as Token
    if (t.text === ')') depth++
    else if (t.text === '(') depth--
    else if (depth > 0) continue
    else if (t.type === 'JOIN') return i
    else if (lateral && t.type === 'LATERAL') continue
    else if (t.type !== 'ident' && t.type !== 'qident' && t.type !== 'string' && t.type !== 'AS' && t.text !== '.') return -1
    if (depth < 0) return -1
  }
  return -1
}

/** True when `failed` is the ON of `CROSS JOIN <table> [[AS] alias] ON ...` (QuestDB's SqlParser.parseJoin refuses it before reading it). */
export function isOnAfterCrossJoin(tokens: readonly Token[], failed: Token): boolean {
  if (failed.type !== 'ON') return false
  const j = joinBefore(tokens, tokens.indexOf(failed))
  return j > 0 && (tokens[j - 1] as Token).type === 'CROSS'
}

/** True when `tokens[at]` is an unquoted `USING (` right after a join's FROM item. */
export function isUsingAfterJoin(tokens: readonly Token[], at: number): boolean {
  const t = tokens[at]
  if (t === undefined || t.type !== 'ident' || t.text.toLowerCase() !== 'using' || tokens[at + 1]?.text !== '(') return false
  return joinBefore(tokens, at, true) > 0
}
