/**
 * Views (QuestDB 9's CREATE VIEW): a view's name in FROM is its query, bound as a subquery in a
 * scope of its own (the caller's CTEs are not seen), with the caller's DECLARE overriding the
 * view's `OVERRIDABLE` variables. A view that reads itself, directly or through other views, is
 * refused with QuestDB's message; so is a chain of views nested past {@link MAX_VIEW_DEPTH}
 * (a clear error, not a stack overflow).
 */
import { SqlError, SqlState } from '../errors.js'
import type { Query, TableRef } from '../sql/ast.js'
import type { ViewDef } from '../storage/catalog.js'
import { parseByGrammar, parseStatement } from '../sql/parse.js'
import { type Binding, declaredOn, withOverrides } from '../sql/build/declare.js'

/** How deep views may read other views (QuestDB advises 3-4 levels; past this the binder refuses). */
export const MAX_VIEW_DEPTH = 64

/** Parsed view queries without overrides, by view definition (immutable: a replaced view is a new object). */
const parsed = new WeakMap<ViewDef, Query>()

/** The query of `view` as `ref` reads it (the caller's DECLARE bindings in scope applied). */
export function viewQuery(view: ViewDef, ref: Extract<TableRef, { kind: 'table' }>): Query {
  const declared = declaredOn(ref)
  if (declared === undefined || declared.size === 0) {
    let q = parsed.get(view)
    if (q === undefined) parsed.set(view, q = queryOf(parseStatement(view.sql), view))
    return q
  }
  // a parse with overrides is its own (never from the statement templates)
  return withOverrides(declared, () => {
    const [stmt] = parseByGrammar(view.sql)
    return queryOf(stmt!, view)
  })
}

function queryOf(stmt: ReturnType<typeof parseStatement>, view: ViewDef): Query {
  if (stmt.kind !== 'select' && stmt.kind !== 'setop' && stmt.kind !== 'with') throw new SqlError(SqlState.INVALID_OBJECT_DEFINITION, `view query is not a SELECT [view=${view.name}]`)
  return stmt
}

/**
 * The views being expanded, outermost first, with `view` added: refused when `view` is on the
 * path already (a cycle) or the path is {@link MAX_VIEW_DEPTH} long.
 */
export function enterView(path: readonly string[], view: ViewDef, pos: number): string[] {
  const key = view.name.toLowerCase()
  const at = path.findIndex((p) => p.toLowerCase() === key)
  if (at >= 0) {
    // the view being defined (or read) reads itself: directly, or through the view it names
    const through = path[at + 1]
    throw new SqlError(SqlState.INVALID_OBJECT_DEFINITION, through === undefined
      ? `circular dependency detected: view '${path[at]}' cannot reference itself`
      : `circular dependency detected: '${path[at]}' cannot depend on '${through}' because '${through}' already depends on '${path[at]}'`, pos)
  }
  if (path.length >= MAX_VIEW_DEPTH) throw new SqlError(SqlState.STATEMENT_TOO_COMPLEX, `views nested too deeply [max=${MAX_VIEW_DEPTH}, view=${view.name}]`, pos)
  return [...path, view.name]
}

/**
 * An error raised while binding a view's query, moved to where the view is named in the
 * statement (its own positions are in the view's text, which the statement does not show).
 */
export function atViewRef(e: unknown, pos: number): unknown {
  if (!(e instanceof SqlError) || e.position === pos) return e
  return new SqlError(e.code, e.message, pos, { detail: e.detail, hint: e.hint, cause: e.cause })
}

export type { Binding }
