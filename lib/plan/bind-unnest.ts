/**
 * UNNEST as a FROM item beside other FROM items, as QuestDB has it (query/sql/unnest.md):
 * `FROM t, UNNEST(t.arr) u(v)` and `FROM t CROSS JOIN UNNEST(t.asks[2]) WITH ORDINALITY u(v, level)`
 * unnest each row of `t`. Such a join is rewritten into a LATERAL join of `SELECT * FROM
 * UNNEST(...)` (bind-lateral.ts), so `t.arr` becomes a parameter slot filled per row of `t` and
 * the table function reads its arguments when it runs (TableFunctionNode.args). Also the column
 * alias list `u(a, b)` of a table function.
 */
import { SqlError, SqlState } from '../errors.js'
import type { Join, TableRef } from '../sql/ast.js'
import { joinUsingError } from '../sql/join-clause-errors.js'
import type { PlanNode } from './plan-node.js'

const UNNEST_NAMES = new Set(['unnest', 'unnest_with_ordinality', 'unnest_json', 'unnest_json_with_ordinality'])

/** True for a FROM item that calls UNNEST (array or JSON). */
export function isUnnestRef(ref: TableRef): boolean {
  return ref.kind === 'function' && UNNEST_NAMES.has(ref.call.name.toLowerCase())
}

/**
 * The LATERAL join a non-lateral join with an UNNEST item stands for, or undefined when the join
 * is something else. Only inner and cross joins unnest per row (QuestDB's comma and CROSS JOIN forms).
 */
export function unnestAsLateral(join: Join): Join | undefined {
  const ref = join.table
  if (join.lateral === true || !isUnnestRef(ref) || ref.kind !== 'function') return undefined
  if (join.type !== 'cross' && join.type !== 'inner') throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, `${join.type.toUpperCase()} JOIN UNNEST is not supported; write CROSS JOIN UNNEST or a comma`, join.pos)
  const inner: TableRef = { kind: 'function', pos: ref.pos, call: ref.call, ...(ref.columnAliases === undefined ? {} : { columnAliases: ref.columnAliases }) }
  return {
    ...join, lateral: true,
    table: {
      kind: 'subquery', pos: ref.pos, alias: ref.alias ?? ref.call.name.toLowerCase().replace(/_with_ordinality$/, ''),
      query: { kind: 'select', pos: ref.pos, distinct: false, columns: [{ expr: { kind: 'star', pos: ref.pos } }], from: inner, joins: [] },
    },
  }
}

/**
 * Refuses `JOIN t USING (k)`, which the grammar reads as alias `using` with a column list: QuestDB
 * has no USING (42601 at the USING). Checked for every FROM item, a table function's or a LATERAL
 * subquery's too, whose column list would otherwise rename columns of a join without a condition.
 */
export function rejectUsingAlias(ref: TableRef): void {
  if (ref.kind === 'pivot' || ref.columnAliases === undefined || ref.alias?.toLowerCase() !== 'using') return
  throw joinUsingError(ref.aliasPos ?? ref.pos)
}

/** `node` with its output columns renamed by a FROM item's column alias list (`u(a, b)`): the first ones, in order. */
export function withColumnAliases(node: PlanNode, ref: TableRef): PlanNode {
  const names = ref.kind === 'pivot' ? undefined : ref.columnAliases
  if (names === undefined) return node
  if (ref.kind !== 'function') throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, 'column aliases are supported for table functions only (UNNEST(...) u(a, b))', ref.pos)
  if (names.length > node.output.length) throw new SqlError(SqlState.SYNTAX_ERROR, `too many column aliases: ${ref.call.name} has ${node.output.length} columns`, ref.pos)
  return { ...node, output: node.output.map((c, i) => (i < names.length ? { ...c, name: names[i]! } : c)) } as PlanNode
}
