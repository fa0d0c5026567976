/**
 * Boolean operators `and`, `or`, `not`. BOOLEAN has no null in QuestDB (a null reads as false),
 * so these are plain two-valued bit operations over Uint8Arrays.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { internalError } from '../../errors.js'
import type { BoolVector, Vector } from '../../types/vector.js'
import type { ScalarFunctionDef } from '../registry-types.js'
import { boolConst, boolOut } from '../kernel-helpers.js'

/** `a AND b` / `a OR b` over BOOLEAN vectors, with constant short-cuts. */
export function andOr(isAnd: boolean, a: BoolVector, b: BoolVector, n: number): BoolVector {
  if (a.isConst === true && b.isConst === true) {
    const x = a.data[0] !== 0, y = b.data[0] !== 0
    return boolConst(isAnd ? x && y : x || y, n)
  }
  if (b.isConst === true) return andOr(isAnd, b, a, n)
  if (a.isConst === true) {
    const x = a.data[0] !== 0
    // AND true / OR false pass b through; AND false / OR true are constant
    if (isAnd === x) return b
    return boolConst(x, n)
  }
  const out = boolOut(n), o = out.data, x = a.data, y = b.data
  if (isAnd) for (let i = 0; i < n; i++) o[i] = x[i]! & y[i]!
  else for (let i = 0; i < n; i++) o[i] = x[i]! | y[i]!
  return out
}

/** `NOT a`. */
export function notVector(a: BoolVector, n: number): BoolVector {
  if (a.isConst === true) return boolConst(a.data[0] === 0, n)
  const out = boolOut(n), o = out.data, x = a.data
  for (let i = 0; i < n; i++) o[i] = x[i]! ^ 1
  return out
}

function asBool(v: Vector): BoolVector {
  if (v.kind !== 'bool') throw internalError(`boolean operator on ${v.type}`)
  return v
}

/** The boolean operator definitions. */
export const LOGIC_OPERATORS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'and', family: 'operator',
    description: 'Logical AND.', example: 'SELECT * FROM t WHERE a > 1 AND b < 2',
    signatures: [{ args: ['BOOLEAN', 'BOOLEAN'], returns: 'BOOLEAN' }],
    vector: (args, n) => andOr(true, asBool(args[0]!), asBool(args[1]!), n),
  },
  {
    kind: 'scalar', name: 'or', family: 'operator',
    description: 'Logical OR.', example: 'SELECT * FROM t WHERE a > 1 OR b < 2',
    signatures: [{ args: ['BOOLEAN', 'BOOLEAN'], returns: 'BOOLEAN' }],
    vector: (args, n) => andOr(false, asBool(args[0]!), asBool(args[1]!), n),
  },
  {
    kind: 'scalar', name: 'not', family: 'operator',
    description: 'Logical NOT.', example: 'SELECT * FROM t WHERE NOT a > 1',
    signatures: [{ args: ['BOOLEAN'], returns: 'BOOLEAN' }],
    vector: (args, n) => notVector(asBool(args[0]!), n),
  },
]
