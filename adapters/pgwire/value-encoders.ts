/**
 * Encoders of one result value into a DataRow cell (int32 length + bytes, or -1 for null), in
 * text or binary format, chosen once per column (reference §4.6):
 *
 * - text: BOOLEAN `t`/`f`; numbers in decimal, doubles Java-style as QuestDB prints them (NaN and
 *   infinities are null); TIMESTAMP `2024-01-01 00:00:00.000001`; DATE `2024-01-01 00:00:00.000`;
 *   TIMESTAMP_NS as `timestamp` (OID 1114) truncated to the microsecond, text and binary alike, as
 *   QuestDB 9 sends it (PostgreSQL's timestamp holds microseconds; psycopg2/3 refuse nine digits);
 *   BINARY as PostgreSQL's bytea hex `\x...`; everything else its QuestDB text.
 * - binary: int2/int4/int8, IEEE floats, TIMESTAMP/DATE as int8 microseconds since 2000-01-01,
 *   UUID 16 bytes, BINARY raw; STRING/SYMBOL/LONG256/IPv4/INTERVAL stay text (QuestDB's rule).
 *
 * These per-value encoders are the reference: results are sent by `data-row-writer.ts`, whose
 * fast writers must produce the same bytes (its test compares them) and which falls back to these
 * for the types it has no case for.
 */
import { formatDate, formatDouble, formatFloat, formatGeohash, formatTimestamp, formatValue, geohashBits, getScalar, isArrayType, isGeohash, nsParts } from '../../lib/internal.js'
import type { ColumnType, Vector } from '../../lib/index.js'
import type { BufferWriter } from './buffer-writer.js'
import type { FormatCode } from './messages.js'
import { pgTypeOf } from './pg-types.js'
import { writeArrayBinary, writeArrayText } from './encode-array.js'
import { numericBinary, numericText } from './encode-numeric.js'

/** Writes row `i` of `v` as one DataRow cell. */
export type CellEncoder = (w: BufferWriter, v: Vector, i: number) => void

/** Microseconds between 1970-01-01 and PostgreSQL's epoch 2000-01-01. */
export const PG_EPOCH_MICROS = 946_684_800_000_000

/** `2024-01-01T00:00:00.000001Z` → `2024-01-01 00:00:00.000001`. */
export function pgTimestampText(isoZ: string): string {
  const t = isoZ.indexOf('T')
  return (t < 0 ? isoZ : isoZ.slice(0, t) + ' ' + isoZ.slice(t + 1)).replace(/Z$/, '')
}

/** PostgreSQL's hex text form of bytea. */
export function byteaHex(b: Uint8Array): string {
  return '\\x' + Buffer.from(b.buffer, b.byteOffset, b.length).toString('hex')
}

function textOf(type: ColumnType): (x: NonNullable<ReturnType<typeof getScalar>>) => string {
  switch (type) {
    case 'BOOLEAN': return (x) => (x === true ? 't' : 'f')
    case 'BYTE': case 'SHORT': case 'INT': case 'LONG': return (x) => String(x)
    case 'FLOAT': return (x) => formatFloat(x as number)
    case 'DOUBLE': return (x) => formatDouble(x as number)
    case 'TIMESTAMP': return (x) => pgTimestampText(formatTimestamp(x as number | bigint))
    case 'DATE': return (x) => pgTimestampText(formatDate(Number(x)))
    case 'TIMESTAMP_NS': return (x) => pgTimestampText(formatTimestamp(nsParts(x as number | bigint).micros))
    case 'BINARY': return (x) => byteaHex(x as Uint8Array)
    case 'IPV4': return (x) => formatValue('IPV4', x) ?? ''
    case 'CHAR': case 'STRING': case 'VARCHAR': case 'SYMBOL': case 'UUID': case 'LONG256': case 'INTERVAL': case 'INTERVAL_NS': case 'NULL':
      return (x) => String(x)
    default:
      if (isGeohash(type)) { const bits = geohashBits(type); return (x) => formatGeohash(x as number | bigint, bits) }
      return isArrayType(type) ? (x) => String(x) /* the array types: see encode-array.ts */ : (x) => numericText(type, x) // DECIMAL
  }
}

function textEncoder(type: ColumnType): CellEncoder {
  if (isArrayType(type)) return writeArrayText
  const fmt = textOf(type)
  return (w, v, i) => {
    const x = getScalar(v, i)
    if (x === null) w.int32(-1)
    else w.lengthPrefixedString(fmt(x))
  }
}

function uuidBytes(s: string): Buffer {
  return Buffer.from(s.replace(/-/g, ''), 'hex')
}

function binaryEncoder(type: ColumnType): CellEncoder {
  const scalar = (w: BufferWriter, v: Vector, i: number, put: (x: NonNullable<ReturnType<typeof getScalar>>) => void): void => {
    const x = getScalar(v, i)
    if (x === null) w.int32(-1)
    else put(x)
  }
  switch (type) {
    case 'BOOLEAN': return (w, v, i) => scalar(w, v, i, (x) => w.int32(1).byte(x === true ? 1 : 0))
    case 'BYTE': case 'SHORT': return (w, v, i) => scalar(w, v, i, (x) => w.int32(2).int16(x as number))
    case 'INT': return (w, v, i) => scalar(w, v, i, (x) => w.int32(4).int32(x as number))
    case 'LONG': return (w, v, i) => scalar(w, v, i, (x) => w.int32(8).int64(BigInt(x as number | bigint)))
    case 'FLOAT': return (w, v, i) => scalar(w, v, i, (x) => w.int32(4).float32(x as number))
    case 'DOUBLE': return (w, v, i) => scalar(w, v, i, (x) => w.int32(8).float64(x as number))
    case 'TIMESTAMP': return (w, v, i) => scalar(w, v, i, (x) => w.int32(8).int64(BigInt(x as number | bigint) - BigInt(PG_EPOCH_MICROS)))
    case 'DATE': return (w, v, i) => scalar(w, v, i, (x) => w.int32(8).int64(BigInt(Number(x) * 1000 - PG_EPOCH_MICROS)))
    case 'TIMESTAMP_NS': return (w, v, i) => scalar(w, v, i, (x) => w.int32(8).int64(BigInt(nsParts(x as number | bigint).micros - PG_EPOCH_MICROS)))
    case 'UUID': return (w, v, i) => scalar(w, v, i, (x) => w.int32(16).bytes(uuidBytes(String(x))))
    case 'BINARY': return (w, v, i) => scalar(w, v, i, (x) => w.int32((x as Uint8Array).length).bytes(x as Uint8Array))
    case 'CHAR': case 'STRING': case 'VARCHAR': case 'SYMBOL': case 'LONG256': case 'IPV4': case 'INTERVAL': case 'INTERVAL_NS': case 'NULL':
      return textEncoder(type)
    default:
      if (isGeohash(type)) return textEncoder(type) // GEOHASH: text, as QuestDB sends it
      if (isArrayType(type)) return writeArrayBinary // the array types
      return (w, v, i) => scalar(w, v, i, (x) => { const b = numericBinary(numericText(type, x)); w.int32(b.length).bytes(b) }) // DECIMAL
  }
}

/** The encoder of a column of `type` in `format`. */
export function cellEncoder(type: ColumnType, format: FormatCode): CellEncoder {
  return format === 1 && pgTypeOf(type).binary ? binaryEncoder(type) : textEncoder(type)
}

/** The format a column of `type` is actually sent in when the client asked for `requested`. */
export function effectiveFormat(type: ColumnType, requested: FormatCode): FormatCode {
  return requested === 1 && pgTypeOf(type).binary ? 1 : 0
}

/** Writes DataRows for rows [from, to) of `vectors`, one encoder per column (the reference of `data-row-writer.ts`'s `writeRows`). */
export function writeDataRows(w: BufferWriter, vectors: readonly Vector[], encoders: readonly CellEncoder[], from: number, to: number): void {
  const n = vectors.length
  for (let i = from; i < to; i++) {
    w.begin('D').int16(n)
    for (let k = 0; k < n; k++) encoders[k]!(w, vectors[k]!, i)
    w.end()
  }
}
