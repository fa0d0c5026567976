/**
 * Custom terminals of the grammar: token tests that nearley calls for a whole class of tokens
 * (every soft keyword as a name, any token of a loosely parsed statement). Each has a `display`
 * name used in "expected ..." messages.
 *
 * Grammar files refer to them as `%t_...`; the build script drops nearley's `declare var` for
 * these names because they are imported.
 */
import type { Token } from '../lexer.js'
import { KEYWORDS, NOT_BARE_ALIAS, RESERVED_KEYWORDS, SOFT_KEYWORDS, STATEMENT_STARTERS } from '../keywords.js'

/** A nearley token test with a human name for error messages. */
export interface TerminalTest {
  readonly test: (tok: Token) => boolean
  readonly display: string
}

const soft = new Set(SOFT_KEYWORDS)
const reserved = new Set(RESERVED_KEYWORDS)

/** A soft keyword used as a name (`timestamp`, `symbol`, `value`...). */
export const t_softName: TerminalTest = { display: 'identifier', test: (tok) => soft.has(tok.type as string) }

/** A soft keyword usable as an implicit alias (no AS). */
export const t_aliasKw: TerminalTest = {
  display: 'identifier',
  test: (tok) => soft.has(tok.type as string) && !NOT_BARE_ALIAS.has(tok.type as string),
}

/**
 * Keywords that may not be an implicit alias even in a select list: a window call's null
 * treatment (`lag(x) IGNORE NULLS`) follows an expression there, and the second words of type
 * names (`x::double precision`) would make the alias ambiguous.
 */
const NOT_SELECT_ALIAS = new Set(['IGNORE', 'RESPECT', 'PRECISION', 'VARYING', 'WITHOUT'])

/**
 * A soft keyword that is not an implicit alias after a FROM item but is one in a select list
 * (`SELECT now() timestamp`): there no FROM-item clause (`timestamp(ts)`, `SAMPLE BY`, `PIVOT`,
 * ...) can follow. (The other soft keywords are {@link t_aliasKw}.)
 */
export const t_selectAliasKw: TerminalTest = {
  display: 'identifier',
  test: (tok) => NOT_BARE_ALIAS.has(tok.type as string) && !NOT_SELECT_ALIAS.has(tok.type as string),
}

/**
 * A reserved keyword as a column name in a column definition (`CREATE TABLE t (when TIMESTAMP,
 * limit INT)`, `ADD COLUMN from INT`), as QuestDB accepts: any but LIKE (`CREATE TABLE t (LIKE
 * other)`). Soft keywords are names anyway. Such a column is named quoted (`"when"`) elsewhere.
 */
export const t_columnKw: TerminalTest = {
  display: 'identifier',
  test: (tok) => reserved.has(tok.type as string) && tok.type !== 'LIKE',
}

/**
 * The word WITHIN of `g WITHIN (#u33, ...)`: an identifier spelled `within` (not a keyword, so a
 * column or table may still be called `within`).
 */
export const t_within: TerminalTest = {
  display: 'WITHIN',
  test: (tok) => tok.type === 'ident' && (tok.text as string).toLowerCase() === 'within',
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
