/**
 * Joins the DECIMAL overloads of the operators (`scalar/decimal-operators.ts`) and of the numeric
 * functions (`scalar/decimal-math.ts`) to the built-in
 * definitions of the same name, so each name stays defined once: the merged definition has the
 * built-in's signatures followed by the DECIMAL ones, and a call site resolved to a DECIMAL
 * signature (a DECIMAL argument or result) runs the DECIMAL kernel.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { internalError } from '../errors.js'
import { isDecimal } from '../types/decimal.js'
import type { CallSite, FunctionDef, ScalarFunctionDef } from './registry-types.js'
import { DECIMAL_OPERATORS } from './scalar/decimal-operators.js'
import { DECIMAL_MATH } from './scalar/decimal-math.js'

/** The state of a merged definition's call site that runs the DECIMAL kernel. */
class DecimalSite {
  constructor(readonly state: unknown) {}
}

function isDecimalSite(site: CallSite): boolean {
  return isDecimal(site.returns) || site.argTypes.some((t) => isDecimal(t))
}

function merge(base: ScalarFunctionDef, dec: ScalarFunctionDef): ScalarFunctionDef {
  return {
    ...base,
    signatures: [...base.signatures, ...dec.signatures],
    init: (site, ctx) => (isDecimalSite(site) ? new DecimalSite(dec.init?.(site, ctx)) : base.init?.(site, ctx)),
    vector: (args, n, ctx, state) => {
      if (state instanceof DecimalSite) return dec.vector!(args, n, ctx, state.state)
      if (base.vector !== undefined) return base.vector(args, n, ctx, state)
      throw internalError(`${base.name}: no vector kernel`)
    },
  }
}

/** `defs` with the DECIMAL operator overloads joined to the definitions of their names. */
export function withDecimalOverloads(defs: readonly FunctionDef[]): FunctionDef[] {
  const extra = new Map([...DECIMAL_OPERATORS, ...DECIMAL_MATH].map((d) => [d.name, d]))
  return defs.map((d) => {
    const dec = d.kind === 'scalar' ? extra.get(d.name) : undefined
    return dec === undefined ? d : merge(d as ScalarFunctionDef, dec)
  })
}
