/**
 * Casts to and from DECIMAL, one value ({@link castDecimalScalar}) or a vector
 * ({@link castDecimalVector}): integers scale up exactly, doubles go through their shortest
 * decimal text and round half-even to the target scale, text parses, decimals rescale (half-even
 * when digits drop); to integers a decimal truncates toward zero; to DOUBLE it is the nearest
 * double. A value that does not fit the target's precision (or an integer type's range) raises
 * 22003 with the cast's position — never a wrapped or rounded-away value.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../errors.js'
import type { ColumnType } from './column-type.js'
import {
  type DecimalType, checkFits, decimalOverflow, decimalPrecision, decimalScalar, decimalScale, formatUnscaled, isDecimal,
  isNarrowDecimal, parseUnscaled, pow10n, rescale, unscaledOf, POW10_NUM,
} from './decimal.js'
import { LONG_NULL } from './column-type.js'
import { type Scalar, type Vector, VectorWriter, getScalar } from './vector.js'

const TEXT = new Set(['STRING', 'VARCHAR', 'SYMBOL', 'CHAR'])
const MAX_SAFE = Number.MAX_SAFE_INTEGER
const NOT_A_NUMBER = /^\s*[+-]?(?:nan|inf|infinity)\s*$/i

function badText(value: string, from: ColumnType, to: ColumnType, pos: number): SqlError {
  return new SqlError(SqlState.INVALID_TEXT_REPRESENTATION, `inconvertible value: \`${value}\` [${from} -> ${to}]`, pos)
}

const INT_RANGE: Record<string, readonly [bigint, bigint]> = {
  BYTE: [-128n, 127n], SHORT: [-32768n, 32767n], INT: [-2147483647n, 2147483647n], LONG: [-9223372036854775807n, 9223372036854775807n],
}

/**
 * Casts one value where `from` or `to` is a DECIMAL. Null stays null (0 for BYTE/SHORT, false
 * for BOOLEAN). Bad text raises 22P02 (or gives null with `onBadText: 'null'`).
 * @throws SqlError 22003 when the value does not fit the target
 */
export function castDecimalScalar(value: Scalar, from: ColumnType, to: ColumnType, onBadText: 'throw' | 'null' = 'throw', pos = -1): Scalar {
  if (value === null) return to === 'BYTE' || to === 'SHORT' ? 0 : to === 'BOOLEAN' ? false : null
  if (isDecimal(to)) {
    const u = toUnscaled(value, from, to, onBadText, pos)
    if (u === null) return null
    return decimalScalar(checkFits(u, to, pos), to)
  }
  const dt = from as DecimalType
  const u = unscaledOf(value as Parameters<typeof unscaledOf>[0], dt)
  const s = decimalScale(dt)
  switch (to) {
    case 'DOUBLE': return Number(formatUnscaled(u, s))
    case 'FLOAT': return Math.fround(Number(formatUnscaled(u, s)))
    case 'BOOLEAN': return u !== 0n
    case 'BYTE': case 'SHORT': case 'INT': case 'LONG': {
      const t = u / pow10n(s)
      const [lo, hi] = INT_RANGE[to]!
      if (t < lo || t > hi) throw new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, `decimal value ${formatUnscaled(u, s)} is out of range for ${to}`, pos)
      return to === 'LONG' ? (t >= -9007199254740991n && t <= 9007199254740991n ? Number(t) : t) : Number(t)
    }
    case 'STRING': case 'VARCHAR': case 'SYMBOL': return formatUnscaled(u, s)
    default: throw new SqlError(SqlState.DATATYPE_MISMATCH, `inconvertible types: ${from} -> ${to}`, pos)
  }
}

/** The unscaled value at `to`'s scale of a non-null value of `from`; null for NaN/Infinity. */
function toUnscaled(value: Scalar, from: ColumnType, to: DecimalType, onBadText: 'throw' | 'null', pos: number): bigint | null {
  const s = decimalScale(to)
  if (isDecimal(from)) return rescale(unscaledOf(value as number | bigint | string, from), decimalScale(from), s)
  if (TEXT.has(from)) {
    const u = parseUnscaled(String(value), s)
    if (u !== undefined) return u
    // NaN and the infinities have no DECIMAL value: NULL, as QuestDB 9 casts them (psycopg2
    // inlines a Python Decimal('NaN') as 'NaN'::numeric)
    if (NOT_A_NUMBER.test(String(value))) return null
    if (onBadText === 'null') return null
    throw badText(String(value), from, to, pos)
  }
  if (typeof value === 'bigint') return value * pow10n(s)
  if (typeof value === 'boolean') return value ? pow10n(s) : 0n
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null
    if (Number.isInteger(value) && (from !== 'FLOAT' && from !== 'DOUBLE')) return BigInt(value) * pow10n(s)
    const u = parseUnscaled(String(value), s)
    if (u === undefined) throw decimalOverflow(to, pos)
    return u
  }
  throw new SqlError(SqlState.DATATYPE_MISMATCH, `inconvertible types: ${from} -> ${to}`, pos)
}

/**
 * Casts a vector where its type or `to` is a DECIMAL. Integer and narrow-decimal sources into a
 * narrow decimal run as a Float64Array loop while every result is a safe integer; the rest goes
 * value by value.
 */
export function castDecimalVector(v: Vector, to: ColumnType, onBadText: 'throw' | 'null' = 'throw', pos = -1): Vector {
  const n = v.isConst ? 1 : v.length
  if (isDecimal(to) && isNarrowDecimal(to)) {
    const fast = scaleNarrow(v, to, n, pos)
    if (fast !== undefined) return v.isConst ? { ...fast, length: v.length, isConst: true } : fast
  }
  if (isDecimal(v.type) && isNarrowDecimal(v.type) && to === 'DOUBLE' && v.kind === 'i64' && v.data instanceof Float64Array) {
    const d = v.data, s = decimalScale(v.type)
    const out = new Float64Array(n)
    const f = POW10_NUM[s]!
    for (let i = 0; i < n; i++) { const x = d[i]!; out[i] = x === LONG_NULL ? NaN : x / f }
    return { kind: 'f64', type: 'DOUBLE', length: v.length, isConst: v.isConst, data: out }
  }
  const w = new VectorWriter(to, n)
  for (let i = 0; i < n; i++) w.set(i, castDecimalScalar(getScalar(v, i), v.type, to, onBadText, pos))
  const out = w.finish()
  return v.isConst ? ({ ...out, length: v.length, isConst: true } as Vector) : out
}

/** Integer / narrow decimal → narrow decimal on doubles; undefined when a value is unsafe or needs rounding. */
function scaleNarrow(v: Vector, to: DecimalType, n: number, pos: number): Vector | undefined {
  let shift: number
  if (isDecimal(v.type)) {
    if (!isNarrowDecimal(v.type)) return undefined
    shift = decimalScale(to) - decimalScale(v.type)
    if (shift < 0) return undefined
  } else if (v.type === 'INT' || v.type === 'SHORT' || v.type === 'BYTE' || v.type === 'LONG') {
    shift = decimalScale(to)
  } else return undefined
  if (shift > 22) return undefined
  const f = POW10_NUM[shift]!
  const lim = POW10_NUM[decimalPrecision(to)] ?? Infinity
  const out = new Float64Array(n)
  const d = v.data
  if (!(d instanceof Float64Array || d instanceof Int32Array || d instanceof Int16Array || d instanceof Int8Array)) return undefined
  const nul = v.kind === 'i64' ? LONG_NULL : v.kind === 'i32' ? -2147483648 : NaN
  for (let i = 0; i < n; i++) {
    const x = d[i]!
    if (x === nul) { out[i] = LONG_NULL; continue }
    const y = x * f
    if (Math.abs(y) > MAX_SAFE) return undefined
    if (!(Math.abs(y) < lim)) throw decimalOverflow(to, pos)
    out[i] = y
  }
  return { kind: 'i64', type: to, length: n, data: out }
}
