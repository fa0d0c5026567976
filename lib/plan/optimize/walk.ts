/**
 * Generic plan traversal for optimizer rules: rebuild a node with new children, and rewrite the
 * column indexes of bound expressions.
 */
import { internalError } from '../../errors.js'
import type { BoundExpr, PlanNode } from '../plan-node.js'

/** `node` with each child replaced by `f(child)` (unchanged children keep their identity). */
export function mapChildren(node: PlanNode, f: (child: PlanNode) => PlanNode): PlanNode {
  switch (node.kind) {
    // physical nodes come after the optimizer; their inputs are chosen already
    case 'scan': case 'table_function': case 'values': case 'parallel_aggregate': case 'parallel_filter': return node
    case 'filter': case 'project': case 'aggregate': case 'sort': case 'limit': case 'distinct':
    case 'sample_by': case 'latest_on': case 'window': {
      const input = f(node.input)
      return input === node.input ? node : ({ ...node, input } as PlanNode)
    }
    case 'setop': case 'join': case 'time_join': case 'lateral_join': case 'window_join': case 'horizon_join': {
      const left = f(node.left)
      const right = f(node.right)
      return left === node.left && right === node.right ? node : ({ ...node, left, right } as PlanNode)
    }
  }
}

/** Adds the input column indexes `e` reads to `out`. */
export function columnsOf(e: BoundExpr, out: Set<number>): void {
  switch (e.kind) {
    case 'column': out.add(e.index); return
    case 'call': for (const a of e.args) columnsOf(a, out); return
    case 'cast': case 'isnull': case 'in': case 'in_intervals': case 'in_query': columnsOf(e.expr, out); return
    case 'case': for (const w of e.whens) { columnsOf(w.when, out); columnsOf(w.then, out) } columnsOf(e.else, out); return
    case 'const': case 'param': case 'subquery': case 'exists': return
  }
}

/** `e` with every column index i replaced by map[i]. */
export function remapExpr(e: BoundExpr, map: Int32Array): BoundExpr {
  switch (e.kind) {
    case 'column': return map[e.index] === e.index ? e : { ...e, index: map[e.index]! }
    case 'call': return { ...e, args: e.args.map((a) => remapExpr(a, map)) }
    case 'cast': case 'isnull': case 'in': case 'in_intervals': case 'in_query': return { ...e, expr: remapExpr(e.expr, map) } as BoundExpr
    case 'case': return { ...e, whens: e.whens.map((w) => ({ when: remapExpr(w.when, map), then: remapExpr(w.then, map) })), else: remapExpr(e.else, map) }
    case 'const': case 'param': case 'subquery': case 'exists': return e
  }
}

/** The conjuncts of a predicate (`a AND b AND c` -> [a, b, c]). */
export function conjunctsOf(e: BoundExpr): BoundExpr[] {
  return e.kind === 'call' && e.def.name === 'and' ? e.args.flatMap(conjunctsOf) : [e]
}

/** Joins conjuncts back with the given `and` definition's node shape, or undefined when empty. */
export function andAll(parts: readonly BoundExpr[], template: BoundExpr | undefined): BoundExpr | undefined {
  if (parts.length === 0) return undefined
  let acc = parts[0]!
  for (let i = 1; i < parts.length; i++) {
    if (template === undefined || template.kind !== 'call') throw internalError('and template missing')
    acc = { ...template, args: [acc, parts[i]!] }
  }
  return acc
}
