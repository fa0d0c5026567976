/**
 * Describing a statement without running it: the types its `$n` parameters take from their use
 * (`id = $1` with an INT id makes `$1` INT; `insert into t values ($1)` gives `$1` the column's
 * type) and, for queries, the result columns. pgwire's Describe answers from this, and the engine
 * uses it to convert text parameters (pgwire sends them as strings) to the types they need.
 */
import type { Statement } from '../../sql/ast.js'
import type { ColumnType } from '../../types/column-type.js'
import type { OutputColumn } from '../../plan/plan-node.js'
import { Scope } from '../../plan/scope.js'
import { bindExpr, castTo } from '../../plan/bind-expr.js'
import { type BindContext, bindQuery } from '../../plan/bind-query.js'
import { targetColumns } from './dml.js'

/** What a statement expects and returns. */
export interface Description {
  /** one type per `$n` (index 0 = `$1`); STRING where nothing in the statement says otherwise */
  readonly params: ColumnType[]
  /** the result columns of a query (undefined for statements without rows) */
  readonly columns: readonly OutputColumn[] | undefined
}

/** The highest `$n` in a statement (0 when none). */
export function paramCount(node: unknown): number {
  if (node === null || typeof node !== 'object') return 0
  if (Array.isArray(node)) return node.reduce((m: number, x) => Math.max(m, paramCount(x)), 0)
  const o = node as Record<string, unknown>
  let max = o['kind'] === 'param' && typeof o['index'] === 'number' ? (o['index'] as number) : 0
  for (const v of Object.values(o)) if (v !== null && typeof v === 'object') max = Math.max(max, paramCount(v))
  return max
}

/** Binds `stmt` with the given parameter types (undefined = infer) and reports the result. */
export function describe(stmt: Statement, bc: BindContext): Description {
  const inferred = new Map<number, ColumnType>()
  const onInfer = (i: number, t: ColumnType) => { if (!inferred.has(i)) inferred.set(i, t) }
  const b: BindContext = { ...bc, onInfer }
  const columns = bindFor(stmt, b)
  const n = Math.max(paramCount(stmt), bc.paramTypes.length)
  const params: ColumnType[] = []
  for (let i = 0; i < n; i++) params.push(bc.paramTypes[i] ?? inferred.get(i) ?? 'STRING')
  return { params, columns }
}

function bindFor(stmt: Statement, bc: BindContext): readonly OutputColumn[] | undefined {
  const env = (scope: Scope) => ({ scope, paramTypes: bc.paramTypes, bindSubquery: (q: Parameters<typeof bindQuery>[0]) => bindQuery(q, bc), onInfer: bc.onInfer! })
  switch (stmt.kind) {
    case 'select': case 'setop': case 'with': return bindQuery(stmt, bc).output
    case 'explain': bindFor(stmt.statement, bc); return [{ name: 'QUERY PLAN', type: 'STRING' }]
    case 'create_table_as': bindQuery(stmt.query, bc); return undefined
    case 'copy_to': bindQuery(stmt.query, bc); return [{ name: 'id', type: 'VARCHAR' }]
    case 'insert': {
      const table = bc.catalog.get(stmt.table, stmt.tablePos)
      const targets = targetColumns(table, stmt)
      if (stmt.source.kind === 'query') { bindQuery(stmt.source.query, bc); return undefined }
      for (const row of stmt.source.rows) {
        row.forEach((e, k) => {
          const type = table.meta.columns[targets[k] ?? -1]?.type
          if (type !== undefined) castTo(bindExpr(e, env(new Scope([]))), type, e.pos, true, bc.onInfer)
        })
      }
      return undefined
    }
    case 'update': {
      const table = bc.catalog.get(stmt.table, stmt.tablePos)
      const alias = stmt.alias ?? table.meta.name
      const scope = new Scope(table.meta.columns.map((c) => ({ name: c.name, type: c.type, table: alias })))
      for (const a of stmt.set) {
        const col = table.meta.columns.find((c) => c.name.toLowerCase() === a.column.toLowerCase())
        if (col !== undefined && stmt.from === undefined && stmt.joins.length === 0) castTo(bindExpr(a.value, env(scope)), col.type, a.value.pos, true, bc.onInfer)
      }
      if (stmt.where !== undefined && stmt.from === undefined && stmt.joins.length === 0) bindExpr(stmt.where, env(scope))
      return undefined
    }
    default: return undefined
  }
}
