/**
 * Aggregates whose answer depends on rows arriving in designated-timestamp order take that order
 * from their input, so the binder checks what they are given, as QuestDB does:
 * `twap(price, ts)` needs the input's designated timestamp itself as `ts` (a plain column
 * reference, or an identity cast of it). Any other timestamp — another column, an expression, a
 * constant, or the input having no designated timestamp — is 22023 `twap() requires the table's
 * designated timestamp as the second argument` at the call.
 *
 * QuestDB also refuses an input whose rows are not in ascending designated-timestamp order: below
 * `ORDER BY ts DESC LIMIT n` EpochDB keeps no designated timestamp, so the check above refuses it;
 * a sort by anything else with the timestamp named again (`(... ORDER BY price) timestamp(ts)`) is
 * 22023 `twap() requires the base query to provide ascending designated timestamp order`.
 * `sparkline(v)` draws its values in row order and has only that order check (`sparkline()
 * requires ...`), which also refuses a sort descending by the designated timestamp below it.
 */
import { SqlError, SqlState } from '../errors.js'
import type { BoundExpr, PlanNode } from './plan-node.js'

/** The column index `e` reads, through casts to its own type; undefined for anything else. */
function plainColumn(e: BoundExpr): number | undefined {
  if (e.kind === 'column') return e.index
  if (e.kind === 'cast' && e.expr.type === e.type) return plainColumn(e.expr)
  return undefined
}

/**
 * False when `node`'s rows come from a sort that is not ascending by column `ts` (followed through
 * filters, limits and projections that pass the column on); true otherwise.
 */
function ascendingBy(node: PlanNode, ts: number): boolean {
  switch (node.kind) {
    case 'sort': {
      const first = node.keys[0]
      return first !== undefined && !first.desc && plainColumn(first.expr) === ts
    }
    case 'filter': {
      const i = node.projection === undefined ? ts : node.projection[ts]
      return i === undefined || ascendingBy(node.input, i)
    }
    case 'limit': return ascendingBy(node.input, ts)
    case 'project': {
      const e = node.exprs[ts]
      const i = e === undefined ? undefined : plainColumn(e)
      return i === undefined || ascendingBy(node.input, i)
    }
    default: return true
  }
}

/** True when `node`'s rows come from a sort descending by its input's designated timestamp. */
function descendingByDesignated(node: PlanNode): boolean {
  switch (node.kind) {
    case 'sort': {
      const first = node.keys[0]
      return first !== undefined && first.desc && node.input.timestampIndex >= 0 && plainColumn(first.expr) === node.input.timestampIndex
    }
    case 'filter': case 'limit': case 'project': return descendingByDesignated(node.input)
    default: return false
  }
}

/** Checks the arguments of an order-dependent aggregate `name` bound over `source`. */
export function checkOrderedAggregate(name: string, args: readonly BoundExpr[], source: PlanNode, pos: number): void {
  if (name === 'sparkline') {
    const ts = source.timestampIndex
    if ((ts >= 0 && !ascendingBy(source, ts)) || descendingByDesignated(source)) {
      throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'sparkline() requires the base query to provide ascending designated timestamp order', pos)
    }
    return
  }
  if (name !== 'twap') return
  const ts = args[1]
  const designated = source.timestampIndex
  if (designated < 0 || ts === undefined || plainColumn(ts) !== designated) {
    throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, "twap() requires the table's designated timestamp as the second argument", pos)
  }
  if (!ascendingBy(source, designated)) {
    throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'twap() requires the base query to provide ascending designated timestamp order', pos)
  }
}
