/**
 * AST builders for utility statements: SHOW, EXPLAIN, transactions, SET, unsupported.
 */
import type { CancelQuery, SetStatement, Transaction, Unsupported } from '../ast.js'
import { syntaxError } from '../../errors.js'
import type { Token } from '../lexer.js'
import type { Name } from './tokens.js'
import { rawText, valueText } from './tokens.js'

/** Words joined by a space, lower-cased (`SHOW transaction isolation level`). */
export function words(toks: readonly Token[]): string {
  return toks.map((t) => t.text.toLowerCase()).join(' ')
}

/** `EXPLAIN (FORMAT JSON|TEXT)`. */
export function explainFormat(n: Name): 'json' | 'text' {
  const f = n.name.toLowerCase()
  if (f !== 'json' && f !== 'text') throw syntaxError(`unexpected '${n.name}', expected JSON or TEXT`, n.pos)
  return f
}

/** BEGIN / COMMIT / ROLLBACK and synonyms. */
export function transaction(tok: Token, action: Transaction['action']): Transaction {
  return { kind: 'transaction', pos: tok.offset, action }
}

/**
 * `SET name = value`: the value is the raw text of its tokens; a single string literal is
 * unquoted, and `DEFAULT` gives no value.
 */
export function set(tok: Token, name: string, value: readonly Token[]): SetStatement {
  const only = value.length === 1 ? value[0] : undefined
  if (only !== undefined && only.text.toLowerCase() === 'default') return { kind: 'set', pos: tok.offset, name }
  return { kind: 'set', pos: tok.offset, name, value: only !== undefined ? valueText(only) : rawText(value) }
}

/** A statement recognised only to be refused with 0A000 by the engine. */
export function unsupported(tok: Token, feature: string): Unsupported {
  return { kind: 'unsupported', pos: tok.offset, feature }
}

/** `CANCEL QUERY id` (`minus`: the `-` before a negative id, refused when it runs). */
export function cancelQuery(tok: Token, id: Token, minus: Token | null = null): CancelQuery {
  const n = Number(id.text.replace(/[lL]$/, ''))
  return { kind: 'cancel_query', pos: tok.offset, queryId: minus === null ? n : -n, idPos: (minus ?? id).offset }
}

/** True when one of `toks` is the word `w` (case-insensitive). */
export function hasWord(toks: readonly Token[], w: string): boolean {
  return toks.some((t) => t.text.toLowerCase() === w)
}
