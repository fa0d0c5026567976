/**
 * Folds a constant bound expression (no columns, parameters, subqueries or non-deterministic
 * calls: `60 * 60 * 2.5`, `cast(60 * 60 * 2.5 as long)`) to its value, for the places that need
 * a constant when the statement is bound, as QuestDB folds constant functions when it compiles:
 * table-function arguments (`long_sequence(cast(60 * 60 * 2.5 as long))`). The evaluation itself
 * is the executor's (exec/evaluate.ts `evalConstant`), handed in through the
 * {@link BindContext} by the layer that binds and runs statements, so that plan/ never imports
 * exec/.
 */
import type { Scalar } from '../types/vector.js'
import type { BoundExpr } from './plan-node.js'

/** Evaluates a constant expression to its value (throws as the evaluator would). */
export type ConstantEvaluator = (e: BoundExpr) => Scalar

/**
 * `e` as a constant when it is one and `evaluate` gives its value without error; otherwise `e`
 * unchanged (also without an evaluator).
 */
export function foldConstant(e: BoundExpr, evaluate: ConstantEvaluator | undefined): BoundExpr {
  if (evaluate === undefined || e.kind === 'const' || !isConstant(e)) return e
  try {
    return { kind: 'const', type: e.type, value: evaluate(e) }
  } catch {
    return e
  }
}

function isConstant(e: BoundExpr): boolean {
  switch (e.kind) {
    case 'const': return true
    case 'call': return e.def.deterministic !== false && e.args.every(isConstant)
    case 'cast': return isConstant(e.expr)
    case 'case': return e.whens.every((w) => isConstant(w.when) && isConstant(w.then)) && isConstant(e.else)
    case 'isnull': return isConstant(e.expr)
    default: return false
  }
}
