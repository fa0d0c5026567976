/**
 * The Parquet form of EpochDB's column types, both ways (docs/parquet.md has the table).
 *
 * Writing follows QuestDB 9's mapping: every column OPTIONAL except the designated timestamp
 * (REQUIRED); TIMESTAMP as INT64 TIMESTAMP(MICROS, UTC); DATE as INT64 TIMESTAMP(MILLIS, UTC);
 * SYMBOL, STRING and VARCHAR as UTF-8 BYTE_ARRAY (SYMBOL dictionary-encoded); UUID as
 * FIXED_LEN_BYTE_ARRAY(16) UUID (RFC 4122 byte order); LONG256 as FIXED_LEN_BYTE_ARRAY(32),
 * big-endian; IPv4 as INT32 UINT(32); CHAR as INT32 UINT(16). The exact EpochDB types travel in the
 * footer's `epochdb` key-value entry, so a round trip gives back SYMBOL, STRING and LONG256 as they
 * were; files from other writers are typed by inference ({@link inferColumnType}). Small and
 * unsigned integers carry only the converted type (INT_8, INT_16, UINT_16, UINT_32): hyparquet-writer's
 * INTEGER logical annotation is unreadable to DuckDB, and every reader understands the converted one.
 * TIMESTAMP_NS is INT64 TIMESTAMP(NANOS, UTC); DOUBLE[]..[] nested LISTs of DOUBLE ({@link parquetElements}).
 * DECIMAL(p,s) is Parquet's DECIMAL over INT32 (p <= 9), INT64 (p <= 18) or a 16/32-byte FIXED_LEN_BYTE_ARRAY
 * (decimal-column.ts), and another writer's DECIMAL column is read as DECIMAL(p,s) exactly.
 */
import type { SchemaElement } from 'hyparquet'
import type { ColumnType } from '../types/column-type.js'
import { notSupported } from '../errors.js'
import { isDecimal } from '../types/decimal.js'
import { geohashBits, geohashStorageBytes, isGeohash } from '../types/geohash.js'
import { decimalElement, decimalOfElement } from './decimal-column.js'
import { ARRAY_MAX_DIMS, arrayDims } from '../types/array-type.js'

/** The footer key holding {@link EpochFooter}. */
export const FOOTER_KEY = 'epochdb'

/** What EpochDB records about a file it writes, in the footer's `epochdb` entry (JSON). */
export interface EpochFooter {
  readonly version: 1
  /** one per column, in file order */
  readonly columns: readonly { readonly name: string; readonly type: ColumnType }[]
  /** index of the designated timestamp, or -1 */
  readonly timestamp: number
}

/** The Parquet schema element of an EpochDB column. */
export function parquetElement(name: string, type: ColumnType, designated: boolean): SchemaElement {
  const repetition_type = designated ? 'REQUIRED' : 'OPTIONAL'
  const base = { name, repetition_type } as const
  switch (type) {
    case 'BOOLEAN': return { ...base, type: 'BOOLEAN' }
    case 'BYTE': return { ...base, type: 'INT32', converted_type: 'INT_8' }
    case 'SHORT': return { ...base, type: 'INT32', converted_type: 'INT_16' }
    case 'CHAR': return { ...base, type: 'INT32', converted_type: 'UINT_16' }
    case 'INT': return { ...base, type: 'INT32' }
    case 'IPV4': return { ...base, type: 'INT32', converted_type: 'UINT_32' }
    case 'LONG': return { ...base, type: 'INT64' }
    case 'DATE': return { ...base, type: 'INT64', converted_type: 'TIMESTAMP_MILLIS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' } }
    case 'TIMESTAMP': return { ...base, type: 'INT64', converted_type: 'TIMESTAMP_MICROS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' } }
    // no converted type exists for nanoseconds: the logical type alone (as DuckDB and Arrow write it)
    case 'TIMESTAMP_NS': return { ...base, type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'NANOS' } }
    case 'FLOAT': return { ...base, type: 'FLOAT' }
    case 'DOUBLE': return { ...base, type: 'DOUBLE' }
    case 'STRING': case 'VARCHAR': case 'SYMBOL': case 'INTERVAL': case 'INTERVAL_NS':
      return { ...base, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } }
    case 'BINARY': return { ...base, type: 'BYTE_ARRAY' }
    case 'UUID': return { ...base, type: 'FIXED_LEN_BYTE_ARRAY', type_length: 16, logical_type: { type: 'UUID' } }
    case 'LONG256': return { ...base, type: 'FIXED_LEN_BYTE_ARRAY', type_length: 32 }
    case 'NULL': return { ...base, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } }
    default:
      if (isDecimal(type)) return decimalElement(base, type)
      if (isGeohash(type)) return geohashElement(base, geohashBits(type))
      throw notSupported(`a ${type} column cannot be written to Parquet yet`)
  }
}

/**
 * A GEOHASH column as QuestDB writes it: signed integers of its storage width (INT32 as INT_8,
 * INT_16 or INT_32, INT64 as INT_64); the bit count lives in EpochDB's footer only.
 */
function geohashElement(base: { readonly name: string; readonly repetition_type: 'REQUIRED' | 'OPTIONAL' }, bits: number): SchemaElement {
  const width = geohashStorageBytes(bits) * 8
  // converted types only: hyparquet-writer writes an INTEGER logical type's bit width as a thrift
  // i32 where the format has an i8, which DuckDB refuses ("TProtocolException: Invalid data")
  if (width === 64) return { ...base, type: 'INT64', converted_type: 'INT_64' }
  return { ...base, type: 'INT32', converted_type: width === 8 ? 'INT_8' : width === 16 ? 'INT_16' : 'INT_32' }
}

/**
 * The schema elements of an EpochDB column, in Parquet's depth-first order: one for a scalar
 * column ({@link parquetElement}); for `DOUBLE[]..[]` of n dimensions, n nested three-level
 * LISTs (`<name> (LIST) > repeated list > element`) whose innermost element is an OPTIONAL
 * DOUBLE (a null element is a NaN, as in EpochDB). The array itself is OPTIONAL (a null array),
 * the inner lists OPTIONAL too, as DuckDB and Arrow write them.
 */
export function parquetElements(name: string, type: ColumnType, designated: boolean): SchemaElement[] {
  const dims = arrayDims(type)
  if (dims === 0) return [parquetElement(name, type, designated)]
  const out: SchemaElement[] = []
  for (let d = 0; d < dims; d++) {
    out.push({ name: d === 0 ? name : 'element', repetition_type: 'OPTIONAL', num_children: 1, converted_type: 'LIST', logical_type: { type: 'LIST' } })
    out.push({ name: 'list', repetition_type: 'REPEATED', num_children: 1 })
  }
  out.push({ name: 'element', repetition_type: 'OPTIONAL', type: 'DOUBLE' })
  return out
}

/**
 * The dimension count of the nested column at `schema[index]` when it is a list of lists ... of
 * DOUBLE that EpochDB reads as `DOUBLE[]..[]` (each group having one child, at least one REPEATED
 * node, a DOUBLE leaf), else 0.
 */
export function doubleListDims(schema: readonly SchemaElement[], index: number): number {
  let dims = 0
  let i = index
  for (;;) {
    const el = schema[i]
    if (el === undefined) return 0
    if (el.repetition_type === 'REPEATED') dims++
    const kids = el.num_children ?? 0
    if (kids === 0) return el.type === 'DOUBLE' && dims > 0 && dims <= ARRAY_MAX_DIMS ? dims : 0
    if (kids !== 1) return 0
    i++
  }
}

/**
 * The EpochDB type of a Parquet leaf column written by another tool, as QuestDB infers it; undefined
 * for a column EpochDB cannot hold (QuestDB skips those too).
 */
export function inferColumnType(el: SchemaElement): ColumnType | undefined {
  const lt = el.logical_type
  const ct = el.converted_type
  const dec = decimalOfElement(el)
  if (dec !== undefined) return dec
  switch (el.type) {
    case 'BOOLEAN': return 'BOOLEAN'
    case 'INT32':
      if (ct === 'INT_8' || (lt?.type === 'INTEGER' && lt.bitWidth === 8)) return 'BYTE'
      if (ct === 'INT_16' || (lt?.type === 'INTEGER' && lt.bitWidth === 16 && lt.isSigned)) return 'SHORT'
      if (ct === 'UINT_16' || (lt?.type === 'INTEGER' && lt.bitWidth === 16)) return 'CHAR'
      if (ct === 'UINT_32' || (lt?.type === 'INTEGER' && lt.bitWidth === 32 && !lt.isSigned)) return 'IPV4'
      if (ct === 'DATE' || lt?.type === 'DATE') return 'DATE'
      if (ct === 'DECIMAL' || lt?.type === 'DECIMAL') return 'DOUBLE'
      return 'INT'
    case 'INT64':
      if (lt?.type === 'TIMESTAMP') return lt.unit === 'MILLIS' ? 'DATE' : lt.unit === 'NANOS' ? 'TIMESTAMP_NS' : 'TIMESTAMP'
      if (ct === 'TIMESTAMP_MICROS') return 'TIMESTAMP'
      if (ct === 'TIMESTAMP_MILLIS') return 'DATE'
      if (ct === 'DECIMAL' || lt?.type === 'DECIMAL') return 'DOUBLE'
      return 'LONG'
    case 'INT96': return 'TIMESTAMP'
    case 'FLOAT': return 'FLOAT'
    case 'DOUBLE': return 'DOUBLE'
    case 'BYTE_ARRAY':
      if (ct === 'DECIMAL' || lt?.type === 'DECIMAL') return 'DOUBLE'
      if (ct === 'UTF8' || ct === 'JSON' || ct === 'ENUM' || lt?.type === 'STRING' || lt?.type === 'JSON' || lt?.type === 'ENUM') return 'VARCHAR'
      return 'BINARY'
    case 'FIXED_LEN_BYTE_ARRAY':
      if (lt?.type === 'UUID') return 'UUID'
      if (ct === 'DECIMAL' || lt?.type === 'DECIMAL') return 'DOUBLE'
      if (el.type_length === 32) return 'LONG256'
      return 'BINARY'
    default: return undefined
  }
}
