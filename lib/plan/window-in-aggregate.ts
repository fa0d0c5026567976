/**
 * A window call inside an aggregate's arguments (`sum(sum(41) over ())`, which QuestDB accepts,
 * questdb-slt pivot_errors.test): the windows are computed first, in a subquery over the same
 * rows (after WHERE), and the aggregates read their results:
 *
 * ```
 * SELECT k, sum(w1) FROM (SELECT *, sum(41) OVER () AS "\u0000w1" FROM t WHERE ...) t GROUP BY k
 * ```
 *
 * Only for a SELECT over one FROM item without joins (qualified names keep working through the
 * FROM item's alias); otherwise the select is returned unchanged and the binder refuses the window
 * call as before.
 */
import type { Call, Expr, Select, SelectItem, TableRef } from '../sql/ast.js'
import { isAggregateCall, outputNames, type OutputNaming } from './naming.js'

/**
 * `s` with the window calls inside aggregate arguments moved into a subquery, or `s` itself. The
 * columns keep the names they would have had (`naming`).
 */
export function windowsOutOfAggregates(s: Select, naming: OutputNaming | undefined): Select {
  if (s.from === undefined || s.joins.length > 0 || s.from.kind === 'pivot') return s
  const windows: Call[] = []
  const names = outputNames(s.columns, naming)
  const columns = s.columns.map((it, i): SelectItem => {
    const before = windows.length
    const expr = replaceInAggregates(it.expr, windows, false)
    return windows.length === before ? it : { ...it, expr, alias: names[i]! }
  })
  if (windows.length === 0) return s
  const pos = s.pos
  const alias = aliasOf(s.from)
  const inner: Select = {
    kind: 'select', pos, distinct: false,
    columns: [{ expr: { kind: 'star', pos } }, ...windows.map((w, i) => ({ expr: w as Expr, alias: windowName(i) }))],
    from: s.from, joins: [],
    ...(s.where === undefined ? {} : { where: s.where }),
    ...(s.latestOn === undefined ? {} : { latestOn: s.latestOn }),
  }
  const from: TableRef = { kind: 'subquery', pos: s.from.pos, query: inner, ...(alias === undefined ? {} : { alias }) }
  const { where: _w, latestOn: _l, ...rest } = s
  return { ...rest, columns, from }
}

function windowName(i: number): string {
  return `\u0000w${i + 1}`
}

function aliasOf(ref: TableRef): string | undefined {
  if (ref.alias !== undefined) return ref.alias
  return ref.kind === 'table' ? ref.name : undefined
}

/** `e` with every window call under an aggregate replaced by a reference to its subquery column. */
function replaceInAggregates(e: Expr, windows: Call[], inAggregate: boolean): Expr {
  const r = (x: Expr, inAgg = inAggregate): Expr => replaceInAggregates(x, windows, inAgg)
  switch (e.kind) {
    case 'call': {
      if (inAggregate && e.over !== undefined) {
        windows.push(e)
        return { kind: 'column', pos: e.pos, name: windowName(windows.length - 1) }
      }
      const agg = isAggregateCall(e)
      return { ...e, args: e.args.map((a) => r(a, inAggregate || agg)) }
    }
    case 'binary': return { ...e, left: r(e.left), right: r(e.right) }
    case 'unary': return { ...e, operand: r(e.operand) }
    case 'cast': return { ...e, expr: r(e.expr) }
    case 'case': return {
      ...e,
      ...(e.operand === undefined ? {} : { operand: r(e.operand) }),
      whens: e.whens.map((w) => ({ when: r(w.when), then: r(w.then) })),
      ...(e.else === undefined ? {} : { else: r(e.else) }),
    }
    case 'isnull': return { ...e, expr: r(e.expr) }
    case 'between': return { ...e, expr: r(e.expr), low: r(e.low), high: r(e.high) }
    case 'like': return { ...e, expr: r(e.expr), pattern: r(e.pattern) }
    case 'in': return Array.isArray(e.list) ? { ...e, expr: r(e.expr), list: (e.list as readonly Expr[]).map((x) => r(x)) } : { ...e, expr: r(e.expr) }
    default: return e
  }
}
