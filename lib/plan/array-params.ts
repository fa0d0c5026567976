/**
 * Array-valued parameters. `x IN ($n)` with an array for `$n` tests membership in its elements,
 * as QuestDB does for VARCHAR[] bind variables (JDBC `setArray`, a Python list, a JS array in
 * `db.query`). One prepared statement then serves lists of any length.
 *
 * The statement is rewritten for one execution: each such `$n` in an IN list becomes one new
 * parameter per element, appended after the others, so the elements bind, convert and fail
 * exactly as parameters written out one by one would. An empty array matches no row (`NOT IN`
 * an empty array matches every row). Elsewhere a rectangular array of numbers is a DOUBLE[]
 * value (nested arrays for more dimensions); any other array is refused with 42804.
 */
import { SqlError, SqlState } from '../errors.js'
import type { Statement } from '../sql/ast.js'
import { arrayFromNested } from '../types/array.js'

/** `stmt` and `params` with every array parameter of an IN list expanded; the same objects when there is none. */
export function expandArrayParams(stmt: Statement, params: readonly unknown[]): { stmt: Statement; params: readonly unknown[] } {
  if (!params.some(Array.isArray)) return { stmt, params }
  const out = [...params]
  const rewritten = rewrite(stmt, out) as Statement
  // the arrays themselves are no longer referenced: their slots bind as NULL
  params.forEach((p, i) => { if (Array.isArray(p) && arrayFromNested(p) === undefined) out[i] = null })
  return { stmt: rewritten, params: out }
}

type Node = Record<string, unknown>

/** A copy of `node` with the IN lists rewritten; unchanged subtrees are shared, not copied. */
function rewrite(node: unknown, params: unknown[]): unknown {
  if (node === null || typeof node !== 'object') return node
  if (Array.isArray(node)) {
    let changed = false
    const items = node.map((x) => { const y = rewrite(x, params); if (y !== x) changed = true; return y })
    return changed ? items : node
  }
  const o = node as Node
  if (o['kind'] === 'param') {
    const index = o['index'] as number
    // a rectangular array of numbers is a DOUBLE[] value (see types/array.ts)
    if (Array.isArray(params[index - 1]) && arrayFromNested(params[index - 1]) === undefined) {
      throw new SqlError(SqlState.DATATYPE_MISMATCH, `array parameter $${index} can only be used as the list of IN ($${index})`, o['pos'] as number)
    }
    return o
  }
  if (o['kind'] === 'in' && Array.isArray(o['list'])) return rewriteIn(o, o['list'] as unknown[], params)
  let copy: Node | undefined
  for (const k in o) {
    const v = o[k]
    const w = rewrite(v, params)
    if (w !== v) (copy ??= { ...o })[k] = w
  }
  return copy ?? o
}

function rewriteIn(o: Node, list: readonly unknown[], params: unknown[]): unknown {
  let expanded = false
  const items: unknown[] = []
  for (const item of list) {
    const p = item as Node
    const value = p['kind'] === 'param' ? params[(p['index'] as number) - 1] : undefined
    if (!Array.isArray(value)) { items.push(rewrite(item, params)); continue }
    expanded = true
    for (const element of value) {
      params.push(element)
      items.push({ kind: 'param', pos: p['pos'], index: params.length })
    }
  }
  const expr = rewrite(o['expr'], params)
  if (!expanded) return expr === o['expr'] && items.every((x, i) => x === list[i]) ? o : { ...o, expr, list: items }
  // nothing to be in: IN is false and NOT IN true for every row
  if (items.length === 0) return { kind: 'literal', type: 'boolean', value: o['not'] === true, pos: o['pos'] }
  return { ...o, expr, list: items }
}
