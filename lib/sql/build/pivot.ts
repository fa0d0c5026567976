/**
 * Parse-result builders for PIVOT (grammar/pivot.ne): the clause, its FOR lists and values.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { Expr, Pivot, PivotFor, PivotValue, Query, SelectItem, TableRef } from '../ast.js'
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
  const clause = { pos: tok.offset, aggregates: toArray(aggs), fors: toArray(fors), groupBy: groupBy === null ? [] : toArray(groupBy) }
  checkColumnCount(clause)
  return clause
}

/** The most output columns a PIVOT may make (QuestDB's default `cairo.sql.pivot.max.columns`). */
export const PIVOT_MAX_COLUMNS = 5000

/**
 * Refuses, as soon as the clause is read (QuestDB does it while parsing, before the clauses after
 * it), a PIVOT whose value lists are all written out and give too many columns. Lists from a
 * subquery are counted when they have run (plan/bind-pivot.ts).
 */
function checkColumnCount(c: PivotClause): void {
  if (c.fors.some((f) => f.values === undefined)) return
  const combos = c.fors.reduce((n, f) => n * f.values!.length, 1) * c.aggregates.length
  if (combos > PIVOT_MAX_COLUMNS) throw new SqlError(SqlState.PROGRAM_LIMIT_EXCEEDED, `PIVOT produces too many columns: ${combos}, limit is ${PIVOT_MAX_COLUMNS}`, c.pos)
}

/** `col IN (values)` or `col IN (query)`. */
export function pivotFor(column: Expr, values: Seq<PivotValue> | null, query: Query | null): PivotFor {
  return { pos: column.pos, column, ...(values === null ? {} : { values: toArray(values) }), ...(query === null ? {} : { query }) }
}

/** The expression of a FOR list; an aggregate there is QuestDB's error. */
export function pivotColumn(e: Expr): Expr {
  if (hasAggregateName(e)) throw new SqlError(SqlState.GROUPING_ERROR, 'aggregate functions are not supported in PIVOT FOR expressions', e.pos)
  return e
}

/** The common aggregates by name (the parser has no function registry). */
const AGGREGATES = new Set(['sum', 'avg', 'count', 'min', 'max', 'first', 'last', 'first_not_null', 'last_not_null', 'count_distinct', 'stddev', 'variance', 'ksum', 'nsum'])

function hasAggregateName(e: Expr): boolean {
  switch (e.kind) {
    case 'call': return (e.over === undefined && AGGREGATES.has(e.name.toLowerCase())) || e.args.some(hasAggregateName)
    case 'binary': return hasAggregateName(e.left) || hasAggregateName(e.right)
    case 'unary': return hasAggregateName(e.operand)
    case 'cast': return hasAggregateName(e.expr)
    default: return false
  }
}

/** `IN ()`: QuestDB's "missing constant". */
export function emptyIn(open: Token): never {
  throw new SqlError(SqlState.SYNTAX_ERROR, 'missing constant', open.offset + 1)
}

/** `IN (*)`: QuestDB reads `*` as the multiplication operator without operands. */
export function starIn(star: Token): never {
  throw new SqlError(SqlState.SYNTAX_ERROR, "too few arguments for '*' [found=0,expected=2]", star.offset)
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

/**
 * DuckDB's `PIVOT source ON ... [USING ...] [GROUP BY ...]` as a PIVOT: an ON column without IN
 * takes `SELECT DISTINCT col FROM source ORDER BY col`, no USING means `count(*)`, no GROUP BY
 * means every other source column (`groupByRest`, resolved by the binder).
 */
export function duckPivot(tok: Token, source: TableRef, ons: Seq<PivotFor>, aggs: Seq<SelectItem> | null, groupBy: Seq<Expr> | null): Pivot {
  const pos = tok.offset
  const fors = toArray(ons).map((f): PivotFor => {
    if (f.values !== undefined || f.query !== undefined) return f
    const col = f.column
    const query: Query = {
      kind: 'select', pos: col.pos, distinct: true, columns: [{ expr: col }], from: source, joins: [],
      orderBy: [{ expr: col, desc: false }],
    }
    return { ...f, query }
  })
  const count: Expr = { kind: 'call', pos, name: 'count', args: [], distinct: false, star: true }
  return {
    kind: 'pivot', pos, source, fors,
    aggregates: aggs === null ? [{ expr: count }] : toArray(aggs),
    groupBy: groupBy === null ? [] : toArray(groupBy),
    ...(groupBy === null ? { groupByRest: true } : {}),
  }
}
