/**
 * The SQL types of the engine, with QuestDB's names and null sentinels.
 *
 * A type is a small string tag (`'LONG'`, `'TIMESTAMP'`, ...). The tags double as the names
 * QuestDB prints, except `IPV4` (printed `IPv4`) — use {@link typeName} when printing.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { type ArrayType, ARRAY_MAX_DIMS, ARRAY_TYPES, arrayType } from './array-type.js'

import { type DecimalType, isDecimal, isNarrowDecimal, parseDecimalTypeName } from './decimal.js'
import { decimalCommonType } from './decimal-rules.js'
import { nsCommonType } from './timestamp-ns-rules.js'
import { type GeohashType, geohashBits, isGeohash, isWideGeohash, parseGeohashTypeName } from './geohash.js'

/** Every column/value type. `NULL` is the type of a bare `null` literal. */
export const ColumnType = {
  BOOLEAN: 'BOOLEAN',
  BYTE: 'BYTE',
  SHORT: 'SHORT',
  CHAR: 'CHAR',
  INT: 'INT',
  LONG: 'LONG',
  FLOAT: 'FLOAT',
  DOUBLE: 'DOUBLE',
  DATE: 'DATE',
  TIMESTAMP: 'TIMESTAMP',
  TIMESTAMP_NS: 'TIMESTAMP_NS',
  STRING: 'STRING',
  VARCHAR: 'VARCHAR',
  SYMBOL: 'SYMBOL',
  UUID: 'UUID',
  IPV4: 'IPV4',
  LONG256: 'LONG256',
  BINARY: 'BINARY',
  INTERVAL: 'INTERVAL',
  INTERVAL_NS: 'INTERVAL_NS',
  NULL: 'NULL',
} as const

/**
 * One of the {@link ColumnType} tags, an N-dimensional array type (`DOUBLE[]`, see `array-type.ts`),
 * a `DECIMAL(p,s)` tag (see `decimal.ts`) or a `GEOHASH(<n>b|c)` tag (see `geohash.ts`).
 */
export type ColumnType = (typeof ColumnType)[keyof typeof ColumnType] | ArrayType | DecimalType | GeohashType

/** Types a table column may have (INTERVAL, INTERVAL_NS and NULL are expression-only). */
export const STORABLE_TYPES: readonly ColumnType[] = [
  'BOOLEAN', 'BYTE', 'SHORT', 'CHAR', 'INT', 'LONG', 'FLOAT', 'DOUBLE', 'DATE', 'TIMESTAMP', 'TIMESTAMP_NS',
  'STRING', 'VARCHAR', 'SYMBOL', 'UUID', 'IPV4', 'LONG256', 'BINARY', ...ARRAY_TYPES,
]

/** The name QuestDB prints for a type (REST `columns[].type`, `table_columns()`, `typeOf()`). */
export function typeName(t: ColumnType): string {
  return t === 'IPV4' ? 'IPv4' : t === 'INTERVAL_NS' ? 'INTERVAL' : t
}

/**
 * Parses a type name as written in DDL or a cast (case-insensitive, with QuestDB's aliases:
 * integer, int4, bigint, int8, smallint, real, float4, float8, text, bytea, bool, ...).
 * `decimal(p,s)` / `numeric(p,s)` give DECIMAL tags. Returns undefined for an unknown name.
 * @throws SqlError 22003 at `pos` for a DECIMAL precision or scale out of range
 */
export function parseTypeName(name: string, pos = -1): ColumnType | undefined {
  const n = name.toLowerCase()
  const alias = TYPE_ALIASES[n]
  if (alias !== undefined) return alias
  const arr = /^(double|float8|double precision)((?:\s*\[\s*\d*\s*\])+)$/.exec(n)
  if (arr !== null) { const dims = arr[2]!.split('[').length - 1; return dims <= ARRAY_MAX_DIMS ? arrayType(dims) : undefined }
  const dec = parseDecimalTypeName(n, pos)
  if (dec !== undefined) return dec
  const geo = parseGeohashTypeName(n, pos)
  if (geo !== undefined) return geo
  // PostgreSQL's spellings, as tools write them: a length on varchar, a precision on float
  const sized = /^(varchar|character varying|float)\((\d+)\)$/.exec(n)
  if (sized === null) return undefined
  if (sized[1] === 'float') return Number(sized[2]) <= 24 ? 'FLOAT' : 'DOUBLE'
  return 'VARCHAR'
}

const TYPE_ALIASES: Record<string, ColumnType> = {
  boolean: 'BOOLEAN', bool: 'BOOLEAN',
  byte: 'BYTE',
  short: 'SHORT', smallint: 'SHORT', int2: 'SHORT',
  char: 'CHAR',
  int: 'INT', integer: 'INT', int4: 'INT',
  long: 'LONG', bigint: 'LONG', int8: 'LONG',
  float: 'FLOAT', real: 'FLOAT', float4: 'FLOAT',
  double: 'DOUBLE', float8: 'DOUBLE', 'double precision': 'DOUBLE',
  date: 'DATE',
  timestamp: 'TIMESTAMP', timestamptz: 'TIMESTAMP', 'timestamp with time zone': 'TIMESTAMP', 'timestamp without time zone': 'TIMESTAMP',
  timestamp_ns: 'TIMESTAMP_NS',
  string: 'STRING', text: 'STRING', bytea: 'STRING',
  varchar: 'VARCHAR', 'character varying': 'VARCHAR',
  symbol: 'SYMBOL',
  uuid: 'UUID',
  ipv4: 'IPV4',
  long256: 'LONG256',
  binary: 'BINARY',
  interval: 'INTERVAL',
}

/** Physical layout family of a type; decides the vector representation (see `vector.ts`). */
export type Physical = 'bool' | 'i8' | 'i16' | 'u16' | 'i32' | 'i64' | 'f32' | 'f64' | 'sym' | 'str' | 'bin' | 'arr' | 'null'

/** The physical layout of each type. */
export const PHYSICAL: Readonly<Record<ColumnType, Physical>> = {
  BOOLEAN: 'bool', BYTE: 'i8', SHORT: 'i16', CHAR: 'u16', INT: 'i32', IPV4: 'i32',
  LONG: 'i64', DATE: 'i64', TIMESTAMP: 'i64', TIMESTAMP_NS: 'i64', FLOAT: 'f32', DOUBLE: 'f64',
  SYMBOL: 'sym', STRING: 'str', VARCHAR: 'str', UUID: 'str', LONG256: 'str', INTERVAL: 'str', INTERVAL_NS: 'str',
  BINARY: 'bin', NULL: 'null',
  ...(Object.fromEntries(ARRAY_TYPES.map((t) => [t, 'arr'])) as Record<ArrayType, 'arr'>),
}

/** The physical layout of a type (DECIMAL: i64 for p <= 18, str above; GEOHASH: i32 up to 31 bits, i64 above). */
export function physicalOf(t: ColumnType): Physical {
  const p = PHYSICAL[t]
  if (p !== undefined) return p
  if (isGeohash(t)) return isWideGeohash(t) ? 'i64' : 'i32'
  return isNarrowDecimal(t as DecimalType) ? 'i64' : 'str'
}

/** INT null: -2^31. */
export const INT_NULL = -2147483648
/** LONG / DATE / TIMESTAMP / TIMESTAMP_NS null: -2^63, exactly representable as a double. */
export const LONG_NULL = -9223372036854775808
/** LONG null as a bigint. */
export const LONG_NULL_BIG = -9223372036854775808n
/** SYMBOL null key. */
export const SYMBOL_NULL = -1
/** CHAR null (code unit 0). */
export const CHAR_NULL = 0
/** IPv4 null (0.0.0.0). */
export const IPV4_NULL = 0

/** Types of the numeric widening chain, narrowest first. */
const NUMERIC_ORDER: readonly ColumnType[] = ['BYTE', 'SHORT', 'INT', 'LONG', 'FLOAT', 'DOUBLE']

/** True for BYTE, SHORT, INT, LONG, FLOAT, DOUBLE. */
export function isNumeric(t: ColumnType): boolean {
  return NUMERIC_ORDER.includes(t)
}

/** True for BYTE, SHORT, INT, LONG. */
export function isIntegral(t: ColumnType): boolean {
  return t === 'BYTE' || t === 'SHORT' || t === 'INT' || t === 'LONG'
}

/** True for the text-like types STRING, VARCHAR, SYMBOL (and CHAR when `withChar`). */
export function isText(t: ColumnType, withChar = false): boolean {
  return t === 'STRING' || t === 'VARCHAR' || t === 'SYMBOL' || (withChar && t === 'CHAR')
}

/**
 * True for the INTERVAL types: `INTERVAL` (bounds of TIMESTAMP values) and `INTERVAL_NS` (of
 * TIMESTAMP_NS values, QuestDB 9's INTERVAL_TIMESTAMP_NANO). Both print their name as `INTERVAL`.
 */
export function isInterval(t: ColumnType): t is 'INTERVAL' | 'INTERVAL_NS' {
  return t === 'INTERVAL' || t === 'INTERVAL_NS'
}

/** True for DATE and TIMESTAMP. */
export function isTemporal(t: ColumnType): boolean {
  return t === 'DATE' || t === 'TIMESTAMP'
}

/** True when a value of the type can be null (BOOLEAN, BYTE and SHORT cannot). */
export function isNullable(t: ColumnType): boolean {
  return t !== 'BOOLEAN' && t !== 'BYTE' && t !== 'SHORT'
}

/** The wider of two numeric types, per QuestDB's chain BYTE → SHORT → INT → LONG → FLOAT → DOUBLE. */
export function widerNumeric(a: ColumnType, b: ColumnType): ColumnType {
  return NUMERIC_ORDER.indexOf(a) >= NUMERIC_ORDER.indexOf(b) ? a : b
}

/**
 * The common type of two types in UNION, CASE branches, COALESCE and IN lists
 * (QuestDB's `commonWideningType`).
 */
export function commonType(a: ColumnType, b: ColumnType): ColumnType {
  if (a === 'NULL') return b === 'SYMBOL' ? 'STRING' : b
  if (b === 'NULL') return a === 'SYMBOL' ? 'STRING' : a
  if (a === b) return a === 'SYMBOL' ? 'STRING' : a
  if (isDecimal(a) || isDecimal(b)) return decimalCommonType(a, b)
  if (isGeohash(a) && isGeohash(b)) return geohashBits(a) <= geohashBits(b) ? a : b
  if (isGeohash(a) && isText(b)) return a
  if (isGeohash(b) && isText(a)) return b
  if (isInterval(a) && isInterval(b)) return 'INTERVAL_NS' // a microsecond interval's bounds are exact in nanoseconds
  if (a === 'TIMESTAMP_NS' || b === 'TIMESTAMP_NS') return nsCommonType(a, b)
  if (isNumeric(a) && isNumeric(b)) return widerNumeric(a, b)
  if (isText(a, true) && isText(b, true)) return a === 'VARCHAR' || b === 'VARCHAR' ? 'VARCHAR' : 'STRING'
  if ((a === 'TIMESTAMP' && (b === 'LONG' || b === 'DATE' || isIntegral(b))) || (b === 'TIMESTAMP' && (a === 'LONG' || a === 'DATE' || isIntegral(a)))) return 'TIMESTAMP'
  if ((a === 'DATE' && isIntegral(b)) || (b === 'DATE' && isIntegral(a))) return 'DATE'
  if (isTemporal(a) && isText(b)) return a
  if (isTemporal(b) && isText(a)) return b
  if ((a === 'UUID' || a === 'IPV4' || a === 'LONG256') && isText(b)) return a
  if ((b === 'UUID' || b === 'IPV4' || b === 'LONG256') && isText(a)) return b
  if (a === 'CHAR' && isNumeric(b)) return b
  if (b === 'CHAR' && isNumeric(a)) return a
  return a === 'VARCHAR' || b === 'VARCHAR' ? 'VARCHAR' : 'STRING'
}
