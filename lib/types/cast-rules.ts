/**
 * Which casts QuestDB allows: explicitly (`CAST(x AS T)`, `x::T`) and implicitly (function
 * argument matching, comparisons, INSERT into a column), per QuestDB's `isToSameOrWider`.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { type ColumnType, isInterval, isIntegral, isNumeric, isText } from './column-type.js'
import { isArrayType } from './array-type.js'
import { canCastArray, canImplicitlyCastArray } from './array-cast.js'
import { isDecimal } from './decimal.js'
import { canCastDecimal, canImplicitlyCastDecimal } from './decimal-rules.js'
import { canCastNs, canImplicitlyCastNs } from './timestamp-ns-rules.js'
import { geohashBits, isGeohash } from './geohash.js'

const WIDENING: readonly ColumnType[] = ['BYTE', 'SHORT', 'INT', 'LONG', 'FLOAT', 'DOUBLE']

/** Scalar-ish types that convert into each other by value (numbers, BOOLEAN, CHAR, DATE, TIMESTAMP). */
function isValueLike(t: ColumnType): boolean {
  return isNumeric(t) || t === 'BOOLEAN' || t === 'CHAR' || t === 'DATE' || t === 'TIMESTAMP'
}

/**
 * True when `CAST(<from> AS <to>)` is allowed. Every type but BINARY casts to the text types;
 * text casts to every type (by parsing; to BINARY from PostgreSQL's bytea hex `\x00ff`, which
 * psycopg2 sends for bytes, or as UTF-8); numbers, BOOLEAN, CHAR, DATE and TIMESTAMP
 * cast to each other; INT/LONG cast to IPv4 and LONG256, IPv4 to numbers.
 */
export function canCast(from: ColumnType, to: ColumnType): boolean {
  if (from === to || from === 'NULL') return true
  if (isArrayType(from) || isArrayType(to)) return canCastArray(from, to)
  if (isDecimal(from) || isDecimal(to)) return canCastDecimal(from, to)
  if (from === 'TIMESTAMP_NS' || to === 'TIMESTAMP_NS') return canCastNs(from, to)
  // GEOHASH: to and from text, and between precisions (a wider target fails when cast, with QuestDB's message)
  if (isGeohash(from)) return isGeohash(to) || (isText(to, true) && to !== 'CHAR')
  if (isGeohash(to)) return isText(from)
  if (isInterval(from) && isInterval(to)) return true
  if (from === 'BINARY') return false
  if (to === 'BINARY') return isText(from) && from !== 'CHAR'
  if (to === 'NULL') return false
  if (isText(to, true) && to !== 'CHAR') return true
  if (isText(from)) return to !== 'INTERVAL' && to !== 'INTERVAL_NS'
  if (isValueLike(from) && isValueLike(to)) return true
  if (to === 'IPV4') return isIntegral(from)
  if (from === 'IPV4') return isNumeric(to)
  if (to === 'LONG256') return from === 'INT' || from === 'LONG'
  return false
}

/**
 * True when a value of `from` may be used where `to` is expected without a cast (QuestDB §1.4):
 * the numeric chain BYTE → SHORT → INT → LONG → FLOAT → DOUBLE; STRING/VARCHAR → TIMESTAMP, DATE,
 * UUID, IPv4, LONG256, SYMBOL, CHAR (a 1-character value; checked when converting) and each
 * other; SYMBOL → STRING, VARCHAR, TIMESTAMP; CHAR → STRING, VARCHAR, SYMBOL; integers → TIMESTAMP
 * and DATE; DATE → TIMESTAMP; NULL → anything.
 */
export function canImplicitlyCast(from: ColumnType, to: ColumnType): boolean {
  if (from === to || from === 'NULL') return true
  if (isArrayType(from) || isArrayType(to)) return canImplicitlyCastArray(from, to)
  if (isDecimal(from) || isDecimal(to)) return canImplicitlyCastDecimal(from, to)
  if (from === 'TIMESTAMP_NS' || to === 'TIMESTAMP_NS') return canImplicitlyCastNs(from, to)
  if (from === 'INTERVAL' && to === 'INTERVAL_NS') return true // exact: bounds in nanoseconds
  // a geohash goes into a geohash of fewer bits (truncated, as QuestDB's INSERT); text parses
  if (isGeohash(to)) return (isGeohash(from) && geohashBits(from) >= geohashBits(to)) || from === 'STRING' || from === 'VARCHAR'
  if (isGeohash(from)) return false
  const a = WIDENING.indexOf(from)
  const b = WIDENING.indexOf(to)
  if (a >= 0 && b >= 0) return a <= b
  switch (from) {
    case 'STRING': case 'VARCHAR':
      return to === 'STRING' || to === 'VARCHAR' || to === 'SYMBOL' || to === 'TIMESTAMP' || to === 'DATE' ||
        to === 'UUID' || to === 'IPV4' || to === 'LONG256' || to === 'CHAR'
    case 'SYMBOL': return to === 'STRING' || to === 'VARCHAR' || to === 'TIMESTAMP'
    case 'CHAR': return to === 'STRING' || to === 'VARCHAR' || to === 'SYMBOL'
    case 'DATE': return to === 'TIMESTAMP'
    default: return isIntegral(from) && (to === 'TIMESTAMP' || to === 'DATE')
  }
}
