/**
 * PIVOT as a GROUP BY whose aggregates see only the rows of their column's values:
 *
 * ```
 * SELECT keys, sum(CASE WHEN col = v1 THEN x END) AS "v1", sum(CASE WHEN col = v2 THEN x END) AS "v2", ...
 * FROM source WHERE <source where> AND col IN (v1, v2, ...) GROUP BY keys
 * ```
 *
 * so an aggregate of a value with no rows is what the aggregate gives for no rows (`sum` NULL,
 * `count` 0), a key with no row for any value disappears, and any aggregate expression
 * (`coalesce(sum(x), 0)`, `sum(x) + count()`) works: every aggregate call in it is rewritten.
 * Output names: the value (or its alias), joined by `_` across FOR lists, then `_<aggregate alias
 * or text>` when there are several aggregates or the aggregate has an alias. IN subqueries were
 * already run (see `pivot-values.ts`).
 */
import { SqlError, SqlState } from '../errors.js'
import type { Expr, Pivot, PivotValue, Query, Select, SelectItem } from '../sql/ast.js'
import { collectColumnRefs, containsAggregate, isAggregateCall, outputName, uniqueNames } from './naming.js'
import { expressionText } from './expression-text.js'
import { PIVOT_MAX_COLUMNS } from '../sql/build/pivot.js'

export { PIVOT_MAX_COLUMNS }

/**
 * DuckDB's PIVOT without GROUP BY: grouped by every column of the source that is neither pivoted
 * on nor named inside an aggregate, in the source's order.
 */
export function withRestKeys(p: Pivot, source: readonly { readonly name: string }[]): Pivot {
  const used = new Set<string>()
  for (const f of p.fors) for (const c of collectColumnRefs(f.column)) used.add(c.name.toLowerCase())
  for (const a of p.aggregates) for (const c of collectColumnRefs(a.expr)) used.add(c.name.toLowerCase())
  const keys: Expr[] = source
    .filter((c) => !c.name.startsWith('\u0000') && !used.has(c.name.toLowerCase()))
    .map((c) => ({ kind: 'column', pos: p.pos, name: c.name }))
  return { ...p, groupBy: keys, groupByRest: false }
}

/** The query a PIVOT stands for. */
export function pivotQuery(p: Pivot): Query {
  const pos = p.pos
  for (const a of p.aggregates) {
    if (hasWindow(a.expr)) throw new SqlError(SqlState.GROUPING_ERROR, 'Window function is not allowed in context of aggregation. Use sub-query.', a.expr.pos)
    if (!containsAggregate(a.expr)) throw new SqlError(SqlState.GROUPING_ERROR, `expected aggregate function [col=${exprText(a.expr)}]`, a.expr.pos)
  }
  const lists = p.fors.map((f) => {
    if (f.values === undefined) throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, 'PIVOT IN subquery was not run', f.pos)
    checkDuplicates(f.values)
    return f.values
  })
  const combos = lists.reduce((n, l) => n * l.length, 1) * p.aggregates.length
  if (combos > PIVOT_MAX_COLUMNS) throw new SqlError(SqlState.PROGRAM_LIMIT_EXCEEDED, `PIVOT produces too many columns: ${combos}, limit is ${PIVOT_MAX_COLUMNS}`, pos)

  const keyNames = p.groupBy.map((k) => outputName({ expr: k }))
  const columns: SelectItem[] = [...p.groupBy.map((k) => ({ expr: k }))]
  const names: string[] = []
  const withAggName = p.aggregates.length > 1 || p.aggregates.some((a) => a.alias !== undefined)
  for (const combo of product(lists)) {
    const valueName = combo.map((v) => valueText(v)).join('_')
    const when = and(combo.map((v, j) => equalTo(p.fors[j]!.column, v.expr)), pos)
    for (const a of p.aggregates) {
      names.push(withAggName ? `${valueName}_${a.alias ?? exprText(a.expr)}` : valueName)
      columns.push({ expr: onlyWhen(a.expr, when) })
    }
  }
  const unique = uniqueNames([...keyNames, ...names])
  const select: Select = {
    kind: 'select', pos, distinct: false,
    columns: columns.map((c, i) => ({ ...c, alias: unique[i]! })),
    from: p.source, joins: [],
    where: and([...(p.where === undefined ? [] : [p.where]), ...p.fors.map((f, j) => inValues(f.column, lists[j]!))], pos),
    ...(p.groupBy.length === 0 ? {} : { groupBy: p.groupBy }),
  }
  return select
}

/** `e` with the arguments of every aggregate call in it seen only when `when` holds. */
function onlyWhen(e: Expr, when: Expr): Expr {
  const pick = (x: Expr): Expr => ({ kind: 'case', pos: x.pos, whens: [{ when, then: x }] }) as Expr
  switch (e.kind) {
    case 'call': {
      if (isAggregateCall(e)) {
        // count(), count(*): count the rows of the value; otherwise every non-constant argument
        // (the first when all are constants: sum(1))
        if (e.args.length === 0 || e.star) return { ...e, star: false, args: [pick({ kind: 'literal', pos: e.pos, type: 'int', text: '1' })] }
        const allConst = e.args.every((x) => x.kind === 'literal')
        return { ...e, args: e.args.map((x, i) => (allConst ? i === 0 : x.kind !== 'literal') ? pick(x) : x) }
      }
      return { ...e, args: e.args.map((x) => onlyWhen(x, when)) }
    }
    case 'binary': return { ...e, left: onlyWhen(e.left, when), right: onlyWhen(e.right, when) }
    case 'unary': return { ...e, operand: onlyWhen(e.operand, when) }
    case 'cast': return { ...e, expr: onlyWhen(e.expr, when) }
    case 'case': return {
      ...e,
      ...(e.operand === undefined ? {} : { operand: onlyWhen(e.operand, when) }),
      whens: e.whens.map((w) => ({ when: onlyWhen(w.when, when), then: onlyWhen(w.then, when) })),
      ...(e.else === undefined ? {} : { else: onlyWhen(e.else, when) }),
    }
    default: return e
  }
}

function checkDuplicates(values: readonly PivotValue[]): void {
  const seen = new Set<string>()
  for (const v of values) {
    const key = literalKey(v.expr)
    if (seen.has(key)) throw new SqlError(SqlState.SYNTAX_ERROR, `duplicate value in PIVOT IN list: ${exprText(v.expr)}`, v.expr.pos)
    seen.add(key)
  }
}

function literalKey(e: Expr): string {
  if (e.kind === 'literal') return `${e.type}:${'value' in e ? String(e.value) : 'text' in e ? e.text : ''}`
  return JSON.stringify(e, (k, v: unknown) => (k === 'pos' ? undefined : v))
}

/** `col IN (non-null values)`, OR `col IS NULL` when NULL is listed. */
function inValues(column: Expr, values: readonly PivotValue[]): Expr {
  const pos = column.pos
  const nonNull = values.filter((v) => !isNull(v.expr)).map((v) => v.expr)
  const parts: Expr[] = []
  if (nonNull.length > 0) parts.push({ kind: 'in', pos, expr: column, list: nonNull, not: false } as Expr)
  if (nonNull.length < values.length) parts.push({ kind: 'isnull', pos, expr: column, not: false } as Expr)
  return parts.length === 1 ? parts[0]! : { kind: 'binary', pos, op: 'or', left: parts[0]!, right: parts[1]! } as Expr
}

/** `col IS NULL`, or `col IN (value)`, which casts the value to the column's type as a filter does ('2000' for an INT). */
function equalTo(column: Expr, value: Expr): Expr {
  return isNull(value) ? { kind: 'isnull', pos: column.pos, expr: column, not: false } as Expr : { kind: 'in', pos: column.pos, expr: column, list: [value], not: false } as Expr
}



function and(parts: readonly Expr[], pos: number): Expr {
  return parts.reduce((l, r) => ({ kind: 'binary', pos, op: 'and', left: l, right: r }) as Expr)
}

function isNull(e: Expr): boolean {
  return e.kind === 'literal' && e.type === 'null'
}

/** Every combination of one value per list, the first list outermost. */
function product(lists: readonly (readonly PivotValue[])[]): PivotValue[][] {
  let out: PivotValue[][] = [[]]
  for (const l of lists) out = out.flatMap((prefix) => l.map((v) => [...prefix, v]))
  return out
}

/** A value's column name: its alias, else its text (a string without quotes, `NULL`). */
function valueText(v: PivotValue): string {
  if (v.alias !== undefined) return v.alias
  const e = v.expr
  if (e.kind === 'literal') {
    if (e.type === 'string' || e.type === 'char') return e.value
    if (e.type === 'null') return 'NULL'
  }
  return exprText(e)
}

/** The text of an expression, for names and messages as QuestDB writes it: `sum(x)`, `'JAN'`, `now()`, `a + b`. */
export function exprText(e: Expr): string {
  return expressionText(e)
}

function hasWindow(e: Expr): boolean {
  return e.kind === 'call' && e.over !== undefined
}
