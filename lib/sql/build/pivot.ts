/**
 * Parse-result builders for PIVOT (grammar/pivot.ne): the clause, its FOR lists and values.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { ColumnRef, Expr, Pivot, PivotFor, PivotValue, Query, SelectItem, TableRef } from '../ast.js'
import { SqlError, SqlState } from '../../errors.js'
import type { Token } from 'moo'
import type { Name } from './tokens.js'
import { type Seq, toArray } from './seq.js'

/** The parts of `PIVOT (...)` before it is attached to its source. */
export interface PivotClause {
  readonly pos: number
  readonly aggregates: readonly SelectItem[]
  readonly fors: readonly PivotFor[]
  readonly groupBy: readonly Expr[]
}

/** `PIVOT (aggs FOR ... [GROUP BY ...])`. */
export function pivotClause(tok: Token, aggs: Seq<SelectItem>, fors: Seq<PivotFor>, groupBy: Seq<Expr> | null): PivotClause {
  return { pos: tok.offset, aggregates: toArray(aggs), fors: toArray(fors), groupBy: groupBy === null ? [] : toArray(groupBy) }
}

/** `col IN (values)` or `col IN (query)`. */
export function pivotFor(column: Expr, values: Seq<PivotValue> | null, query: Query | null): PivotFor {
  const c = column as ColumnRef
  return { pos: c.pos, column: c, ...(values === null ? {} : { values: toArray(values) }), ...(query === null ? {} : { query }) }
}

/** `IN ()`: QuestDB's "missing constant". */
export function emptyIn(open: Token): never {
  throw new SqlError(SqlState.SYNTAX_ERROR, 'missing constant', open.offset + 1)
}

/** One IN value with its optional alias (a name or a string). */
export function pivotValue(expr: Expr, alias: Name | null): PivotValue {
  return alias === null ? { expr } : { expr, alias: alias.name }
}

/** Attaches a PIVOT clause (and an optional WHERE) to its source. */
export function pivot(source: TableRef, where: Expr | null, clause: PivotClause, alias: Name | null): Pivot {
  return {
    kind: 'pivot', pos: clause.pos, source, aggregates: clause.aggregates, fors: clause.fors, groupBy: clause.groupBy,
    ...(where === null ? {} : { where }), ...(alias === null ? {} : { alias: alias.name }),
  }
}
