/**
 * A nearley lexer over already-lexed tokens. The parser lexes a whole script once with
 * {@link tokenize}, cuts it into statements at `;`, and feeds each statement's tokens through a
 * {@link TokenStream}, so tokens keep their offsets in the whole script.
 */
import type { Token } from './lexer.js'
import { TOKEN_TYPES } from './lexer.js'

/** The lexer interface nearley drives. */
export class TokenStream {
  private tokens: readonly Token[] = []
  private index = 0
  private stop = 0

  /** Sets the tokens the next `feed` will read: `tokens[from..to)` (default all of them). */
  load(tokens: readonly Token[], from = 0, to = tokens.length): void {
    this.tokens = tokens
    this.index = from
    this.stop = Math.min(to, tokens.length)
  }

  /** nearley calls this with the chunk passed to `feed`; the chunk is ignored. */
  reset(): void {
    // tokens were loaded by load()
  }

  /** The next token, or undefined at the end. */
  next(): Token | undefined {
    return this.index < this.stop ? this.tokens[this.index++] : undefined
  }

  /** nearley's lexer state (unused). */
  save(): Record<string, never> {
    return {}
  }

  /** A short description of a token (nearley's own messages; ours are built in syntax-errors.ts). */
  formatError(tok: Token): string {
    return `syntax error at ${tok.offset}`
  }

  /** True for the token types the grammar can name with `%type`. */
  has(type: string): boolean {
    return TOKEN_TYPES.has(type)
  }
}

/** The lexer object the generated grammar refers to (only `has` is used at compile time). */
export const grammarLexer = new TokenStream()
