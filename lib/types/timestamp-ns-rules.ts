/**
 * The type rules of TIMESTAMP_NS, after QuestDB 9: a mix of TIMESTAMP (µs) and TIMESTAMP_NS
 * widens to TIMESTAMP_NS (the higher precision wins, `ColumnType.getHigherPrecisionTimestampType`),
 * integers and DATE widen to it, text converts to it by parsing. Used by `column-type.ts`
 * (common types), `cast-rules.ts` (explicit and implicit casts) and the overload resolver.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { ColumnType } from './column-type.js'

const INTEGRAL = new Set<ColumnType>(['BYTE', 'SHORT', 'INT', 'LONG'])
const TEXT = new Set<ColumnType>(['STRING', 'VARCHAR', 'SYMBOL'])

/** The common type of two types one of which is TIMESTAMP_NS (UNION, CASE, COALESCE, IN lists). */
export function nsCommonType(a: ColumnType, b: ColumnType): ColumnType {
  const other = a === 'TIMESTAMP_NS' ? b : a
  if (other === 'TIMESTAMP_NS' || other === 'TIMESTAMP' || other === 'DATE' || INTEGRAL.has(other) || TEXT.has(other) || other === 'NULL') return 'TIMESTAMP_NS'
  return a === 'VARCHAR' || b === 'VARCHAR' ? 'VARCHAR' : 'STRING'
}

/** True when `CAST(<from> AS <to>)` is allowed, one of them being TIMESTAMP_NS. */
export function canCastNs(from: ColumnType, to: ColumnType): boolean {
  const other = from === 'TIMESTAMP_NS' ? to : from
  return other === 'TIMESTAMP_NS' || other === 'TIMESTAMP' || other === 'DATE' || other === 'NULL' || INTEGRAL.has(other) ||
    other === 'FLOAT' || other === 'DOUBLE' || other === 'BOOLEAN' || TEXT.has(other) || other === 'CHAR' && to !== 'CHAR'
}

/**
 * True when a `from` value may stand where `to` is expected without a cast, one of them being
 * TIMESTAMP_NS: TIMESTAMP, DATE, integers and text become TIMESTAMP_NS; TIMESTAMP_NS becomes
 * TIMESTAMP (dropping the nanoseconds, as QuestDB's micro functions read a nano argument).
 */
export function canImplicitlyCastNs(from: ColumnType, to: ColumnType): boolean {
  if (to === 'TIMESTAMP_NS') return from === 'TIMESTAMP' || from === 'DATE' || from === 'NULL' || INTEGRAL.has(from) || TEXT.has(from)
  return to === 'TIMESTAMP' || to === 'LONG'
}

/**
 * The overload-resolution cost of passing `from` where `to` is declared (one of them
 * TIMESTAMP_NS), or -1: µs → ns is cheap (exact), ns → µs is dear (it drops digits), so a
 * function with a TIMESTAMP_NS overload takes it and one without still accepts the value.
 */
export function nsConversionCost(from: ColumnType, to: ColumnType, literal: boolean): number {
  if (from === to) return 0
  if (to === 'TIMESTAMP_NS') {
    if (from === 'NULL') return 2
    if (from === 'TIMESTAMP') return 5
    if (from === 'DATE') return 6
    if (TEXT.has(from)) return literal ? 4 : 9
    if (INTEGRAL.has(from)) return 12
    return -1
  }
  if (to === 'TIMESTAMP') return 14
  if (to === 'LONG') return 15
  return -1
}
