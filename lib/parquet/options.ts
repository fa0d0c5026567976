/**
 * QuestDB's Parquet export options (COPY ... WITH FORMAT PARQUET `option value` pairs and `/exp`
 * query parameters), checked and turned into {@link ParquetWriteOptions}. Names as QuestDB 9:
 * partition_by, compression_codec, compression_level, row_group_size, data_page_size,
 * statistics_enabled, parquet_version, raw_array_encoding, bloom_filter_columns, bloom_filter_fpp.
 */
import { SqlError, SqlState } from '../errors.js'
import type { PartitionUnit } from '../sql/ast.js'
import { type ParquetWriteOptions, parseCodec } from './writer.js'

/** One option as written. */
export interface RawOption {
  readonly name: string
  readonly value: string
  /** where the value is, for errors */
  readonly pos: number
  /** where the name is (unknown options point there); defaults to `pos` */
  readonly namePos?: number
}

function bad(message: string, pos: number): SqlError {
  return new SqlError(SqlState.INVALID_PARAMETER_VALUE, message, pos)
}

function int(o: RawOption, min: number, max: number): number {
  const n = Number(o.value)
  if (!Number.isInteger(n) || n < min || n > max) throw bad(`${o.name} must be an integer between ${min} and ${max}`, o.pos)
  return n
}

function bool(o: RawOption): boolean {
  const v = o.value.toLowerCase()
  if (v === 'true') return true
  if (v === 'false') return false
  throw bad(`${o.name} must be true or false`, o.pos)
}

const UNITS: readonly PartitionUnit[] = ['NONE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR']

/**
 * COPY's `PARTITION_BY unit` (the last one given), or undefined when absent; an unknown unit is a
 * SqlError at its value.
 */
export function copyPartitionBy(options: readonly RawOption[]): { readonly unit: PartitionUnit; readonly pos: number } | undefined {
  let out: { unit: PartitionUnit; pos: number } | undefined
  for (const o of options) {
    if (o.name.toLowerCase() !== 'partition_by') continue
    const unit = UNITS.find((u) => u === o.value.toUpperCase())
    if (unit === undefined) throw bad("'NONE', 'HOUR', 'DAY', 'WEEK', 'MONTH' or 'YEAR' expected", o.pos)
    out = { unit, pos: o.pos }
  }
  return out
}

/**
 * The export options `options` give; a bad name or value is a SqlError at its position.
 * `partition_by` is refused unless `partitionBy` says the caller takes it ({@link copyPartitionBy}:
 * COPY does, `/exp` does not, as QuestDB's).
 */
export function parseParquetOptions(options: readonly RawOption[], { partitionBy = false } = {}): ParquetWriteOptions {
  const out: { -readonly [K in keyof ParquetWriteOptions]: ParquetWriteOptions[K] } = {}
  for (const o of options) {
    switch (o.name.toLowerCase()) {
      case 'partition_by':
        if (!partitionBy && o.value.toUpperCase() !== 'NONE') throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, `partitionBy is temporarily not supported:${o.value}`, o.pos)
        break
      case 'compression_codec': out.compressionCodec = parseCodec(o.value, o.pos); break
      case 'compression_level': out.compressionLevel = int(o, 0, 22); break
      case 'row_group_size': out.rowGroupSize = int(o, 1, 100_000_000); break
      case 'data_page_size': out.dataPageSize = int(o, 1024, 1 << 30); break
      case 'statistics_enabled': out.statisticsEnabled = bool(o); break
      case 'parquet_version': int(o, 1, 2); break // data pages are always written as v2 (see docs/parquet.md)
      case 'raw_array_encoding': bool(o); break // no array types yet
      case 'bloom_filter_columns': out.bloomFilterColumns = o.value.split(',').map((s) => s.trim()).filter((s) => s !== ''); break
      case 'bloom_filter_fpp': {
        const f = Number(o.value)
        if (!(f > 0 && f < 1)) throw bad('bloom_filter_fpp must be between 0 and 1 (exclusive)', o.pos)
        out.bloomFilterFpp = f
        break
      }
      case 'size_limit': throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, 'size limit is not yet supported', o.pos)
      default: throw bad(`unrecognised option [option=${o.name}]`, o.namePos ?? o.pos)
    }
  }
  return out
}
