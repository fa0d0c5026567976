/**
 * Runs the `IN (SELECT ...)` lists of PIVOT clauses before a statement is bound: the values name
 * the output columns, so they must be known when the query is compiled (QuestDB does the same:
 * "a subquery IN list is evaluated once, when the query is compiled"). Each subquery runs with the
 * CTEs in scope where it is written.
 */
import { SqlError, SqlState } from '../errors.js'
import type { Cte, Expr, PivotValue, Query, Statement } from '../sql/ast.js'

/** Runs a query and returns its rows (JS values, first column used). */
export type RunQuery = (q: Query) => Promise<readonly (readonly unknown[])[]>

/** What {@link hasPivotSubquery} found, per parsed statement (a statement is run many times). */
const pivotSubqueryOf = new WeakMap<Statement, boolean>()

/**
 * True when `stmt` has a PIVOT with an IN subquery (a walk done before binding, once per parsed
 * statement; literals, which can be hundreds of thousands in a bulk INSERT, are not entered).
 */
export function hasPivotSubquery(stmt: Statement): boolean {
  let found = pivotSubqueryOf.get(stmt)
  if (found !== undefined) return found
  found = false
  visit(stmt, (o) => { if (o['kind'] === 'pivot' && (o['fors'] as { query?: Query }[]).some((f) => f.query !== undefined)) found = true })
  pivotSubqueryOf.set(stmt, found)
  return found
}

/** `stmt` with every PIVOT IN subquery replaced by the literal values it returned. */
export async function resolvePivotValues(stmt: Statement, run: RunQuery): Promise<Statement> {
  return await rewrite(stmt, [], run) as Statement
}

function visit(node: unknown, f: (o: Record<string, unknown>) => void): void {
  if (Array.isArray(node)) {
    // literals are skipped here rather than in a call each (the 21,000 cells of a bulk INSERT)
    for (const x of node) if (!(x !== null && typeof x === 'object' && (x as { kind?: unknown }).kind === 'literal')) visit(x, f)
    return
  }
  if (node === null || typeof node !== 'object') return
  const o = node as Record<string, unknown>
  if (o['kind'] === 'literal') return
  f(o)
  for (const v of Object.values(o)) visit(v, f)
}

async function rewrite(node: unknown, ctes: readonly Cte[], run: RunQuery): Promise<unknown> {
  if (Array.isArray(node)) {
    const out: unknown[] = []
    for (const x of node) out.push(await rewrite(x, ctes, run))
    return out
  }
  if (node === null || typeof node !== 'object') return node
  const o = node as Record<string, unknown>
  if (o['kind'] === 'with' && Array.isArray(o['ctes'])) {
    // each CTE sees the ones before it; the body sees them all
    const scope = [...ctes]
    for (const c of o['ctes'] as Cte[]) scope.push({ ...c, query: await rewrite(c.query, scope, run) as Query })
    return { ...o, ctes: scope.slice(ctes.length), body: await rewrite(o['body'], scope, run) }
  }
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(o)) out[k] = await rewrite(v, ctes, run)
  if (o['kind'] === 'pivot') {
    const fors = out['fors'] as { pos: number; query?: Query; values?: PivotValue[] }[]
    const resolved = []
    for (const f of fors) {
      if (f.query === undefined) { resolved.push(f); continue }
      const q: Query = ctes.length === 0 ? f.query : { kind: 'with', pos: f.query.pos, ctes, body: f.query }
      const rows = await run(q)
      if (rows.length === 0) throw new SqlError(SqlState.SYNTAX_ERROR, 'PIVOT IN subquery returned empty result set', f.pos)
      const seen = new Set<string>()
      const values: PivotValue[] = []
      for (const r of rows) {
        const expr = literalOf(r[0], f.query.pos)
        const key = JSON.stringify([typeof r[0], String(r[0])])
        if (seen.has(key)) continue
        seen.add(key)
        values.push({ expr })
      }
      const { query: _q, ...rest } = f
      resolved.push({ ...rest, values })
    }
    out['fors'] = resolved
  }
  return out
}

/** A literal expression for a value a query returned. */
function literalOf(v: unknown, pos: number): Expr {
  if (v === null || v === undefined) return { kind: 'literal', pos, type: 'null' }
  if (typeof v === 'boolean') return { kind: 'literal', pos, type: 'boolean', value: v }
  if (typeof v === 'bigint') return { kind: 'literal', pos, type: 'long', text: String(v) }
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return { kind: 'literal', pos, type: Math.abs(v) <= 2147483647 ? 'int' : 'long', text: String(v) }
    return { kind: 'literal', pos, type: 'double', text: String(v) }
  }
  if (v instanceof Date) return { kind: 'literal', pos, type: 'string', value: v.toISOString() }
  return { kind: 'literal', pos, type: 'string', value: String(v) }
}
