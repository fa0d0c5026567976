/**
 * Function lookup and overload resolution. A call's argument types are matched against each
 * signature; the cheapest set of implicit conversions wins, ties going to the signature declared
 * first. Exact declared types get an implicit cast inserted by the binder.
 */
import { type ColumnType, isIntegral, isNumeric, isTemporal, isText } from '../types/column-type.js'
import type { ArgType, FunctionDef, Signature } from '../functions/registry-types.js'
import { isArrayType } from '../types/array-type.js'
import { isDecimal } from '../types/decimal.js'
import { isGeohash } from '../types/geohash.js'
import { decimalConversionCost } from '../types/decimal-rules.js'
import { nsConversionCost } from '../types/timestamp-ns-rules.js'

const NUMERIC_RANK: Partial<Record<ColumnType, number>> = { BYTE: 0, SHORT: 1, INT: 2, LONG: 3, FLOAT: 4, DOUBLE: 5 }

/**
 * The cost of passing a value of type `from` where `to` is declared, or -1 when impossible.
 * `literal` marks a constant string literal, which may convert to temporal and other types.
 */
export function conversionCost(from: ColumnType, to: ArgType, literal: boolean): number {
  if (to === 'ANY') return 1
  if (to === 'GEOHASH') return isGeohash(from) ? 1 : from === 'NULL' ? 2 : -1
  if (isGeohash(from) || isGeohash(to)) return from === to ? 0 : from === 'NULL' ? 2 : -1
  if (to === 'DECIMAL' || isDecimal(from) || isDecimal(to)) return decimalConversionCost(from, to, literal)
  if (from === 'TIMESTAMP_NS' || to === 'TIMESTAMP_NS') return to === 'TEMPORAL' ? 14 : to === 'NUMERIC' || to === 'TEXT' || to === 'ARRAY' ? (from === 'NULL' ? 2 : isText(from, true) && to === 'TEXT' ? 1 : -1) : nsConversionCost(from, to, literal)
  if (to === 'NUMERIC') return isNumeric(from) ? 1 : from === 'NULL' ? 2 : -1
  if (to === 'TEXT') return isText(from, true) ? 1 : from === 'NULL' ? 2 : -1
  if (to === 'ARRAY') return isArrayType(from) ? 1 : from === 'NULL' ? 2 : -1
  if (to === 'TEMPORAL') return isTemporal(from) ? 1 : from === 'NULL' || isText(from) ? 8 : -1
  if (from === to) return 0
  if (from === 'NULL') return 2
  if (from === 'INTERVAL' && to === 'INTERVAL_NS') return 2
  const a = NUMERIC_RANK[from]
  const b = NUMERIC_RANK[to]
  if (a !== undefined && b !== undefined) return a < b ? 2 + (b - a) : -1
  if (from === 'CHAR' && (to === 'STRING' || to === 'VARCHAR')) return 3
  if (isText(from) && isText(to)) return from === 'SYMBOL' ? 2 : 3
  if (isText(from) && (isTemporal(to) || to === 'UUID' || to === 'IPV4' || to === 'LONG256')) return literal ? 4 : 9
  if (isText(from) && to === 'CHAR') return literal ? 6 : -1
  if (isIntegral(from) && isTemporal(to)) return 12
  if (from === 'DATE' && to === 'TIMESTAMP') return 5
  if (from === 'TIMESTAMP' && to === 'DATE') return 20
  // (no TIMESTAMP / DATE → LONG: the binder refuses that cast, so `avg(ts)` would pick the LONG
  // overload and fail on the argument; QuestDB's answer is that no function takes TIMESTAMP)
  return -1
}

/** A resolved call: the signature and the argument types it expects. */
export interface Resolution {
  readonly def: FunctionDef
  readonly signature: Signature
  /** the declared type of each argument (exact types get a cast) */
  readonly declared: readonly ArgType[]
}

/**
 * Picks the best overload for `argTypes` among `defs`, or undefined. `prefer[i]`, for an argument
 * of unknown type (an untyped `$n`, passed as NULL), is the type it should rather take (its typed
 * neighbour's), so `v + $1` with a DOUBLE v makes `$1` DOUBLE, not TIMESTAMP.
 */
export function resolveOverload(defs: readonly FunctionDef[], argTypes: readonly ColumnType[], literals: readonly boolean[], prefer?: readonly (ColumnType | undefined)[]): Resolution | undefined {
  let best: Resolution | undefined
  let bestCost = Infinity
  for (const def of defs) {
    for (const sig of def.signatures) {
      const declared = declaredTypes(sig, argTypes.length)
      if (declared === undefined) continue
      let cost = 0
      for (let i = 0; i < argTypes.length && cost >= 0; i++) {
        const p = prefer?.[i]
        const c = p !== undefined && argTypes[i] === 'NULL' ? (declared[i] === p ? 1 : 3) : conversionCost(argTypes[i]!, declared[i]!, literals[i]!)
        cost = c < 0 ? -1 : cost + c
      }
      if (cost >= 0 && cost < bestCost) { best = { def, signature: sig, declared }; bestCost = cost }
    }
  }
  return best
}

function declaredTypes(sig: Signature, n: number): ArgType[] | undefined {
  if (n < sig.args.length) return undefined
  if (n > sig.args.length && sig.variadic === undefined) return undefined
  const out = [...sig.args]
  while (out.length < n) out.push(sig.variadic!)
  return out
}

/** The text of a signature as users read it: `name(INT, DOUBLE)`. */
export function describeArgs(name: string, types: readonly ColumnType[]): string {
  return `${name}(${types.join(', ')})`
}

/**
 * QuestDB's error when no overload takes `count` arguments: "function `f` requires arguments:
 * f(DOUBLE)" for none given, "wrong number of arguments for function `f`; expected: 1,
 * provided: 3" otherwise. Undefined when some overload has that many arguments.
 */
export function arityError(name: string, defs: readonly FunctionDef[], count: number): string | undefined {
  const sigs = defs.flatMap((d) => d.signatures)
  if (sigs.some((s) => s.args.length === count || (s.variadic !== undefined && count >= s.args.length))) return undefined
  const first = sigs.find((s) => s.args.length > 0) ?? sigs[0]
  if (first === undefined) return undefined
  const shown = (t: ArgType) => (t === 'IPV4' ? 'IPv4' : t === 'TEMPORAL' ? 'TIMESTAMP' : t === 'TEXT' ? 'STRING' : t === 'NUMERIC' ? 'DOUBLE' : t === 'ARRAY' ? 'DOUBLE[]' : t)
  if (count === 0) return `function \`${name}\` requires arguments: ${name}(${first.args.map(shown).join(', ')})`
  return `wrong number of arguments for function \`${name}\`; expected: ${first.args.length}, provided: ${count}`
}
