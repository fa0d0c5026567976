/**
 * Small helpers shared by the grammar's postprocessors: names, positions, raw text.
 */
import type { Token } from '../lexer.js'
import { unquoteIdent, unquoteString } from '../lexer.js'

/** A name with the position of its token. */
export interface Name {
  readonly name: string
  readonly pos: number
}

/** A name from an identifier, a quoted identifier, a keyword used as a name or a string. */
export function nameOf(tok: Token): Name {
  switch (tok.type) {
    case 'qident':
      return { name: unquoteIdent(tok.text), pos: tok.offset }
    case 'string':
      return { name: unquoteString(tok.text), pos: tok.offset }
    default:
      return { name: tok.text, pos: tok.offset }
  }
}

/** `a.b` joined into one name at the position of `a`. */
export function dotted(first: Name, rest: Name | null): Name {
  return rest === null ? first : { name: `${first.name}.${rest.name}`, pos: first.pos }
}

/**
 * The source text of a token run, rebuilt from the tokens (one space where the source had a gap,
 * comments dropped).
 */
export function rawText(toks: readonly Token[]): string {
  let out = ''
  let end = -1
  for (const t of toks) {
    if (end >= 0 && t.offset > end) out += ' '
    out += t.text
    end = t.offset + t.text.length
  }
  return out
}

/** The text of a value token (strings unquoted). */
export function valueText(tok: Token): string {
  return tok.type === 'string' ? unquoteString(tok.text) : tok.text
}

/** Flattens nearley's nested optional/list data into the tokens it contains, in order. */
export function flatTokens(d: unknown): Token[] {
  const out: Token[] = []
  const walk = (x: unknown): void => {
    if (x === null || x === undefined) return
    if (Array.isArray(x)) {
      for (const y of x) walk(y)
    } else if (typeof x === 'object' && 'offset' in x && 'text' in x) {
      out.push(x as Token)
    }
  }
  walk(d)
  return out
}
