/**
 * DECIMAL in Parquet: the DECIMAL(p, s) logical type over INT32 for p <= 9, INT64 for p <= 18 (the
 * smallest integer the format's spec recommends, as DuckDB and Arrow write it),
 * over FIXED_LEN_BYTE_ARRAY (16 bytes for p <= 38, 32 above; big-endian two's complement) for
 * wider ones. Reading keeps every digit: hyparquet would turn a DECIMAL into a double, so the
 * annotation is taken off the schema element once the footer is read (its precision and scale
 * stay) and the unscaled integers are decoded here.
 */
import type { FileMetaData, SchemaElement } from 'hyparquet'
import { type DecimalType, decimalPrecision, decimalScale, decimalType, DECIMAL_MAX_PRECISION } from '../types/decimal.js'

/** The schema element of a DECIMAL column. */
export function decimalElement(base: { name: string; repetition_type: 'REQUIRED' | 'OPTIONAL' }, type: DecimalType): SchemaElement {
  const precision = decimalPrecision(type), scale = decimalScale(type)
  const ann = { converted_type: 'DECIMAL', precision, scale, logical_type: { type: 'DECIMAL', precision, scale } } as const
  if (precision <= 9) return { ...base, type: 'INT32', ...ann }
  if (precision <= 18) return { ...base, type: 'INT64', ...ann }
  return { ...base, type: 'FIXED_LEN_BYTE_ARRAY', type_length: precision <= 38 ? 16 : 32, ...ann }
}

/** The DECIMAL type a schema element's annotation gives (another writer's file), or undefined. */
export function decimalOfElement(el: SchemaElement): DecimalType | undefined {
  const lt = el.logical_type
  const p = lt?.type === 'DECIMAL' ? lt.precision : el.converted_type === 'DECIMAL' ? el.precision : undefined
  const s = lt?.type === 'DECIMAL' ? lt.scale : el.converted_type === 'DECIMAL' ? el.scale ?? 0 : undefined
  if (p === undefined || s === undefined || p < 1 || p > DECIMAL_MAX_PRECISION || s < 0 || s > p) return undefined
  return decimalType(p, s)
}

/**
 * Takes the DECIMAL annotation off every schema element of `metadata` (in place: the reader's own
 * parsed footer) so the values arrive as the unscaled integers they are stored as; precision and
 * scale stay on the element.
 */
export function rawDecimals(metadata: FileMetaData): void {
  for (const el of metadata.schema as SchemaElement[]) {
    const t = decimalOfElement(el)
    if (t === undefined) continue
    const m = el as { converted_type?: unknown; logical_type?: unknown; precision?: number; scale?: number }
    m.precision = decimalPrecision(t)
    m.scale = decimalScale(t)
    delete m.converted_type
    delete m.logical_type
  }
}

/** The unscaled integer of a raw DECIMAL value: a number (INT32), a bigint (INT64) or big-endian two's complement bytes. */
export function unscaledRaw(x: unknown): bigint {
  if (typeof x === 'bigint') return x
  if (typeof x === 'number') return BigInt(x)
  const b = x as Uint8Array
  let v = 0n
  for (let i = 0; i < b.length; i++) v = (v << 8n) | BigInt(b[i]!)
  return b.length > 0 && (b[0]! & 0x80) !== 0 ? v - (1n << BigInt(8 * b.length)) : v
}
