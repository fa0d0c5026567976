/**
 * What one walk over a statement's tree finds about its `$n` parameters: the highest `n`, and the
 * parameters that are the whole list of an IN (`x IN ($n)`, which a driver may bind to an array).
 * Worked out once per parsed statement (the engine caches parsed statements per text).
 */
import type { Statement } from './ast.js'

/** The parameter facts of one statement. */
export interface ParamFacts {
  /** the highest `$n` (0 when there is none) */
  readonly count: number
  /** the `n` of every `$n` that is the whole list of an IN */
  readonly inList: ReadonlySet<number>
}

const FACTS = new WeakMap<object, ParamFacts>()

/** The parameter facts of `stmt` (any tree node will do), cached per node. */
export function paramFacts(stmt: Statement | object): ParamFacts {
  let facts = FACTS.get(stmt)
  if (facts === undefined) {
    let count = 0
    const inList = new Set<number>()
    // an explicit stack, not recursion: a tree as deep as the parse limits allow cannot overflow it
    const stack: unknown[] = [stmt]
    while (stack.length > 0) {
      const node = stack.pop()
      if (node === null || typeof node !== 'object') continue
      if (Array.isArray(node)) { for (const x of node) stack.push(x); continue }
      const o = node as Record<string, unknown>
      if (o['kind'] === 'param' && typeof o['index'] === 'number') count = Math.max(count, o['index'])
      const list = o['list']
      if (o['kind'] === 'in' && Array.isArray(list) && list.length === 1) {
        const p = list[0] as Record<string, unknown>
        if (p['kind'] === 'param' && typeof p['index'] === 'number') inList.add(p['index'])
      }
      for (const k in o) stack.push(o[k])
    }
    FACTS.set(stmt, facts = { count, inList })
  }
  return facts
}

/**
 * The `n` of every `$n` that is the whole list of an IN (`x IN ($n)`): such a parameter may be an
 * array, and a driver that sends arrays untyped (node `pg`: `{a,b}` with OID 0) means one.
 */
export function inListParams(stmt: Statement): ReadonlySet<number> {
  return paramFacts(stmt).inList
}
