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
  // geohash literals: `##0101` (bits), `#u33d`, `#u33d/18` (base32 chars, optional bit count)
  geohash: /##[0-9a-zA-Z]*|#[0-9a-zA-Z]+(?:\/\d+)?/,
  decimal: /(?:\d[\d_]*)?\.\d[\d_]*m(?![\w])|\d[\d_]*\.m(?![\w])/,
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
  'string', 'qident', 'hex', 'geohash', 'decimal', 'float', 'long', 'duration', 'integer', 'param', 'variable', 'ident',
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
  lexRange(mooLexer, sql, out, Infinity)
  return out
}

/** moo's lexer with the read position we move (moo 0.5 reads `index` on every `next`). */
type MooAt = moo.Lexer & { index: number }

const CH_QUOTE = 39
const CH_0 = 48
const CH_9 = 57

/** Characters that may continue a number token beyond plain digits (`1_000`, `1e5`, `5L`, `10m`, `0x1f`, `1.5`). */
function continuesNumber(c: number): boolean {
  return c === 46 /* . */ || c === 95 /* _ */ || (c >= CH_0 && c <= CH_9) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c >= 0xc0
}

/**
 * Lexes from the lexer's position until the end or until `max` tokens were kept; returns the
 * tokens kept. The commonest tokens of long statements — whitespace, `,` `(` `)`, plain strings,
 * plain integers and decimals — are read by hand (the same tokens moo would make: type, text,
 * value, offset); every other token, and anything unusual about these, is moo's.
 */
function lexRange(lexer: moo.Lexer, sql: string, out: Token[], max: number): number {
  const at = lexer as MooAt
  const n = sql.length
  let pos = at.index
  let kept = 0
  while (pos < n && kept < max) {
    const c = sql.charCodeAt(pos)
    if (c === 32 || c === 10 || c === 9 || c === 13) { pos++; continue }
    let end = -1
    let type = ''
    if (c === 44 /* , */ || c === 40 /* ( */ || c === 41 /* ) */) {
      end = pos + 1
      type = 'op'
    } else if (c === CH_QUOTE) {
      let j = pos + 1
      for (;;) {
        j = sql.indexOf("'", j)
        if (j < 0) break
        if (sql.charCodeAt(j + 1) === CH_QUOTE) { j += 2; continue }
        end = j + 1
        type = 'string'
        break
      }
    } else if (c >= CH_0 && c <= CH_9 && !(c === CH_0 && (sql.charCodeAt(pos + 1) | 32) === 120 /* x */)) {
      let j = pos + 1
      while (j < n && sql.charCodeAt(j) >= CH_0 && sql.charCodeAt(j) <= CH_9) j++
      let d = sql.charCodeAt(j)
      type = 'integer'
      if (d === 46 /* . */ && sql.charCodeAt(j + 1) >= CH_0 && sql.charCodeAt(j + 1) <= CH_9) {
        j += 2
        while (j < n && sql.charCodeAt(j) >= CH_0 && sql.charCodeAt(j) <= CH_9) j++
        d = sql.charCodeAt(j)
        type = 'float'
      }
      if (!continuesNumber(d)) end = j
    }
    if (end > pos) {
      const text = sql.slice(pos, end)
      // the fields the parser reads (moo's line and column are not used anywhere)
      out.push({ type, value: text, text, offset: pos } as Token)
      kept++
      pos = end
      continue
    }
    at.index = pos
    const tok = lexer.next()
    if (tok === undefined) break
    if (keep(tok, out)) kept++
    pos = tok.offset + tok.text.length
  }
  at.index = pos
  return kept
}

/**
 * The first tokens of `sql`: lexes until `max` tokens were kept (or the end); returns them and
 * the offset where lexing stopped. Throws as {@link tokenize} on what it reads.
 */
export function tokenizeHead(sql: string, max: number): { tokens: Token[]; end: number } {
  const lexer = (mooLexer as moo.Lexer & { clone(): moo.Lexer }).clone()
  lexer.reset(sql)
  const tokens: Token[] = []
  lexRange(lexer, sql, tokens, max)
  return { tokens, end: (lexer as MooAt).index }
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
  while (lexRange(lexer, sql, out, LEX_SLICE_TOKENS) === LEX_SLICE_TOKENS) await pause()
  return out
}

/** Adds a meaningful token to `out` (true) or skips it (false); throws on an error token. */
function keep(tok: Token, out: Token[]): boolean {
  if (SKIPPED.has(tok.type as string)) return false
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
      return true
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
