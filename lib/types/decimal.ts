/**
 * DECIMAL(p, s): QuestDB's exact fixed-point type (precision 1–76, scale 0–p, default (18,3)).
 *
 * A decimal type is the tag `DECIMAL(p,s)` (no space, as QuestDB prints it), so the type tag
 * carries its precision and scale wherever a {@link ColumnType} goes (plans, table metadata, REST
 * `columns[].type`, `typeOf()`).
 *
 * Representation: a value is its *unscaled* integer `u` (the value is `u / 10^s`).
 * - p <= 18 ("narrow", QuestDB's DECIMAL8..DECIMAL64): the i64 physical layout — a
 *   `Float64Array` while every unscaled value is a safe integer, a `BigInt64Array` otherwise;
 *   null is the i64 sentinel -2^63 (QuestDB's null is the minimum of the underlying integer).
 *   Its {@link Scalar} form is the unscaled integer (`number`, or `bigint` past 2^53).
 * - p > 18 ("wide", DECIMAL128/256): the str layout holding the canonical text (`-12.3400`);
 *   its Scalar form is that text. Kernels compute on BigInt.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../errors.js'

/** A DECIMAL type tag, `DECIMAL(p,s)`. */
export type DecimalType = `DECIMAL(${number},${number})`

/** The largest precision QuestDB allows. */
export const DECIMAL_MAX_PRECISION = 76
/** The largest precision stored as a 64-bit scaled integer. */
export const DECIMAL_NARROW_MAX = 18
/** The type of a bare `DECIMAL` (QuestDB's default precision 18, scale 3). */
export const DECIMAL_DEFAULT: DecimalType = 'DECIMAL(18,3)'
/**
 * The type of an untyped bind variable where a function takes any DECIMAL (`$1 + 1.5m`,
 * `price = $1`): QuestDB 9's BindVariableServiceImpl.define gives such a variable DECIMAL(76,38),
 * "large enough to store most decimals", so its value keeps its digits.
 */
export const DECIMAL_PARAM: DecimalType = 'DECIMAL(76,38)'

const PS = new Map<string, readonly [number, number]>()

/** True when `t` is a DECIMAL type tag. */
export function isDecimal(t: string): t is DecimalType {
  return t.length > 8 && t.charCodeAt(0) === 68 && t.startsWith('DECIMAL(')
}

/** The tag of DECIMAL(p, s); both must already be valid. */
export function decimalType(p: number, s: number): DecimalType {
  return `DECIMAL(${p},${s})`
}

function ps(t: DecimalType): readonly [number, number] {
  let r = PS.get(t)
  if (r === undefined) {
    const m = /^DECIMAL\((\d+),(\d+)\)$/.exec(t)
    r = m === null ? [18, 3] : [Number(m[1]), Number(m[2])]
    PS.set(t, r)
  }
  return r
}

/** The precision (total digits) of a DECIMAL tag. */
export function decimalPrecision(t: DecimalType): number { return ps(t)[0] }
/** The scale (fraction digits) of a DECIMAL tag. */
export function decimalScale(t: DecimalType): number { return ps(t)[1] }
/** True when the type is stored as a 64-bit scaled integer (p <= 18). */
export function isNarrowDecimal(t: DecimalType): boolean { return ps(t)[0] <= DECIMAL_NARROW_MAX }

/**
 * Checks and builds a DECIMAL(p, s) type from DDL/cast arguments: precision 1..76, scale 0..p.
 * @throws SqlError 22003 with the position of the type for an out-of-range precision or scale
 */
export function makeDecimalType(p: number, s: number, pos = -1): DecimalType {
  if (!Number.isInteger(p) || p < 1 || p > DECIMAL_MAX_PRECISION) {
    throw new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, `invalid DECIMAL type, precision must be between 1 and ${DECIMAL_MAX_PRECISION}, got ${p}`, pos)
  }
  if (!Number.isInteger(s) || s < 0 || s > p) {
    throw new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, `invalid DECIMAL type, scale must be between 0 and precision ${p}, got ${s}`, pos)
  }
  return decimalType(p, s)
}

/**
 * Parses `decimal`, `decimal(p)`, `decimal(p,s)` (and PostgreSQL's `numeric` spellings), case
 * folded, as {@link parseTypeName} sees them. Undefined when the name is not a decimal name.
 * @throws SqlError 22003 for a precision or scale out of range
 */
export function parseDecimalTypeName(n: string, pos = -1): DecimalType | undefined {
  const m = /^(?:decimal|numeric)(?:\((\d+)(?:,(\d+))?\))?$/.exec(n)
  if (m === null) return undefined
  if (m[1] === undefined) return DECIMAL_DEFAULT
  return makeDecimalType(Number(m[1]), m[2] === undefined ? 0 : Number(m[2]), pos)
}

const POW10: bigint[] = [1n]
/** 10^k as a bigint (k <= 160). */
export function pow10n(k: number): bigint {
  while (POW10.length <= k) POW10.push(POW10[POW10.length - 1]! * 10n)
  return POW10[k]!
}

/** 10^k as a double, exact for k <= 22. */
export const POW10_NUM: readonly number[] = Array.from({ length: 23 }, (_, k) => 10 ** k)

/** The overflow error (22003) QuestDB raises when a value does not fit a decimal's precision. */
export function decimalOverflow(t: string, pos = -1): SqlError {
  return new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, `decimal overflow: value does not fit ${t}`, pos)
}

/** True when the unscaled `u` has at most `p` digits. */
export function fitsPrecision(u: bigint, p: number): boolean {
  const lim = pow10n(p)
  return u < lim && u > -lim
}

/** `u` checked against the precision of `t`. @throws SqlError 22003 when it does not fit */
export function checkFits(u: bigint, t: DecimalType, pos = -1): bigint {
  if (!fitsPrecision(u, decimalPrecision(t))) throw decimalOverflow(t, pos)
  return u
}

/** `n / d` rounded half to even (Java's RoundingMode.HALF_EVEN), d > 0 or d < 0. */
export function divHalfEven(n: bigint, d: bigint): bigint {
  if (d < 0n) { n = -n; d = -d }
  let q = n / d
  const r = n - q * d
  const twice = (r < 0n ? -r : r) * 2n
  if (twice > d || (twice === d && (q & 1n) !== 0n)) q += n < 0n ? -1n : 1n
  return q
}

/** An unscaled value moved from scale `from` to scale `to` (half-even when digits drop). */
export function rescale(u: bigint, from: number, to: number): bigint {
  if (to === from) return u
  if (to > from) return u * pow10n(to - from)
  return divHalfEven(u, pow10n(from - to))
}

/** The plain text of an unscaled value at `scale`: exactly `scale` fraction digits (`-0.50`). */
export function formatUnscaled(u: bigint, scale: number): string {
  const neg = u < 0n
  let digits = (neg ? -u : u).toString()
  if (scale === 0) return neg ? '-' + digits : digits
  if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits
  const cut = digits.length - scale
  return (neg ? '-' : '') + digits.slice(0, cut) + '.' + digits.slice(cut)
}

const NUMBER_TEXT = /^\s*([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/

/**
 * Parses decimal text (`-12.5`, `1e3`, `.5`, with an optional `m` suffix) as an unscaled value
 * at `scale`, rounding half-even when it has more fraction digits. Undefined when it is not a
 * number.
 */
export function parseUnscaled(text: string, scale: number): bigint | undefined {
  const t = text.endsWith('m') || text.endsWith('M') ? text.slice(0, -1) : text
  const m = NUMBER_TEXT.exec(t.replace(/_/g, ''))
  if (m === null) return undefined
  const int = m[2] ?? ''
  const frac = m[3] ?? ''
  if (int === '' && frac === '') return undefined
  const exp = m[4] === undefined ? 0 : Number(m[4])
  if (Math.abs(exp) > 200) return undefined
  let u = BigInt((int + frac) || '0')
  const have = frac.length - exp // the scale of u
  u = have >= 0 ? rescale(u, have, scale) : u * pow10n(-have + scale)
  return m[1] === '-' ? -u : u
}

/** The DECIMAL type of an `m`-suffixed literal: precision = its digits, scale = its fraction digits. */
export function literalDecimalType(text: string, pos = -1): DecimalType {
  const t = text.replace(/_/g, '').replace(/[mM]$/, '').replace(/^[-+]/, '') // a sign is not a digit
  const dot = t.indexOf('.')
  const int = (dot < 0 ? t : t.slice(0, dot)).replace(/^0+/, '')
  const frac = dot < 0 ? '' : t.slice(dot + 1)
  const s = frac.length
  const p = Math.max(int.length + s, 1)
  if (p > DECIMAL_MAX_PRECISION) throw decimalOverflow(`DECIMAL(${DECIMAL_MAX_PRECISION},${Math.min(s, DECIMAL_MAX_PRECISION)})`, pos)
  return decimalType(p, s)
}

/** The unscaled value of a non-null decimal {@link Scalar} of type `t`. */
export function unscaledOf(v: number | bigint | string | boolean | Uint8Array, t: DecimalType): bigint {
  if (typeof v === 'bigint') return v
  if (typeof v === 'number') return BigInt(v)
  if (typeof v === 'string') return parseUnscaled(v, decimalScale(t)) ?? 0n
  return 0n
}

/** The {@link Scalar} form of unscaled `u` as a value of `t` (not range-checked). */
export function decimalScalar(u: bigint, t: DecimalType): number | bigint | string {
  if (!isNarrowDecimal(t)) return formatUnscaled(u, decimalScale(t))
  return u >= -9007199254740991n && u <= 9007199254740991n ? Number(u) : u
}

/** The text of a decimal {@link Scalar} of `t`, exactly `scale` fraction digits. */
export function formatDecimal(t: DecimalType, v: number | bigint | string | boolean | Uint8Array): string {
  if (typeof v === 'string') return v
  return formatUnscaled(unscaledOf(v, t), decimalScale(t))
}

/** The smallest DECIMAL that holds every value of an integer type. */
export function integralAsDecimal(t: string): DecimalType | undefined {
  switch (t) {
    case 'BYTE': return 'DECIMAL(3,0)'
    case 'SHORT': return 'DECIMAL(5,0)'
    case 'INT': return 'DECIMAL(10,0)'
    case 'LONG': return 'DECIMAL(19,0)'
    default: return undefined
  }
}

/** DECIMAL(p, s) with p capped at 76 and s at p. */
export function cappedDecimal(p: number, s: number): DecimalType {
  const sc = Math.min(s, DECIMAL_MAX_PRECISION)
  return decimalType(Math.max(Math.min(p, DECIMAL_MAX_PRECISION), sc, 1), sc)
}

/** The decimal that holds every value of two decimal (or integer) types: max integer digits + max scale. */
export function unionDecimal(a: DecimalType, b: DecimalType): DecimalType {
  const s = Math.max(decimalScale(a), decimalScale(b))
  const i = Math.max(decimalPrecision(a) - decimalScale(a), decimalPrecision(b) - decimalScale(b))
  return cappedDecimal(i + s, s)
}

/**
 * The bound constant of an `m` literal (text without the suffix): its type and Scalar value.
 * @throws SqlError 22003 at `pos` when it has more than 76 digits
 */
export function decimalLiteralConst(text: string, pos: number): { kind: 'const'; type: DecimalType; value: number | bigint | string } {
  const type = literalDecimalType(text, pos)
  const u = parseUnscaled(text, decimalScale(type))
  if (u === undefined) throw new SqlError(SqlState.INVALID_TEXT_REPRESENTATION, `invalid decimal: ${text}`, pos)
  return { kind: 'const', type, value: decimalScalar(u, type) }
}

/** A number written in decimal, with an optional exponent, between optional spaces. */
const DECIMAL_TEXT = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/

/**
 * A number's text (`1.50`, `-1E-12`, `12E2`, ` 7 `) as plain decimal digits and the DECIMAL(p, s)
 * of exactly those digits, or undefined when it is no number or does not fit 76 digits. The one
 * reading of a decimal number's text for the binder (a bare literal beside a DECIMAL) and pgwire
 * (a parameter declared `numeric`):
 *
 * - the scale is the fraction digits less the exponent (`1E-12` → DECIMAL(12,12), `12E2` →
 *   DECIMAL(4,0), `1.50` → DECIMAL(3,2)); leading zeros are no digits;
 * - zero has no sign: `-0`, `-0.00` are `0`, `0.00`;
 * - zero with any positive exponent is `0` (`0E100` → DECIMAL(1,0)): it gains no digits;
 * - a scale past 76 (`1E-77`, `0E-100`) or more than 76 digits (`1E76`) is undefined;
 * - spaces around the number are allowed (PostgreSQL's numeric input); underscores are not (a
 *   SQL literal's `1_000` is the caller's to strip).
 */
export function plainDecimal(text: string): { readonly text: string; readonly type: DecimalType } | undefined {
  const m = DECIMAL_TEXT.exec(text)
  if (m === null) return undefined
  const [, sign, int = '', frac = '', exp = '0'] = m
  if (int === '' && frac === '') return undefined
  const e = Number(exp)
  let digits = (int + frac).replace(/^0+/, '')
  let scale = frac.length - e
  if (scale > DECIMAL_MAX_PRECISION) return undefined
  if (scale < 0) {
    // a positive exponent past the fraction appends zeros to a non-zero number only
    if (digits !== '' && digits.length - scale > DECIMAL_MAX_PRECISION) return undefined
    if (digits !== '') digits += '0'.repeat(-scale)
    scale = 0
  }
  const precision = Math.max(digits.length, scale, 1)
  if (precision > DECIMAL_MAX_PRECISION) return undefined
  const padded = digits.padStart(scale + 1, '0')
  const plain = scale === 0 ? padded : `${padded.slice(0, -scale)}.${padded.slice(-scale)}`
  return { text: (sign === '-' && digits !== '' ? '-' : '') + plain, type: decimalType(precision, scale) }
}
