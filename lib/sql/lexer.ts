/**
 * The SQL lexer (moo). Produces tokens with 0-based offsets; keywords are case-insensitive and
 * typed by their upper-case spelling (`SELECT`), so the grammar matches them with `%SELECT`.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import moo from 'moo'
import { syntaxError } from '../errors.js'
import { KEYWORDS } from './keywords.js'

/** A lexed token: moo's token (`type`, `value`, `text`, `offset`). */
export type Token = moo.Token

const keywordMap: Record<string, string> = {}
for (const kw of KEYWORDS) keywordMap[kw] = kw.toLowerCase()
const keywordType = moo.keywords(keywordMap)

/** Punctuation and operators; moo matches the longest first. */
export const OPERATORS: readonly string[] = [
  '::', ':=', '||', '<<=', '>>=', '<=', '>=', '<>', '!=', '!~', '<<', '>>',
  '=', '<', '>', '~', '&', '|', '^', '%', '+', '-', '*', '/', '(', ')', '[', ']', ',', '.', ';', ':',
]

const rules: moo.Rules = {
  ws: { match: /[ \t\r\n\f\v]+/, lineBreaks: true },
  lineComment: /--[^\n]*/,
  blockComment: { match: /\/\*[^]*?\*\//, lineBreaks: true },
  unterminatedComment: { match: /\/\*[^]*/, lineBreaks: true },
  string: { match: /'(?:[^']|'')*'/, lineBreaks: true },
  unterminatedString: { match: /'(?:[^']|'')*/, lineBreaks: true },
  qident: { match: /"(?:[^"]|"")*"/, lineBreaks: true },
  unterminatedQident: { match: /"(?:[^"]|"")*/, lineBreaks: true },
  hex: /0[xX][0-9a-fA-F]+/,
  float: /(?:\d[\d_]*)?\.\d[\d_]*(?:[eE][+-]?\d+)?|\d[\d_]*(?:\.\d*)?[eE][+-]?\d+|\d[\d_]*\.(?![\d.a-zA-Z_])/,
  long: /\d[\d_]*[lL](?![\w])/,
  duration: /\d[\d_]*[a-zA-Z]\w*/,
  integer: /\d[\d_]*/,
  param: /\$\d+/,
  variable: /[@$][a-zA-Z_]\w*/,
  ident: { match: /[a-zA-Z_\u00C0-\uFFFF][\w$\u00C0-\uFFFF]*/, type: (text: string) => keywordType(text.toLowerCase()) },
  op: [...OPERATORS],
  error: moo.error,
}

const mooLexer = moo.compile(rules)

/** Token types that carry no meaning for the grammar. */
const SKIPPED = new Set(['ws', 'lineComment', 'blockComment'])

/** Every token type the grammar may reference (for nearley's `lexer.has`). */
export const TOKEN_TYPES: ReadonlySet<string> = new Set([
  'string', 'qident', 'hex', 'float', 'long', 'duration', 'integer', 'param', 'variable', 'ident',
  ...KEYWORDS,
])

/**
 * Splits `sql` into tokens, without whitespace and comments.
 * Punctuation tokens have type `op` and are matched by their text.
 *
 * @throws SqlError 42601 on an invalid character or an unterminated string, quoted identifier
 * or comment, with the position where it starts.
 */
export function tokenize(sql: string): Token[] {
  mooLexer.reset(sql)
  const out: Token[] = []
  for (const tok of mooLexer) keep(tok, out)
  return out
}

/**
 * Tokens the async lexer reads between two calls of its `pause` (a few hundred microseconds of
 * lexing).
 */
export const LEX_SLICE_TOKENS = 1024

/**
 * {@link tokenize}, awaiting `pause()` every {@link LEX_SLICE_TOKENS} tokens, so a caller can
 * yield to its event loop (and stop a cancelled statement) while a very long text is lexed.
 * Uses its own lexer instance: concurrent calls do not interfere.
 *
 * @throws SqlError as {@link tokenize}; whatever `pause` throws.
 */
export async function tokenizeAsync(sql: string, pause: () => Promise<void>): Promise<Token[]> {
  const lexer = (mooLexer as moo.Lexer & { clone(): moo.Lexer }).clone()
  lexer.reset(sql)
  const out: Token[] = []
  let n = 0
  for (let tok = lexer.next(); tok !== undefined; tok = lexer.next()) {
    keep(tok, out)
    if (++n % LEX_SLICE_TOKENS === 0) await pause()
  }
  return out
}

/** Adds a meaningful token to `out`; throws on an error token. */
function keep(tok: Token, out: Token[]): void {
  if (SKIPPED.has(tok.type as string)) return
  switch (tok.type) {
    case 'unterminatedComment':
      throw syntaxError('unterminated comment', tok.offset)
    case 'unterminatedString':
      throw syntaxError('unterminated string literal', tok.offset)
    case 'unterminatedQident':
      throw syntaxError('unterminated quoted identifier', tok.offset)
    case 'error':
      throw syntaxError(`unexpected character '${tok.text[0]}'`, tok.offset)
    default:
      out.push(tok)
  }
}

/** The value of a string literal token: quotes removed, `''` unescaped. */
export function unquoteString(text: string): string {
  return text.slice(1, -1).replace(/''/g, "'")
}

/** The name in a quoted identifier token: quotes removed, `""` unescaped. */
export function unquoteIdent(text: string): string {
  return text.slice(1, -1).replace(/""/g, '"')
}
