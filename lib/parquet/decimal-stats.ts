/**
 * Exact DECIMAL statistics of a parsed footer. hyparquet turns a DECIMAL column's min/max into
 * doubles (`unscaled * 10^-scale`) when it parses a footer, which loses digits past 2^53 and
 * cannot be written back exactly. Here the footer's Thrift is read a second time and each DECIMAL
 * column chunk's min/max are replaced by their unscaled integers (bigints), which hyparquet-writer
 * writes back byte for byte (INT32, INT64 or FIXED_LEN_BYTE_ARRAY as the column is stored).
 * Used when row groups of one Parquet file are copied into another (storage/durable/parquet-merge.ts).
 */
import type { FileMetaData, SchemaElement, Statistics } from 'hyparquet'
import { deserializeTCompactProtocol } from 'hyparquet/src/thrift.js'
import { unscaledRaw } from './decimal-column.js'

/** The unscaled integer of raw statistics bytes of a DECIMAL stored as `type`, or undefined when the bytes do not fit it. */
function unscaledOfStat(bytes: unknown, type: SchemaElement['type']): bigint | undefined {
  if (!(bytes instanceof Uint8Array)) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (type === 'INT32') return bytes.length === 4 ? BigInt(view.getInt32(0, true)) : undefined
  if (type === 'INT64') return bytes.length === 8 ? view.getBigInt64(0, true) : undefined
  // FIXED_LEN_BYTE_ARRAY / BYTE_ARRAY: big-endian two's complement
  return bytes.length > 0 ? unscaledRaw(bytes) : undefined
}

/**
 * Replaces, in place, the min/max statistics of every DECIMAL column chunk of `md` (parsed from
 * `footer`, the file's Thrift metadata bytes without the trailing length and magic) by their
 * unscaled integers as bigints. A chunk whose raw statistics cannot be read keeps no min/max
 * (its null count stays): copied without them rather than with rounded ones.
 */
export function exactDecimalStats(md: FileMetaData, footer: Uint8Array): void {
  const decimal = new Map<string, SchemaElement>()
  for (const e of md.schema) if (e.converted_type === 'DECIMAL' || e.logical_type?.type === 'DECIMAL') decimal.set(e.name, e)
  if (decimal.size === 0) return
  let raw: { field_4?: { field_1?: { field_3?: { field_12?: Record<string, unknown> } }[] }[] } | undefined
  try {
    raw = deserializeTCompactProtocol({ view: new DataView(footer.buffer, footer.byteOffset, footer.byteLength), offset: 0 })
  } catch {
    raw = undefined
  }
  md.row_groups.forEach((g, k) => {
    g.columns.forEach((c, j) => {
      const m = c.meta_data
      const el = m === undefined ? undefined : decimal.get(m.path_in_schema[m.path_in_schema.length - 1]!)
      if (m === undefined || el === undefined || m.statistics === undefined) return
      const st = raw?.field_4?.[k]?.field_1?.[j]?.field_3?.field_12
      const exact = (f: string): bigint | undefined => unscaledOfStat(st?.[f], el.type)
      const { max: _max, min: _min, max_value: _maxValue, min_value: _minValue, ...out } = m.statistics as Statistics
      const max = exact('field_1'), min = exact('field_2'), maxValue = exact('field_5'), minValue = exact('field_6')
      if (max !== undefined && min !== undefined) Object.assign(out, { max, min })
      if (maxValue !== undefined && minValue !== undefined) Object.assign(out, { max_value: maxValue, min_value: minValue })
      m.statistics = out
    })
  })
}
