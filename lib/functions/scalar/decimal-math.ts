/**
 * DECIMAL overloads of QuestDB's numeric functions (numeric.md: "returns decimal if the operand
 * is decimal"): `abs`, `sign`, `floor`, `ceil`/`ceiling`, `round`, `round_down`, `round_up`,
 * `round_half_even`. Result types follow QuestDB's RoundDecimalFunctionFactory: rounding to a
 * constant scale `r` below the input's scale `s` gives DECIMAL(p + r - s + 1, r) (DECIMAL(p - s + 1, 0)
 * for a negative `r`; the `+ 1` is the carry, absent for `round_down`), a scale at or above `s`
 * leaves the value and type alone, a non-constant scale keeps DECIMAL(p + 1, s); `floor`/`ceil`
 * (and one-argument `round`) round to scale 0. Narrow values (p <= 18) round as doubles holding
 * safe integers; wider ones on BigInt.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { type ColumnType, INT_NULL, LONG_NULL } from '../../types/column-type.js'
import {
  type DecimalType, POW10_NUM, cappedDecimal, checkFits, decimalPrecision, decimalScale, isNarrowDecimal, pow10n,
} from '../../types/decimal.js'
import type { Scalar, Vector } from '../../types/vector.js'
import type { CallSite, ScalarFunctionDef } from '../registry-types.js'
import { DecimalWriter, decimalView, unscaledAt } from '../decimal-vectors.js'

/** How a quotient's remainder moves it: QuestDB's (Java's) RoundingMode names. */
export type DecimalRounding = 'HALF_UP' | 'DOWN' | 'UP' | 'HALF_EVEN' | 'FLOOR' | 'CEILING'

/** The carry digit a rounding can add (none when it only ever moves toward zero). */
const carry = (m: DecimalRounding): number => (m === 'DOWN' ? 0 : 1)

/** `x / q` rounded in `mode`, for doubles holding safe integers (q a power of ten). */
export function roundQuotient(x: number, q: number, mode: DecimalRounding): number {
  const rem = x % q // exact for doubles, sign of x
  const t = (x - rem) / q
  if (rem === 0) return t
  const away = x < 0 ? -1 : 1
  const twice = 2 * Math.abs(rem)
  switch (mode) {
    case 'DOWN': return t
    case 'UP': return t + away
    case 'HALF_UP': return twice >= q ? t + away : t
    case 'HALF_EVEN': return twice > q || (twice === q && t % 2 !== 0) ? t + away : t
    case 'FLOOR': return rem < 0 ? t - 1 : t
    case 'CEILING': return rem > 0 ? t + 1 : t
  }
}

/** {@link roundQuotient} on BigInt. */
export function roundQuotientBig(x: bigint, q: bigint, mode: DecimalRounding): bigint {
  const rem = x % q
  const t = x / q
  if (rem === 0n) return t
  const away = x < 0n ? -1n : 1n
  const twice = 2n * (rem < 0n ? -rem : rem)
  switch (mode) {
    case 'DOWN': return t
    case 'UP': return t + away
    case 'HALF_UP': return twice >= q ? t + away : t
    case 'HALF_EVEN': return twice > q || (twice === q && t % 2n !== 0n) ? t + away : t
    case 'FLOOR': return rem < 0n ? t - 1n : t
    case 'CEILING': return rem > 0n ? t + 1n : t
  }
}

/** The result type of rounding a `t` in `mode` to the constant scale `r` (null: a null scale). */
export function roundResultType(t: DecimalType, r: number | null | undefined, mode: DecimalRounding): DecimalType {
  const p = decimalPrecision(t), s = decimalScale(t)
  if (r === null) return 'DECIMAL(1,0)'
  if (r === undefined) return cappedDecimal(p + carry(mode), s)
  if (r >= s) return t
  return r >= 0 ? cappedDecimal(p + r - s + carry(mode), r) : cappedDecimal(p - s + carry(mode), 0)
}

const scaleArg = (c: Scalar | undefined): number | null | undefined => (c === undefined ? undefined : c === null ? null : Number(c))

/**
 * Rounds each row of `a` (a decimal of scale `s`) to scale `r` in `mode`, writing at the result
 * type's scale `S`: `S = max(r, 0)` for a constant scale, `S = s` for a per-row one.
 */
function roundRow(u: bigint, s: number, r: number, S: number, mode: DecimalRounding): bigint {
  if (r >= s) return u * pow10n(S - s)
  // the value in units of 10^-r, then at the result's scale (S = max(r, 0) >= r)
  return roundQuotientBig(u, pow10n(s - r), mode) * pow10n(S - r)
}

function roundKernel(mode: DecimalRounding): NonNullable<ScalarFunctionDef['vector']> {
  return (args, n, _ctx, state) => {
    const site = state as CallSite
    const a = args[0]!, sc = args[1]
    const rt = site.returns as DecimalType
    const s = decimalScale(decimalView(a.type)), S = decimalScale(rt)
    const constScale = args.length === 1 ? 0 : scaleArg(site.constants[1])
    const allConst = a.isConst === true && (sc === undefined || sc.isConst === true)
    const len = allConst ? 1 : n
    if (constScale === null) return { kind: 'i64', type: rt, length: n, data: new Float64Array([LONG_NULL]), isConst: true } as Vector
    let out: Vector | undefined
    const d = a.data
    if (constScale !== undefined && a.kind === 'i64' && d instanceof Float64Array && isNarrowDecimal(rt) && s - constScale <= 22) {
      // narrow: doubles holding safe integers all the way (the result never has more digits than the input + 1)
      const r = constScale
      const q = r >= s ? 1 : POW10_NUM[s - r]!
      const f = POW10_NUM[S - Math.min(r, s)] ?? NaN
      const o = new Float64Array(len)
      const step = a.isConst === true ? 0 : 1
      for (let i = 0; i < len; i++) {
        const x = d[i * step]!
        o[i] = x === LONG_NULL ? LONG_NULL : r >= s ? x : roundQuotient(x, q, mode) * f
      }
      if (o.every((x) => x === LONG_NULL || Math.abs(x) <= Number.MAX_SAFE_INTEGER)) out = { kind: 'i64', type: rt, length: len, data: o }
    }
    if (out === undefined) {
      const w = new DecimalWriter(rt, len)
      for (let i = 0; i < len; i++) {
        const u = unscaledAt(a, i)
        let r = constScale
        if (r === undefined) { const k = (sc!.data as ArrayLike<unknown>)[sc!.isConst === true ? 0 : i]; r = k === undefined || k === INT_NULL || k === null ? undefined : Number(k) }
        if (u === null || r === undefined) { w.set(i, null); continue }
        // a per-row scale keeps the input's scale: round, then back to s
        const v = constScale === undefined ? (r >= s ? u : roundQuotientBig(u, pow10n(s - r), mode) * pow10n(s - r)) : roundRow(u, s, r, S, mode)
        w.set(i, checkFits(v, rt, site.pos))
      }
      out = w.finish()
    }
    return allConst && n !== 1 ? ({ ...out, length: n, isConst: true } as Vector) : out
  }
}

function rounding(name: string, mode: DecimalRounding, withScale: boolean): ScalarFunctionDef {
  return {
    kind: 'scalar', name, family: 'math',
    description: `DECIMAL ${name}: exact, ${mode.toLowerCase().replace('_', ' ')}; a DECIMAL of the rounded scale.`,
    example: `SELECT ${name}(123.456m${withScale ? ', 1' : ''})`,
    signatures: [
      ...(name === 'round' || !withScale ? [{ args: ['DECIMAL'] as const, returns: ([a]: readonly ColumnType[]) => roundResultType(decimalView(a!), 0, mode) }] : []),
      ...(withScale ? [{ args: ['DECIMAL', 'INT'] as const, returns: ([a]: readonly ColumnType[], c?: readonly (Scalar | undefined)[]) => roundResultType(decimalView(a!), scaleArg(c?.[1]), mode) }] : []),
    ],
    init: (site) => site,
    vector: roundKernel(mode),
  }
}

function sameType(name: string, description: string, f: (u: bigint, one: bigint) => bigint, g: (x: number, one: number) => number): ScalarFunctionDef {
  return {
    kind: 'scalar', name, family: 'math', description, example: `SELECT ${name}(-12.50m)`,
    signatures: [{ args: ['DECIMAL'], returns: ([a]) => decimalView(a!) }],
    init: (site) => site,
    vector: (args, n, _ctx, state) => {
      const site = state as CallSite
      const a = args[0]!
      const rt = site.returns as DecimalType
      const s = decimalScale(rt)
      const len = a.isConst === true ? 1 : n
      const d = a.data
      let out: Vector
      if (a.kind === 'i64' && d instanceof Float64Array && s <= 15 && POW10_NUM[s]! < POW10_NUM[decimalPrecision(rt)]!) {
        const one = POW10_NUM[s]!
        const o = new Float64Array(len)
        for (let i = 0; i < len; i++) { const x = d[i]!; o[i] = x === LONG_NULL ? LONG_NULL : g(x, one) }
        out = { kind: 'i64', type: rt, length: len, data: o }
      } else {
        const w = new DecimalWriter(rt, len)
        const one = pow10n(s)
        for (let i = 0; i < len; i++) { const u = unscaledAt(a, i); w.set(i, u === null ? null : checkFits(f(u, one), rt, site.pos)) }
        out = w.finish()
      }
      return a.isConst === true && n !== 1 ? ({ ...out, length: n, isConst: true } as Vector) : out
    },
  }
}

const sgn = (x: number, one: number): number => (x > 0 ? one : x < 0 ? -one : 0)
const sgnBig = (u: bigint, one: bigint): bigint => (u > 0n ? one : u < 0n ? -one : 0n)

/** The DECIMAL overloads, joined to the built-ins of the same names by `decimal-functions.ts`. */
export const DECIMAL_MATH: readonly ScalarFunctionDef[] = [
  sameType('abs', 'Absolute value of a DECIMAL, of its type.', (u) => (u < 0n ? -u : u), Math.abs),
  sameType('sign', 'Sign of a DECIMAL (-1, 0 or 1), of its type.', sgnBig, sgn),
  rounding('floor', 'FLOOR', false),
  rounding('ceil', 'CEILING', false),
  rounding('round', 'HALF_UP', true),
  rounding('round_down', 'DOWN', true),
  rounding('round_up', 'UP', true),
  rounding('round_half_even', 'HALF_EVEN', true),
]
