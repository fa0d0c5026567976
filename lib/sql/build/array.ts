/**
 * AST builders for arrays. An `ARRAY[...]` literal is a call of `array` (nested brackets are
 * nested calls), a subscript `base[s1, s2]` a call of `[]` with the base first, and a range
 * selector `lo:hi` a call of `:`; the binder (plan/bind-array.ts) turns them into array
 * constructors and accessors. Calls keep the AST closed: no visitor needs a new node kind.
 */
import type { Call, Expr, TableRef } from '../ast.js'
import type { Token } from '../lexer.js'
import { type Seq, deferred, toArray } from './seq.js'
import type { Name } from './tokens.js'

/** The names of the calls this file builds (no user function can have them). */
export const ARRAY_CALL = 'array'
/** See {@link ARRAY_CALL}. */
export const SUBSCRIPT_CALL = '[]'
/** See {@link ARRAY_CALL}. */
export const RANGE_CALL = ':'

function call(name: string, pos: number, args: readonly Expr[] | Seq<Expr> | null): Call {
  return { kind: 'call', pos, name, args: (args ?? []) as readonly Expr[], distinct: false, star: false }
}

/** `ARRAY[...]`; null (the rule rejects) when the name is not ARRAY. */
export function literal(n: Name, _open: Token, items: Seq<Expr> | null): Expr | null {
  if (n.name.toLowerCase() !== 'array') return null
  return call(ARRAY_CALL, n.pos, items)
}

/** A nested `[...]` inside an ARRAY literal. */
export function nested(open: Token, items: Seq<Expr> | null): Expr {
  return call(ARRAY_CALL, open.offset, items)
}

/** `base[...]`; null when the base is the bare name `array` (that is a literal). */
export function subscript(base: Expr, open: Token, sel: Seq<Expr>): Expr | null {
  if (base.kind === 'column' && base.table === undefined && base.name.toLowerCase() === 'array') return null
  return call(SUBSCRIPT_CALL, open.offset, deferred(() => [base, ...toArray(sel)]))
}

/** A range selector `lo:hi` (`hi` null when open-ended). */
export function range(colon: Token, lo: Expr, hi: Expr | null): Expr {
  return call(RANGE_CALL, colon.offset, hi === null ? [lo] : [lo, hi])
}

/** `UNNEST(...) WITH ORDINALITY` as a FROM item calling `unnest_with_ordinality`; null unless it is exactly that. */
export function withOrdinality(c: Call, word: Name): { kind: 'function'; pos: number; call: Call } | null {
  if (c.name.toLowerCase() !== 'unnest' || word.name.toLowerCase() !== 'ordinality') return null
  return { kind: 'function', pos: c.pos, call: { ...c, name: 'unnest_with_ordinality' } }
}

/**
 * JSON UNNEST, `UNNEST(json COLUMNS(name TYPE, ...)) [WITH ORDINALITY]`, as a FROM item calling
 * `unnest_json` (or `unnest_json_with_ordinality`) with the JSON text and, per column, its name
 * and type name as string literals; null unless the words are UNNEST, COLUMNS (and ORDINALITY).
 */
export function jsonUnnest(f: Name, json: Expr, kw: Name, cols: Seq<[Name, Name]>, ord: Name | null): { kind: 'function'; pos: number; call: Call } | null {
  if (f.name.toLowerCase() !== 'unnest' || kw.name.toLowerCase() !== 'columns') return null
  if (ord !== null && ord.name.toLowerCase() !== 'ordinality') return null
  const str = (n: Name): Expr => ({ kind: 'literal', pos: n.pos, type: 'string', value: n.name })
  const args: Expr[] = [json]
  for (const [n, t] of toArray(cols)) args.push(str(n), str(t))
  return { kind: 'function', pos: f.pos, call: { kind: 'call', pos: f.pos, name: ord === null ? 'unnest_json' : 'unnest_json_with_ordinality', args, distinct: false, star: false } }
}

/** A FROM item with a column alias list, `UNNEST(...) u(a, b)`: the names go on the item (plan/bind-unnest.ts). */
export function columnAliased<T extends TableRef>(t: T, alias: Name, names: Seq<Name>): T {
  return { ...t, alias: alias.name, aliasPos: alias.pos, columnAliases: toArray(names).map((n) => n.name) }
}
