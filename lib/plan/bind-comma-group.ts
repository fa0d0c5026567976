/**
 * The joins of a FROM clause, left to right, with one exception for comma groups. In standard SQL
 * a comma binds looser than JOIN: `FROM a, b RIGHT JOIN c ON c.x = b.x` is `a` times
 * `(b RIGHT JOIN c ON c.x = b.x)`, so every row of c comes back once per row of a. QuestDB does
 * the same when the ON condition names only the group's own inputs (b, c), and binds like a CROSS
 * JOIN, `(a, b) RIGHT JOIN c`, when it names a table before the comma (`ON c.x = a.x`).
 *
 * For INNER, LEFT and CROSS joins both readings give the same rows, so only a group holding a RIGHT
 * or FULL join is bound on its own: the comma item and the explicit joins after it (up to the next
 * comma) are bound without the tables before the comma; when a name is then unknown (42703 /
 * 42P01: the group reads an earlier table), the joins bind left to right instead.
 */
import { SqlError, SqlState } from '../errors.js'
import type { Join, TableRef } from '../sql/ast.js'
import type { PlanNode } from './plan-node.js'

/** How the binder binds one join onto what is left of it, and one FROM item. */
export interface JoinBinders<C> {
  readonly join: (left: PlanNode, join: Join, bc: C) => PlanNode
  readonly table: (ref: TableRef, bc: C) => PlanNode
}

/** `source` joined with `joins` in order, a comma group holding a RIGHT / FULL join bound within itself when it can be. */
export function bindJoins<C>(source: PlanNode, joins: readonly Join[], bc: C, b: JoinBinders<C>): PlanNode {
  for (let i = 0; i < joins.length;) {
    const j = joins[i]!
    let end = i + 1
    if (j.comma === true && j.lateral !== true) while (end < joins.length && joins[end]!.comma !== true) end++
    const group = joins.slice(i + 1, end)
    const nested = group.some((g) => g.type === 'right' || g.type === 'full') ? bindGroup(j, group, bc, b) : undefined
    if (nested === undefined) {
      source = b.join(source, j, bc)
      i++
      continue
    }
    source = {
      kind: 'join', type: 'inner', left: source, right: nested, leftKeys: [], rightKeys: [], residual: undefined,
      output: [...source.output, ...nested.output], timestampIndex: source.timestampIndex,
    }
    i = end
  }
  return source
}

/** The comma item `first` with the joins of its group, bound alone; undefined when they name a table or column outside it. */
function bindGroup<C>(first: Join, group: readonly Join[], bc: C, b: JoinBinders<C>): PlanNode | undefined {
  try {
    let node = b.table(first.table, bc)
    for (const g of group) node = b.join(node, g, bc)
    return node
  } catch (e) {
    if (e instanceof SqlError && (e.code === SqlState.UNDEFINED_COLUMN || e.code === SqlState.UNDEFINED_TABLE)) return undefined
    throw e
  }
}
