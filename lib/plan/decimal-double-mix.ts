/**
 * DECIMAL beside FLOAT/DOUBLE in an arithmetic or comparison operator, as QuestDB 9 types it:
 * there is no such operator. QuestDB's overload table converts a decimal only to wider decimals
 * and a DOUBLE only to DOUBLE (ColumnType.OVERLOAD_PRIORITY), and its decimal page says "no
 * implicit conversion from double/float: must use explicit CAST or decimal literals" — so
 * `price * 1.5e0` or `price > avg_double` is 42883 rather than a silently inexact DOUBLE.
 *
 * One exception, EpochDB's own: a bare number literal (`1.05`, `-1E-12`) beside a decimal is
 * read exactly as a decimal of its digits, as PostgreSQL reads a numeric literal, because
 * psycopg2 inlines a Python `Decimal` that way (`WHERE price = 1.05`); assignment already does
 * the same (bind-expr.ts castTo).
 */
import type { BoundExpr } from './plan-node.js'
import { type ColumnType } from '../types/column-type.js'
import { decimalLiteralConst, isDecimal, plainDecimal } from '../types/decimal.js'
import { SqlError, SqlState } from '../errors.js'
import { typeName } from '../types/column-type.js'

/** The operators that have no DECIMAL × FLOAT/DOUBLE form in QuestDB 9. */
const OPERATORS = new Set(['+', '-', '*', '/', '%', '=', '!=', '<', '<=', '>', '>=', 'between'])

const isFloating = (t: ColumnType): boolean => t === 'DOUBLE' || t === 'FLOAT'

/**
 * The operator's arguments with bare number literals beside a decimal made decimal constants;
 * throws 42883 at the floating argument when a decimal meets any other FLOAT/DOUBLE.
 */
export function decimalBesideDouble(name: string, bound: BoundExpr[], positions: readonly number[]): BoundExpr[] {
  if (!OPERATORS.has(name) || !bound.some((b) => isDecimal(b.type)) || !bound.some((b) => isFloating(b.type))) return bound
  return bound.map((b, i) => {
    if (!isFloating(b.type)) return b
    const plain = b.kind === 'const' && b.type === 'DOUBLE' && b.text !== undefined ? plainDecimal(b.text.replace(/_/g, ''))?.text : undefined
    if (plain !== undefined) return decimalLiteralConst(plain, positions[i]!)
    const dec = bound.find((x) => isDecimal(x.type))!.type
    throw new SqlError(SqlState.UNDEFINED_FUNCTION, `there is no matching operator \`${name}\` for ${typeName(dec)} and ${typeName(b.type)}: `
      + `a decimal does not convert to or from ${typeName(b.type)} implicitly (QuestDB 9); cast one side, e.g. CAST(x AS DOUBLE), or write a decimal literal (1.5m)`, positions[i]!)
  })
}
