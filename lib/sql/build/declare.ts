/**
 * DECLARE: `@name := expr` bindings, substituted into the query at parse time (QuestDB resolves
 * them when it parses, "the variable is no longer present when the query is compiled"). A
 * binding may use the ones before it; a variable that is not declared is 42703
 * `undeclared variable: @x`.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { Token } from 'moo'
import type { Expr, Query, TableRef } from '../ast.js'
import { SqlError, SqlState } from '../../errors.js'
import { type Seq, deferred, finishAst, toArray } from './seq.js'

/** One `@name := expr` (`value` a list for `@v := (a, b)`, usable only as an IN list). */
export interface Binding {
  readonly name: string
  readonly pos: number
  readonly expr: Expr
  readonly list?: readonly Expr[]
  /** `OVERRIDABLE @x := ...`: in a view, a caller's DECLARE of `@x` replaces it */
  readonly overridable?: boolean
}

/** Expressions that stand for a duration as written (`@period := 1m`, `1h`), for SAMPLE BY @period. */
const durations = new WeakMap<object, string>()

/** `@x := expr` (`OVERRIDABLE @x := expr`: {@link overridable}). */
export function binding(v: Token, expr: Expr): Binding {
  return { name: v.text.toLowerCase(), pos: v.offset, expr }
}

/** `[OVERRIDABLE] @x := ...`: null (the rule rejects) when the word before the variable is not OVERRIDABLE. */
export function overridable(word: { readonly name: string }, b: Binding): Binding | null {
  return word.name.toLowerCase() === 'overridable' ? { ...b, overridable: true } : null
}

/** The caller's bindings a view's DECLARE is parsed with ({@link withOverrides}); undefined otherwise. */
let overrides: ReadonlyMap<string, Binding> | undefined

/**
 * Runs `parse` (of a view's query) with `callerBindings` overriding the view's DECLARE: an
 * `OVERRIDABLE` variable takes the caller's expression, another one the caller also declares is
 * 42P17 `variable is not overridable: @x` (QuestDB's message), at the caller's binding.
 */
export function withOverrides<T>(callerBindings: ReadonlyMap<string, Binding>, parse: () => T): T {
  const before = overrides
  overrides = callerBindings
  try { return parse() } finally { overrides = before }
}

/** The DECLARE bindings in scope where table reference `ref` is (attached by the substitution), if any. */
export function declaredOn(ref: TableRef): ReadonlyMap<string, Binding> | undefined {
  const list = (ref as unknown as { declared?: readonly Binding[] }).declared
  return list === undefined ? undefined : new Map(list.map((b) => [b.name, b]))
}

/** `@x := 1h`: a duration, as SAMPLE BY takes it (in an expression it is the string '1h'). */
export function durationBinding(v: Token, d: Token): Binding {
  const expr: Expr = { kind: 'literal', pos: d.offset, type: 'string', value: d.text }
  durations.set(expr, d.text)
  return binding(v, expr)
}

/** `5m` read as an expression (the DECIMAL 5) remembers that it was written as a duration. */
export function rememberDuration(e: Expr | null, d: Token): Expr | null {
  if (e !== null) durations.set(e, d.text)
  return e
}

/** `@v := (a, b, ...)`: a list, usable as `IN @v`; null for one item (that is a parenthesised expression). */
export function listBinding(v: Token, items: Seq<Expr>): Binding | null {
  const list = toArray(items)
  return list.length < 2 ? null : { ...binding(v, list[0]!), list }
}

/** `@x` in an expression: replaced by DECLARE, else refused when bound. */
export function variableRef(v: Token): Expr {
  return { kind: 'variable', pos: v.offset, name: v.text } as unknown as Expr
}

/** `FROM @x`: a table name or subquery held by a variable. */
export function tableVariable(v: Token): TableRef {
  return { kind: 'variable', pos: v.offset, name: v.text, asTable: true } as unknown as TableRef
}

/** `@x = expr`: QuestDB's message. */
export function missingWalrus(op: Token): never {
  throw new SqlError(SqlState.SYNTAX_ERROR, 'expected variable assignment operator `:=`', op.offset)
}

/**
 * The query with its variables replaced by their expressions. A DECLARE inside a subquery or CTE
 * is replaced first (the parse finishes inner trees first): its bindings shadow the outer ones
 * for that subquery only, and the variables it does not declare are left for the DECLARE around
 * it; one no DECLARE binds is refused by the binder (42703 `undeclared variable`).
 */
export function declare(_tok: Token, list: Seq<Binding>, query: Query): Query {
  // deferred to the end of the parse: the rule completes after every token of the query
  return deferred(() => substituteAll(finishAst(toArray(list)), finishAst(query)))
}

function substituteAll(list: readonly Binding[], query: Query): Query {
  const vars = new Map<string, Binding>()
  for (const declared of list) {
    if (vars.has(declared.name)) throw new SqlError(SqlState.SYNTAX_ERROR, `variable already declared: ${declared.name}`, declared.pos)
    const b = overridden(declared)
    vars.set(b.name, b.list === undefined ? { ...b, expr: substitute(b.expr, vars) as Expr } : { ...b, list: b.list.map((x) => substitute(x, vars) as Expr) })
  }
  return substitute(query, vars) as Query
}

/** `b`, or the caller's binding of its variable when a view's query is parsed ({@link withOverrides}). */
function overridden(b: Binding): Binding {
  const o = overrides?.get(b.name)
  if (o === undefined) return b
  if (b.overridable !== true) throw new SqlError(SqlState.INVALID_OBJECT_DEFINITION, `variable is not overridable: ${b.name}`, o.pos)
  // already substituted in the caller's scope: nothing of the view's bindings reaches into it
  return { ...o, name: b.name, pos: b.pos }
}

/**
 * `node` with its variables replaced (a generic walk over the AST); unknown ones stay. A subtree
 * without variables is returned as is (not copied).
 */
function substitute(node: unknown, vars: ReadonlyMap<string, Binding>): unknown {
  if (Array.isArray(node)) {
    let out: unknown[] | undefined
    node.forEach((x, i) => {
      const y = substitute(x, vars)
      if (y !== x) (out ??= [...node])[i] = y
    })
    return out ?? node
  }
  if (node === null || typeof node !== 'object') return node
  const o = node as Record<string, unknown>
  if (o['kind'] === 'variable') {
    const b = vars.get(String(o['name']).toLowerCase())
    if (b === undefined) return node
    if (o['asTable'] === true) return tableOf(b, o['pos'] as number)
    if (b.list !== undefined) throw new SqlError(SqlState.SYNTAX_ERROR, 'unexpected bind expression - bracket lists not supported', o['pos'] as number)
    return b.expr
  }
  let out: Record<string, unknown> | undefined
  // a table reference remembers the bindings in scope: a view it names may let them override its own
  // (a plain list, not a Map: the statement templates copy and re-literal the AST as plain objects)
  if (o['kind'] === 'table' && typeof o['name'] === 'string' && vars.size > 0) {
    const inner = o['declared'] as readonly Binding[] | undefined
    const merged = new Map(vars)
    for (const b of inner ?? []) merged.set(b.name, b)
    out = { ...o, declared: [...merged.values()] }
  }
  for (const [k, v] of Object.entries(o)) {
    if (k === 'declared') continue
    // `x IN @v` with a list binding takes its items
    const y = (k === 'list' && o['kind'] === 'in' ? listOf(v, vars) : undefined) ?? substitute(v, vars)
    if (y !== v) (out ??= { ...o })[k] = y
  }
  // `SAMPLE BY @v`
  if (typeof o['interval'] === 'string' && typeof o['intervalPos'] === 'number') {
    const b = vars.get(o['interval'].toLowerCase())
    if (b !== undefined) (out ??= { ...o })['interval'] = durationOf(b, o['intervalPos'])
  }
  return out ?? node
}

/** The items of `IN @v` when `@v` is bound to a list. */
function listOf(list: unknown, vars: ReadonlyMap<string, Binding>): unknown[] | undefined {
  if (!Array.isArray(list) || list.length !== 1) return undefined
  const v = list[0] as Record<string, unknown> | null
  if (v === null || typeof v !== 'object' || v['kind'] !== 'variable') return undefined
  const b = vars.get(String(v['name']).toLowerCase())
  return b?.list === undefined ? undefined : [...b.list]
}

/** What `FROM @v` reads: the subquery, or the table a name or string names (QuestDB's message otherwise). */
function tableOf(b: Binding, pos: number): TableRef {
  const e = b.expr
  if (b.list === undefined) {
    if (e.kind === 'subquery') return { kind: 'subquery', pos, query: e.query }
    if (e.kind === 'column' && e.table === undefined) return { kind: 'table', pos, name: e.name }
    if (e.kind === 'literal' && e.type === 'string') return { kind: 'table', pos, name: e.value }
  }
  throw new SqlError(SqlState.SYNTAX_ERROR, 'expected literal table name or subquery', pos)
}

/** What `SAMPLE BY @v` takes: a duration as written (`1m`, `1h`) or a string holding one. */
function durationOf(b: Binding, pos: number): string {
  const text = durations.get(b.expr) ?? (b.expr.kind === 'literal' && b.expr.type === 'string' ? b.expr.value : undefined)
  if (text === undefined || b.list !== undefined) throw new SqlError(SqlState.SYNTAX_ERROR, 'expected a SAMPLE BY interval such as 1h', pos)
  return text
}
