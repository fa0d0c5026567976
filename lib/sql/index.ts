/**
 * The SQL front end: lexer, grammar, parser and AST of EpochDB's QuestDB dialect.
 * Browser-safe (the Web Console uses it for completion and error marks).
 *
 * @packageDocumentation
 * @module epochdb/sql
 */
export { parseScript, parseStatement, parseStatements, expectedTokensAt } from './parse.js'
export type { ParsedStatement } from './parse.js'
export { DEFAULT_PARSE_LIMITS, parseLimits } from './limits.js'
export type { ParseLimits } from './limits.js'
export { tokenize } from './lexer.js'
export type { Token } from './lexer.js'
export { KEYWORDS, RESERVED_KEYWORDS, SOFT_KEYWORDS } from './keywords.js'
export type * from './ast.js'
