/**
 * DECIMAL's type rules: the common type with other types, which casts are allowed explicitly
 * and implicitly, the cost of a conversion in overload resolution, and the result types of
 * `+ - * /` and of the aggregates (QuestDB 9's rules: add/sub keep the larger scale and add one
 * integer digit, mul adds precisions and scales, div has QuestDB's maximum precision and the
 * larger scale; everything capped at 76).
 *
 * Imports only `decimal.ts`, so `column-type.ts` can call it without a cycle at load time.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import {
  type DecimalType, DECIMAL_MAX_PRECISION, cappedDecimal, decimalPrecision, decimalScale, integralAsDecimal, isDecimal, unionDecimal,
} from './decimal.js'

const TEXT = new Set(['STRING', 'VARCHAR', 'SYMBOL'])
const INTEGRAL = new Set(['BYTE', 'SHORT', 'INT', 'LONG'])
const FLOATING = new Set(['FLOAT', 'DOUBLE'])

/** A decimal type, or the DECIMAL(n,0) that holds an integer type; undefined otherwise. */
export function asDecimal(t: string): DecimalType | undefined {
  return isDecimal(t) ? t : integralAsDecimal(t)
}

/** The common type of a DECIMAL and another type (UNION, CASE, COALESCE, IN lists). */
export function decimalCommonType<T extends string>(a: T, b: T): T {
  const da = asDecimal(a), db = asDecimal(b)
  if (da !== undefined && db !== undefined) return unionDecimal(da, db) as T
  if (FLOATING.has(a) || FLOATING.has(b)) return 'DOUBLE' as T
  if (TEXT.has(a) || a === 'CHAR') return b
  if (TEXT.has(b) || b === 'CHAR') return a
  return 'STRING' as T
}

/** `CAST(from AS to)` where one side is DECIMAL: numbers, BOOLEAN (from decimal) and text. */
export function canCastDecimal(from: string, to: string): boolean {
  const other = isDecimal(from) ? to : from
  if (isDecimal(other) || INTEGRAL.has(other) || FLOATING.has(other) || other === 'NULL') return true
  if (TEXT.has(other)) return true
  return isDecimal(from) && other === 'BOOLEAN'
}

/**
 * Implicit conversions with DECIMAL: integers and decimals into a decimal (the value is checked
 * against the target's precision when converted), text into a decimal (parsed), a decimal into
 * DOUBLE/FLOAT and the text types. Never DOUBLE → DECIMAL (QuestDB asks for a cast or an `m` literal).
 */
export function canImplicitlyCastDecimal(from: string, to: string): boolean {
  if (isDecimal(to)) return isDecimal(from) || INTEGRAL.has(from) || TEXT.has(from) || from === 'NULL'
  return FLOATING.has(to) || TEXT.has(to)
}

/**
 * The overload-resolution cost of passing `from` where `to` is declared, when either is a
 * decimal or `to` is the class `DECIMAL` (any decimal, and integers, passed as they are);
 * -1 when it does not convert.
 */
export function decimalConversionCost(from: string, to: string, literal: boolean): number {
  // integers cost more than any numeric widening, so `avg(INT)` and `avg(LONG)` stay DOUBLE, but an
  // integer beside a decimal (8 + 1) beats both going to DOUBLE (LONG 4 + DECIMAL 6): `long * dec`
  // is DECIMAL, as in QuestDB, whose overload table puts DECIMAL among every integer's targets
  // and DOUBLE among no decimal's
  if (to === 'DECIMAL') return isDecimal(from) ? 1 : INTEGRAL.has(from) ? 8 : from === 'NULL' ? 2 : -1
  if (isDecimal(to)) {
    if (from === to) return 0
    if (isDecimal(from)) return 2
    if (INTEGRAL.has(from)) return 3
    if (from === 'NULL') return 2
    if (TEXT.has(from)) return literal ? 4 : 9
    return -1
  }
  // from is a decimal, to a concrete non-decimal type or a class
  if (to === 'ANY') return 1
  if (to === 'DOUBLE') return 6
  if (to === 'FLOAT') return 8
  if (to === 'STRING' || to === 'VARCHAR') return 10
  return -1
}

/** Result type of `a + b` / `a - b`: the larger scale, the larger integer part plus one digit. */
export function addResultType(a: DecimalType, b: DecimalType): DecimalType {
  const s = Math.max(decimalScale(a), decimalScale(b))
  const i = Math.max(decimalPrecision(a) - decimalScale(a), decimalPrecision(b) - decimalScale(b))
  return cappedDecimal(i + s + 1, s)
}

/** Result type of `a * b`: precisions and scales add. */
export function mulResultType(a: DecimalType, b: DecimalType): DecimalType {
  return cappedDecimal(decimalPrecision(a) + decimalPrecision(b), decimalScale(a) + decimalScale(b))
}

/**
 * Result type of `a / b`: QuestDB's maximum precision and the *sum* of the scales, rounded
 * half-even — what QuestDB's DivDecimalFunctionFactory does (`1.00m / 3.00m` = `0.3333`); its
 * documentation's "maximum scale of the operands" (`3.33`) is older than the code.
 */
export function divResultType(a: DecimalType, b: DecimalType): DecimalType {
  return cappedDecimal(DECIMAL_MAX_PRECISION, decimalScale(a) + decimalScale(b))
}

/** Result type of `a % b`: the larger scale and the larger integer part (QuestDB's RemDecimalFunctionFactory). */
export function remResultType(a: DecimalType, b: DecimalType): DecimalType {
  const s = Math.max(decimalScale(a), decimalScale(b))
  const i = Math.max(decimalPrecision(a) - decimalScale(a), decimalPrecision(b) - decimalScale(b))
  return cappedDecimal(i + s, s)
}

/** Result type of `sum(x)`: the next storage width's precision (DECIMAL64 → 38, wider → 76), same scale. */
export function sumResultType(t: DecimalType): DecimalType {
  const p = decimalPrecision(t)
  return cappedDecimal(p <= 9 ? 18 : p <= 18 ? 38 : DECIMAL_MAX_PRECISION, decimalScale(t))
}
