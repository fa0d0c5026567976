/**
 * Moving an expression to another place in the plan: whether it may be evaluated on other rows
 * than the ones it was written for, and rewriting it over a node's input instead of its output.
 * Used by the rules that push WHERE conjuncts down (`push-filters-into-joins`,
 * `push-filters-into-subqueries`).
 */
import type { BoundExpr } from '../plan-node.js'

/**
 * True when `e` may be evaluated on other rows than the ones it was written for: deterministic.
 * Subqueries left in expressions are uncorrelated (correlated ones are lateral joins by now) and
 * computed once per execution before any row, wherever the expression sits.
 */
export function movable(e: BoundExpr): boolean {
  switch (e.kind) {
    case 'column': case 'const': case 'param': case 'subquery': case 'exists': return true
    case 'call': return e.def.deterministic !== false && e.args.every(movable)
    case 'cast': case 'isnull': case 'in': case 'in_intervals': case 'in_query': return movable(e.expr)
    case 'case': return e.whens.every((w) => movable(w.when) && movable(w.then)) && movable(e.else)
  }
}

/**
 * `e` (over a node's output) rewritten over the node's input, where output column i is
 * `exprs[i]` over the input (a projection's expressions, an aggregate's keys), or undefined when
 * an expression it names may not be copied (not {@link movable}, or not in `exprs`).
 */
export function inlineExpr(e: BoundExpr, exprs: readonly (BoundExpr | undefined)[]): BoundExpr | undefined {
  switch (e.kind) {
    case 'column': {
      const x = exprs[e.index]
      return x !== undefined && movable(x) ? x : undefined
    }
    case 'call': {
      const args: BoundExpr[] = []
      for (const a of e.args) { const b = inlineExpr(a, exprs); if (b === undefined) return undefined; args.push(b) }
      return { ...e, args }
    }
    case 'cast': case 'isnull': case 'in': case 'in_intervals': case 'in_query': {
      const x = inlineExpr(e.expr, exprs)
      return x === undefined ? undefined : ({ ...e, expr: x } as BoundExpr)
    }
    case 'case': {
      const whens: { when: BoundExpr; then: BoundExpr }[] = []
      for (const w of e.whens) {
        const when = inlineExpr(w.when, exprs)
        const then = inlineExpr(w.then, exprs)
        if (when === undefined || then === undefined) return undefined
        whens.push({ when, then })
      }
      const els = inlineExpr(e.else, exprs)
      return els === undefined ? undefined : { ...e, whens, else: els }
    }
    // an uncorrelated subquery names no column of the row: it moves as it is (the same node, so
    // its value is still computed once per execution, keyed by the node)
    case 'const': case 'param': case 'subquery': case 'exists': return e
  }
}
