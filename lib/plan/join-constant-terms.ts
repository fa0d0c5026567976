/**
 * QuestDB's check of the literal terms of a join's filters (SqlLogicalJoinTest): the literal
 * conjuncts of WHERE, then those of each INNER JOIN's ON in join order, form one group that must
 * be a boolean. The ON of an outer join keeps its own terms (a row is kept either way), and a term
 * that is not a bare literal (`$1`, `abs(1) > 0`, a column) is a runtime term outside the group.
 *
 * Leading `true`s fold away and a leading `false` makes the whole group false. What is left must be
 * one BOOLEAN literal (else `boolean expression expected` at it: `WHERE l.id < r.id AND 1`,
 * `WHERE true AND null`), or several that are BOOLEAN or NULL with at least one BOOLEAN (`null AND
 * true`); otherwise `expression type mismatch, expected: BOOLEAN, actual: <type>` at the first that
 * is not BOOLEAN (`null AND 1`: NULL; `1 AND null`: INT).
 */
import { SqlError, SqlState } from '../errors.js'
import type { Expr, Literal, Select } from '../sql/ast.js'
import { conjuncts } from './bind-time-join.js'

const PLAIN_JOINS: ReadonlySet<string> = new Set(['inner', 'cross', 'left', 'right', 'full'])

/**
 * Checks the literal terms of `s`'s WHERE and INNER JOIN ONs when every join of `s` is an INNER,
 * CROSS, LEFT, RIGHT or FULL join (not LATERAL); other queries are left to the binder.
 * @throws SqlError 42804 as QuestDB's, at the literal
 */
export function checkJoinConstantTerms(s: Select): void {
  if (s.joins.length === 0 || !s.joins.every((j) => PLAIN_JOINS.has(j.type) && j.lateral !== true)) return
  const group: Literal[] = []
  const take = (e: Expr | undefined) => {
    for (const c of e === undefined ? [] : conjuncts(e)) if (c.kind === 'literal') group.push(c)
  }
  take(s.where)
  for (const j of s.joins) if (j.type === 'inner') take(j.on)
  let first = 0
  while (first < group.length && isBoolean(group[first]!, true)) first++
  const rest = group.slice(first)
  if (rest.length === 0 || isBoolean(rest[0]!, false)) return
  if (rest.length === 1) {
    if (rest[0]!.type !== 'boolean') throw new SqlError(SqlState.DATATYPE_MISMATCH, 'boolean expression expected', rest[0]!.pos)
    return
  }
  if (rest.every((l) => l.type === 'boolean' || l.type === 'null') && rest.some((l) => l.type === 'boolean')) return
  const bad = rest.find((l) => l.type !== 'boolean')!
  throw new SqlError(SqlState.DATATYPE_MISMATCH, `expression type mismatch, expected: BOOLEAN, actual: ${typeOfLiteral(bad)}`, bad.pos)
}

function isBoolean(l: Literal, value: boolean): boolean {
  return l.type === 'boolean' && l.value === value
}

/** The type name QuestDB gives a literal in its message. */
function typeOfLiteral(l: Literal): string {
  switch (l.type) {
    case 'int': return 'INT'
    case 'long': return 'LONG'
    case 'double': return 'DOUBLE'
    case 'decimal': return 'DECIMAL'
    case 'string': return 'STRING'
    case 'boolean': return 'BOOLEAN'
    case 'null': return 'NULL'
    case 'char': return 'CHAR'
    case 'long256': return 'LONG256'
    case 'geohash': return 'GEOHASH'
  }
}
