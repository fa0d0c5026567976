/**
 * Folds a constant bound expression (no columns, parameters, subqueries or non-deterministic
 * calls: `60 * 60 * 2.5`, `cast(60 * 60 * 2.5 as long)`) to its value, for the places that need
 * a constant when the statement is bound, as QuestDB folds constant functions when it compiles:
 * table-function arguments (`long_sequence(cast(60 * 60 * 2.5 as long))`).
 */
import type { FunctionContext } from '../functions/registry-types.js'
import type { BoundExpr } from './plan-node.js'
import { evalConstant } from '../exec/evaluate.js'
import type { ExecContext } from '../exec/context.js'

/** `e` as a constant when it is one and evaluates without error; otherwise `e` unchanged. */
export function foldConstant(e: BoundExpr, fn: FunctionContext): BoundExpr {
  if (e.kind === 'const' || !isConstant(e)) return e
  try {
    // the binder's function context is the statement's ExecContext (lib/statements.ts)
    return { kind: 'const', type: e.type, value: evalConstant(e, fn as ExecContext) }
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
