/**
 * QuestDB's hidden names for the unaliased subqueries of a FROM clause with joins. QuestDB calls
 * each FROM item with neither an alias nor a table name `_xQdbA0`, `_xQdbA1`, ... in order (its
 * `SUB_QUERY_ALIAS_PREFIX`), so the names of the tables inside a subquery do not leak out of it:
 * `(SELECT * FROM t) JOIN t ON ...` joins two FROM items, `_xQdbA0` and `t`, and `t.k` is the right
 * side's. A user alias equal to a hidden name is `Duplicate table or alias: _xQdbA0`.
 */
import type { Join, Select, TableRef } from '../sql/ast.js'

/** The prefix of QuestDB's names for unaliased subqueries in a join. */
export const SUB_QUERY_ALIAS_PREFIX = '_xQdbA'

/** `s` with each unaliased subquery among its FROM item and joined items named `_xQdbA<n>`; `s` itself when it has no join or no such subquery. */
export function withSubqueryAliases(s: Select): Select {
  if (s.joins.length === 0 || s.from === undefined) return s
  let n = 0
  const named = (ref: TableRef): TableRef =>
    ref.kind === 'subquery' && ref.alias === undefined ? { ...ref, alias: `${SUB_QUERY_ALIAS_PREFIX}${n++}`, aliasPos: ref.pos } : ref
  const from = named(s.from)
  // a LATERAL subquery keeps its own rules (bind-lateral.ts)
  const joins = s.joins.map((j): Join => (j.lateral === true ? j : { ...j, table: named(j.table) }))
  return n === 0 ? s : { ...s, from, joins }
}
