/**
 * DECIMAL operators: exact `+ - * / %`, unary minus and the comparisons, with QuestDB's result
 * types (`decimal-rules.ts`). Integers mix in as DECIMAL(n,0). Narrow results (p <= 18) run as
 * Float64Array loops over unscaled safe integers, with no BigInt per row; a batch falls back to
 * exact BigInt arithmetic when a value or a result leaves the safe range. A result that does not
 * fit its precision raises 22003 at the operator; division by zero raises 22012; division rounds
 * half to even at the result scale.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import { LONG_NULL } from '../../types/column-type.js'
import {
  type DecimalType, POW10_NUM, checkFits, decimalOverflow, decimalPrecision, decimalScale, divHalfEven, isNarrowDecimal, pow10n,
} from '../../types/decimal.js'
import { addResultType, divResultType, mulResultType, remResultType } from '../../types/decimal-rules.js'
import type { Vector } from '../../types/vector.js'
import type { CallSite, ScalarFunctionDef, VectorKernel } from '../registry-types.js'
import { boolOut } from '../kernel-helpers.js'
import { type CmpOp, cmpI64, cmpNullable } from './compare-kernels.js'
import { DecimalWriter, decimalView, scaledDoubles, unscaledAt, up } from '../decimal-vectors.js'

const MAX_SAFE = Number.MAX_SAFE_INTEGER

type Op = 'add' | 'sub' | 'mul' | 'div' | 'rem'

function constResult(out: Vector, a: Vector, b: Vector, n: number): Vector {
  return a.isConst === true && b.isConst === true ? ({ ...out, length: n, isConst: true } as Vector) : out
}

/** Fast path: narrow result, both sides as safe unscaled doubles; undefined to take the exact path. */
function fastArith(op: Op, a: Vector, b: Vector, len: number, rt: DecimalType, pos: number): Vector | undefined {
  if (op === 'div' || !isNarrowDecimal(rt)) return undefined
  const S = decimalScale(rt)
  const sa = a.isConst === true ? 0 : 1, sb = b.isConst === true ? 0 : 1
  const x = op === 'mul' ? scaledDoubles(a, decimalScale(decimalView(a.type)), sa === 0 ? 1 : len) : scaledDoubles(a, S, sa === 0 ? 1 : len)
  if (x === undefined) return undefined
  const y = op === 'mul' ? scaledDoubles(b, decimalScale(decimalView(b.type)), sb === 0 ? 1 : len) : scaledDoubles(b, S, sb === 0 ? 1 : len)
  if (y === undefined) return undefined
  const lim = POW10_NUM[decimalPrecision(rt)]!
  const out = new Float64Array(len)
  for (let i = 0; i < len; i++) {
    const p = x[i * sa]!, q = y[i * sb]!
    if (p === LONG_NULL || q === LONG_NULL) { out[i] = LONG_NULL; continue }
    if (op === 'rem' && q === 0) throw new SqlError(SqlState.DIVISION_BY_ZERO, 'division by zero', pos)
    const r = op === 'add' ? p + q : op === 'sub' ? p - q : op === 'mul' ? p * q : (p % q) + 0
    if (r > MAX_SAFE || r < -MAX_SAFE) return undefined
    if (!(r < lim && r > -lim)) throw decimalOverflow(rt, pos)
    out[i] = r
  }
  return { kind: 'i64', type: rt, length: len, data: out }
}

/** Exact path: BigInt per row. */
function exactArith(op: Op, a: Vector, b: Vector, len: number, rt: DecimalType, pos: number): Vector {
  const ta = decimalView(a.type), tb = decimalView(b.type)
  const s1 = decimalScale(ta), s2 = decimalScale(tb), S = decimalScale(rt)
  const w = new DecimalWriter(rt, len)
  const divShift = op === 'div' ? pow10n(S + s2 - s1) : 1n
  for (let i = 0; i < len; i++) {
    const p = unscaledAt(a, i), q = unscaledAt(b, i)
    if (p === null || q === null) { w.set(i, null); continue }
    let r: bigint
    switch (op) {
      case 'add': r = up(p, s1, S) + up(q, s2, S); break
      case 'sub': r = up(p, s1, S) - up(q, s2, S); break
      case 'mul': r = p * q; break
      case 'div':
        if (q === 0n) throw new SqlError(SqlState.DIVISION_BY_ZERO, 'division by zero', pos)
        r = divHalfEven(p * divShift, q)
        break
      case 'rem': {
        const d = up(q, s2, S)
        if (d === 0n) throw new SqlError(SqlState.DIVISION_BY_ZERO, 'division by zero', pos)
        r = up(p, s1, S) % d
        break
      }
    }
    w.set(i, checkFits(r, rt, pos))
  }
  return w.finish()
}

function arithKernel(op: Op): VectorKernel {
  return (args, n, _ctx, state) => {
    const site = state as CallSite
    const a = args[0]!, b = args[1]!
    const len = a.isConst === true && b.isConst === true ? 1 : n
    const rt = site.returns as DecimalType
    const out = fastArith(op, a, b, len, rt, site.pos) ?? exactArith(op, a, b, len, rt, site.pos)
    return constResult(out, a, b, n)
  }
}

const RULES: Record<Op, (a: DecimalType, b: DecimalType) => DecimalType> = { add: addResultType, sub: addResultType, mul: mulResultType, div: divResultType, rem: remResultType }

function arith(name: string, op: Op, description: string, example: string): ScalarFunctionDef {
  return {
    kind: 'scalar', name, family: 'operator', description, example,
    signatures: [{ args: ['DECIMAL', 'DECIMAL'], returns: ([a, b]) => RULES[op](decimalView(a!), decimalView(b!)) }],
    init: (site) => site,
    vector: arithKernel(op),
  }
}

/**
 * A constant compared with a narrow column at a larger scale (an untyped `$1` is DECIMAL(76,38)):
 * the constant at the column's scale, as a narrow constant vector, when it is exact there, so the
 * comparison runs on the column's doubles instead of a BigInt per row. Undefined otherwise.
 */
function constAtColumnScale(c: Vector, col: Vector): Vector | undefined {
  if (c.isConst !== true || col.isConst === true || col.kind !== 'i64' || !(col.data instanceof Float64Array)) return undefined
  const s = decimalScale(decimalView(col.type)), sc = decimalScale(decimalView(c.type))
  if (sc <= s) return undefined
  const u = unscaledAt(c, 0)
  let v = LONG_NULL
  if (u !== null) {
    const f = pow10n(sc - s)
    if (u % f !== 0n) return undefined
    const q = u / f
    if (q >= 10n ** 18n || q <= -(10n ** 18n)) return undefined
    v = Number(q)
  }
  return { kind: 'i64', type: `DECIMAL(18,${s})`, length: c.length, data: Float64Array.of(v), isConst: true }
}

function compareKernel(op: CmpOp): VectorKernel {
  return (args, n) => {
    let a = args[0]!, b = args[1]!
    b = constAtColumnScale(b, a) ?? b
    a = constAtColumnScale(a, b) ?? a
    const len = a.isConst === true && b.isConst === true ? 1 : n
    const S = Math.max(decimalScale(decimalView(a.type)), decimalScale(decimalView(b.type)))
    const out = boolOut(len)
    const sa = a.isConst === true ? 0 : 1, sb = b.isConst === true ? 0 : 1
    const x = scaledDoubles(a, S, sa === 0 ? 1 : len)
    const y = x === undefined ? undefined : scaledDoubles(b, S, sb === 0 ? 1 : len)
    if (x !== undefined && y !== undefined) cmpI64(op, x, sa, y, sb, LONG_NULL, out.data, len)
    else {
      const s1 = decimalScale(decimalView(a.type)), s2 = decimalScale(decimalView(b.type))
      for (let i = 0; i < len; i++) {
        const p = unscaledAt(a, i), q = unscaledAt(b, i)
        out.data[i] = cmpNullable(op, p === null ? null : up(p, s1, S), q === null ? null : up(q, s2, S)) ? 1 : 0
      }
    }
    return len === 1 && n !== 1 ? { ...out, length: n, isConst: true } : out
  }
}

function compare(name: string, op: CmpOp): ScalarFunctionDef {
  return {
    kind: 'scalar', name, family: 'operator', description: `DECIMAL comparison ${name}, exact across scales.`, example: `SELECT 1.50m ${name} 1.5m`,
    signatures: [{ args: ['DECIMAL', 'DECIMAL'], returns: 'BOOLEAN' }],
    vector: compareKernel(op),
  }
}

const NEG: ScalarFunctionDef = {
  kind: 'scalar', name: 'neg', family: 'operator', description: 'Negates a DECIMAL exactly.', example: 'SELECT -price FROM trades',
  signatures: [{ args: ['DECIMAL'], returns: ([a]) => decimalView(a!) }],
  init: (site) => site,
  vector: (args, n, _ctx, state) => {
    const a = args[0]!
    const site = state as CallSite
    const rt = site.returns as DecimalType
    const len = a.isConst === true ? 1 : n
    const d = a.data
    let out: Vector
    if (a.kind === 'i64' && d instanceof Float64Array && isNarrowDecimal(rt)) {
      const o = new Float64Array(len)
      for (let i = 0; i < len; i++) { const x = d[i]!; o[i] = x === LONG_NULL ? LONG_NULL : -x }
      out = { kind: 'i64', type: rt, length: len, data: o }
    } else {
      const w = new DecimalWriter(rt, len)
      for (let i = 0; i < len; i++) { const u = unscaledAt(a, i); w.set(i, u === null ? null : -u) }
      out = w.finish()
    }
    return a.isConst === true ? ({ ...out, length: n, isConst: true } as Vector) : out
  },
}

/** The DECIMAL operator definitions (overloads of `+ - * / %`, `neg` and the comparisons). */
export const DECIMAL_OPERATORS: readonly ScalarFunctionDef[] = [
  arith('+', 'add', 'Adds two DECIMALs exactly: the larger scale, one more integer digit.', 'SELECT 10.5m + 1.234m'),
  arith('-', 'sub', 'Subtracts two DECIMALs exactly: the larger scale, one more integer digit.', 'SELECT 10.5m - 1.234m'),
  arith('*', 'mul', 'Multiplies two DECIMALs exactly: precisions and scales add.', 'SELECT 10.50m * 1.25m'),
  arith('/', 'div', 'Divides two DECIMALs: the larger scale, rounded half to even; division by zero is an error.', 'SELECT 10.00m / 3.00m'),
  arith('%', 'rem', 'Remainder of two DECIMALs, exact, with the sign of the dividend: the larger scale and integer part; a zero divisor is an error.', 'SELECT 10.5m % 3m'),
  NEG,
  compare('=', 'eq'), compare('!=', 'ne'), compare('<', 'lt'), compare('<=', 'le'), compare('>', 'gt'), compare('>=', 'ge'),
]
