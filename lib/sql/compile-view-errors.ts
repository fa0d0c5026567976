/**
 * COMPILE VIEW's syntax errors in QuestDB's words and at its positions (SqlParser.parseCompileView):
 * the word after COMPILE must be VIEW (`'view' expected`, at that word or just past COMPILE), a
 * name must follow (`view name expected`, just past VIEW), a token that cannot be a name is looked
 * up as one (`view does not exist [view=(]`), and nothing may follow the name
 * (`unexpected token [bla]`).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState, syntaxError } from '../errors.js'
import type { Token } from './lexer.js'

/** Just past `t`: where QuestDB's lexer stands after reading it. */
function endOf(t: Token): number {
  return t.offset + t.text.length
}

/**
 * QuestDB's error for a COMPILE statement the grammar refused, stopping at `failed` (undefined: at
 * the end); undefined when the statement is not COMPILE.
 */
export function compileViewError(tokens: readonly Token[], failed: Token | undefined): SqlError | undefined {
  const first = tokens[0]
  if (first === undefined || first.type !== 'COMPILE') return undefined
  const view = tokens[1]
  if (view === undefined) return syntaxError("'view' expected", endOf(first))
  if (view.type !== 'VIEW') return syntaxError("'view' expected", view.offset)
  const name = tokens[2]
  if (name === undefined) return syntaxError('view name expected', endOf(view))
  // QuestDB takes any token for the name and looks it up
  if (failed === name) return new SqlError(SqlState.UNDEFINED_TABLE, `view does not exist [view=${name.text}]`, name.offset)
  if (failed !== undefined) return syntaxError(`unexpected token [${failed.text}]`, failed.offset)
  return undefined
}
