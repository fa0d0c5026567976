/**
 * A parameter the client declared `numeric` (psycopg 3 binds a Python `Decimal` so, pgJDBC a
 * `BigDecimal`) that nothing in the statement gives a type, as in `select $1`: it is typed
 * DECIMAL(p, s) by its own digits, so it comes back as the exact numeric the client bound
 * (`Decimal('1.50')` → `1.50`, numeric), not as text. QuestDB 9 defines a declared numeric bind
 * variable as one fixed DECIMAL; the value's own precision and scale keep its printed digits.
 */
import type { ColumnType } from '../../lib/index.js'
import { plainDecimal } from '../../lib/internal.js'

/**
 * The type QuestDB gives a declared `numeric` bind variable when there is no value to type it by
 * (Describe of a statement before Bind): DECIMAL(76,38), reference §4.14.
 */
export const DESCRIBED_NUMERIC: ColumnType = 'DECIMAL(76,38)' as ColumnType

/** A numeric parameter's value as plain decimal text and its DECIMAL type. */
export interface TypedNumeric {
  readonly type: ColumnType
  /** plain decimal text (no exponent), e.g. `-0.000000000001`; null for NaN and ±Infinity */
  readonly text: string | null
}

/**
 * The DECIMAL(p, s) of a numeric parameter's text (`1.50` → DECIMAL(3,2), `1E-12` →
 * DECIMAL(12,12), `12E2` → DECIMAL(4,0)) with its plain text, read by the engine's
 * {@link plainDecimal} (its rules for -0, zero with a large exponent and spaces); `NaN` and
 * `±Infinity` are a NULL DECIMAL(1,0) (QuestDB casts them to NULL); undefined for text that is no
 * number or needs more than 76 digits: such a value stays text, for the engine to refuse or cast.
 */
export function typedNumeric(text: string): TypedNumeric | undefined {
  if (/^\s*([+-]?inf(inity)?|nan)\s*$/i.test(text)) return { type: 'DECIMAL(1,0)' as ColumnType, text: null }
  return plainDecimal(text)
}
