/**
 * DECLARE: `@name := expr` bindings, substituted into the query at parse time (QuestDB resolves
 * them when it parses, "the variable is no longer present when the query is compiled"). A
 * binding may use the ones before it; a variable that is not declared is 42703
 * `undeclared variable: @x`.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { Token } from 'moo'
import type { Expr, Query } from '../ast.js'
import { SqlError, SqlState } from '../../errors.js'
import { type Seq, deferred, finishAst, toArray } from './seq.js'

/** One `@name := expr`. */
export interface Binding {
  readonly name: string
  readonly pos: number
  readonly expr: Expr
}

/** `@x := expr`. */
export function binding(v: Token, expr: Expr): Binding {
  return { name: v.text.toLowerCase(), pos: v.offset, expr }
}

/** `@x` in an expression: replaced by DECLARE, else refused when bound. */
export function variableRef(v: Token): Expr {
  return { kind: 'variable', pos: v.offset, name: v.text } as unknown as Expr
}

/** `@x = expr`: QuestDB's message. */
export function missingWalrus(op: Token): never {
  throw new SqlError(SqlState.SYNTAX_ERROR, 'expected variable assignment operator `:=`', op.offset)
}

/** The query with every variable replaced by its expression. */
export function declare(_tok: Token, list: Seq<Binding>, query: Query): Query {
  // deferred to the end of the parse: the rule completes after every token of the query
  return deferred(() => substituteAll(finishAst(toArray(list)), finishAst(query)))
}

function substituteAll(list: readonly Binding[], query: Query): Query {
  const vars = new Map<string, Expr>()
  for (const b of list) {
    if (vars.has(b.name)) throw new SqlError(SqlState.SYNTAX_ERROR, `variable already declared: ${b.name}`, b.pos)
    vars.set(b.name, substitute(b.expr, vars) as Expr)
  }
  return substitute(query, vars) as Query
}

/** `node` with `{ kind: 'variable' }` expressions replaced (a generic walk over the AST). */
function substitute(node: unknown, vars: ReadonlyMap<string, Expr>): unknown {
  if (Array.isArray(node)) return node.map((x) => substitute(x, vars))
  if (node === null || typeof node !== 'object') return node
  const o = node as Record<string, unknown>
  if (o['kind'] === 'variable') {
    const name = String(o['name']).toLowerCase()
    const e = vars.get(name)
    if (e === undefined) throw new SqlError(SqlState.UNDEFINED_COLUMN, `undeclared variable: ${String(o['name'])}`, o['pos'] as number)
    return e
  }
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(o)) out[k] = substitute(v, vars)
  return out
}
