/**
 * hyparquet's decoded column chunks to EpochDB vectors. Parquet nulls become the type's null
 * sentinel; timestamps arrive as bigint microseconds (milliseconds for DATE) through
 * {@link RAW_PARSERS}, so no value goes through a JavaScript Date and loses its microseconds.
 */
import type { DecodedArray, ParquetParsers } from 'hyparquet'
import { type ColumnType, INT_NULL, LONG_NULL } from '../types/column-type.js'
import { long256FromBigInt } from '../types/long256.js'
import { notSupported } from '../errors.js'
import { decimalScale, formatUnscaled, isDecimal } from '../types/decimal.js'
import { unscaledRaw } from './decimal-column.js'
import { SymbolTable, type Vector, allocate } from '../types/vector.js'

const decoder = new TextDecoder()

/** Parsers that keep time values as integers: TIMESTAMP in µs, DATE in ms. */
export const RAW_PARSERS: Partial<ParquetParsers> = {
  timestampFromMilliseconds: (v: bigint) => v,
  timestampFromMicroseconds: (v: bigint) => v,
  // kept in nanoseconds: a TIMESTAMP_NS column takes them as they are, a TIMESTAMP one is floored by the reader
  timestampFromNanoseconds: (v: bigint) => v,
  dateFromDays: (d: number) => BigInt(d) * 86_400_000n,
  stringFromBytes: (b: Uint8Array) => (b === undefined || b === null ? b : decoder.decode(b)),
}

function hex256(b: Uint8Array): string {
  let v = 0n
  for (let i = 0; i < b.length; i++) v = (v << 8n) | BigInt(b[i]!)
  return long256FromBigInt(v)
}

/** The vector of `type` holding `data` (a decoded column chunk); SYMBOL values are interned in `dict`. */
export function decodeColumn(type: ColumnType, data: DecodedArray, dict?: SymbolTable): Vector {
  const n = data.length
  const out = allocate(type, n, dict)
  switch (out.kind) {
    case 'bool': for (let i = 0; i < n; i++) out.data[i] = data[i] ? 1 : 0; return out
    case 'i8': case 'i16': case 'u16':
      for (let i = 0; i < n; i++) { const x = data[i]; if (x !== null && x !== undefined) out.data[i] = Number(x) }
      return out
    case 'i32':
      for (let i = 0; i < n; i++) {
        const x = data[i]
        out.data[i] = x === null || x === undefined ? (type === 'IPV4' ? 0 : INT_NULL) : Number(x) | 0
      }
      return out
    case 'i64': {
      if (isDecimal(type)) return decodeNarrowDecimal(out, data)
      let big: BigInt64Array | undefined
      const f = out.data as Float64Array
      for (let i = 0; i < n; i++) {
        const x = data[i] as bigint | number | null | undefined
        if (x === null || x === undefined) { if (big !== undefined) big[i] = -9223372036854775808n; continue }
        const num = Number(x)
        if (big === undefined && Number.isSafeInteger(num)) { f[i] = num; continue }
        if (big === undefined) {
          big = new BigInt64Array(n)
          for (let j = 0; j < i; j++) big[j] = f[j] === LONG_NULL ? -9223372036854775808n : BigInt(f[j]!)
        }
        big[i] = BigInt(x)
      }
      return big === undefined ? out : { ...out, data: big }
    }
    case 'f32': case 'f64':
      if (data instanceof Float64Array || data instanceof Float32Array) { out.data.set(data); return out }
      for (let i = 0; i < n; i++) { const x = data[i]; if (x !== null && x !== undefined) out.data[i] = Number(x) }
      return out
    case 'sym':
      for (let i = 0; i < n; i++) { const x = data[i]; if (x !== null && x !== undefined) out.data[i] = out.dict.intern(String(x)) }
      return out
    case 'str':
      for (let i = 0; i < n; i++) {
        const x = data[i]
        if (x === null || x === undefined) continue
        if (isDecimal(type)) out.data[i] = formatUnscaled(unscaledRaw(x), decimalScale(type))
        else if (type === 'LONG256' && x instanceof Uint8Array) out.data[i] = hex256(x)
        else out.data[i] = x instanceof Uint8Array ? decoder.decode(x) : String(x)
      }
      return out
    case 'bin':
      for (let i = 0; i < n; i++) {
        const x = data[i]
        if (x === null || x === undefined) continue
        out.data[i] = x instanceof Uint8Array ? x : new TextEncoder().encode(String(x))
      }
      return out
    default: throw notSupported(`a ${type} column cannot be read from Parquet yet`) // DOUBLE arrays: a later change
    case 'null': return out
  }
}

/** A narrow DECIMAL (p <= 18) from raw unscaled values: doubles while safe, else BigInt64Array. */
function decodeNarrowDecimal(out: Extract<Vector, { kind: 'i64' }>, data: DecodedArray): Vector {
  const n = data.length
  const f = out.data as Float64Array
  let big: BigInt64Array | undefined
  for (let i = 0; i < n; i++) {
    const x = data[i]
    if (x === null || x === undefined) { if (big !== undefined) big[i] = -9223372036854775808n; continue }
    const u = unscaledRaw(x)
    const num = Number(u)
    if (big === undefined && Number.isSafeInteger(num)) { f[i] = num; continue }
    if (big === undefined) {
      big = new BigInt64Array(n)
      for (let j = 0; j < i; j++) big[j] = f[j] === LONG_NULL ? -9223372036854775808n : BigInt(f[j]!)
    }
    big[i] = u
  }
  return big === undefined ? out : { ...out, data: big }
}

/** Decoded chunks (pages) of one column as one array: typed arrays stay typed. */
export function concatChunks(parts: readonly DecodedArray[]): DecodedArray {
  if (parts.length === 1) return parts[0]!
  let total = 0
  for (const p of parts) total += p.length
  const first = parts[0]
  if (first !== undefined && ArrayBuffer.isView(first) && parts.every((p) => p.constructor === first.constructor)) {
    const out = new (first.constructor as new (n: number) => Float64Array)(total)
    let o = 0
    for (const p of parts) { out.set(p as Float64Array, o); o += p.length }
    return out
  }
  const out: unknown[] = new Array(total)
  let o = 0
  for (const p of parts) for (let i = 0; i < p.length; i++) out[o++] = p[i]
  return out as DecodedArray
}

/** A symbol dictionary for a column read as SYMBOL (shared by its batches). */
export function newDictionary(): SymbolTable {
  return new SymbolTable()
}
