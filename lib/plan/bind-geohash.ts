/**
 * GEOHASH operands of `=` / `!=`, as QuestDB's EqGeoHashGeoHashFunctionFactory and
 * EqGeoHashStrFunctionFactory bind them: text (or NULL) beside a geohash converts to that
 * geohash's precision (`g = 'u33d'`), and two geohashes of different precisions are never equal
 * (constant false for `=`, true for `!=`; a NULL constant of either precision is a null check).
 */
import type { ColumnType } from '../types/column-type.js'
import { isText } from '../types/column-type.js'
import { isGeohash } from '../types/geohash.js'
import { castTo } from './bind-expr.js'
import type { BoundExpr } from './plan-node.js'

function isNullConst(b: BoundExpr): boolean {
  return b.kind === 'const' && b.value === null
}

/**
 * The arguments of `name` with a text/NULL side converted to its geohash peer's type; a constant
 * for geohashes of different precisions; undefined when no argument is a geohash or the call is
 * not `=` / `!=`.
 */
export function bindGeohashComparison(name: string, bound: readonly BoundExpr[], positions: readonly number[]): BoundExpr[] | BoundExpr | undefined {
  if ((name !== '=' && name !== '!=') || bound.length !== 2) return undefined
  const [a, b] = bound as [BoundExpr, BoundExpr]
  const ga = isGeohash(a.type), gb = isGeohash(b.type)
  if (!ga && !gb) return undefined
  const convertible = (t: ColumnType) => isText(t) || t === 'NULL'
  if (ga && gb) {
    if (a.type === b.type) return undefined
    if (isNullConst(b)) return [a, { kind: 'const', type: a.type, value: null }]
    if (isNullConst(a)) return [{ kind: 'const', type: b.type, value: null }, b]
    return { kind: 'const', type: 'BOOLEAN', value: name === '!=' }
  }
  if (ga && convertible(b.type)) return [a, castTo(b, a.type, positions[1]!, false)]
  if (gb && convertible(a.type)) return [castTo(a, b.type, positions[0]!, false), b]
  return undefined
}
