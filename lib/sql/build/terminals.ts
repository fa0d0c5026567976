/**
 * Custom terminals of the grammar: token tests that nearley calls for a whole class of tokens
 * (every soft keyword as a name, any token of a loosely parsed statement). Each has a `display`
 * name used in "expected ..." messages.
 *
 * Grammar files refer to them as `%t_...`; the build script drops nearley's `declare var` for
 * these names because they are imported.
 */
import type { Token } from '../lexer.js'
import { KEYWORDS, NOT_BARE_ALIAS, SOFT_KEYWORDS, STATEMENT_STARTERS } from '../keywords.js'

/** A nearley token test with a human name for error messages. */
export interface TerminalTest {
  readonly test: (tok: Token) => boolean
  readonly display: string
}

const soft = new Set(SOFT_KEYWORDS)

/** A soft keyword used as a name (`timestamp`, `symbol`, `value`...). */
export const t_softName: TerminalTest = { display: 'identifier', test: (tok) => soft.has(tok.type as string) }

/** A soft keyword usable as an implicit alias (no AS). */
export const t_aliasKw: TerminalTest = {
  display: 'identifier',
  test: (tok) => soft.has(tok.type as string) && !NOT_BARE_ALIAS.has(tok.type as string),
}

/** A soft keyword usable as the table of the query shorthand (`trades WHERE ...`). */
export const t_shortKw: TerminalTest = {
  display: 'identifier',
  test: (tok) => soft.has(tok.type as string) && !STATEMENT_STARTERS.has(tok.type as string),
}

/** Any token (loosely parsed statements: SET values, unsupported statements). */
export const t_any: TerminalTest = { display: 'value', test: () => true }

const keywords = new Set(KEYWORDS)
/** Words that end a permission name in GRANT/REVOKE (`GRANT SELECT ON t TO u`). */
const NOT_PERMISSION_WORDS = new Set(['ON', 'TO', 'FROM', 'WITH', 'ASSUME'])

/** A word of a permission name (`CREATE`, `TABLE`, `DATABASE`, `ADMIN`, ...). */
export const t_permWord: TerminalTest = {
  display: 'permission',
  test: (tok) => tok.type === 'ident' || (keywords.has(tok.type as string) && !NOT_PERMISSION_WORDS.has(tok.type as string)),
}
