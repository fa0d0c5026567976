/**
 * Converts Bind parameter values to the JS values the engine binds to `$n` (reference §4.14).
 * The engine infers a parameter's type from its JS value, so the conversion picks the value that
 * carries the client's type: numbers for int2/int4/float, bigint for int8, boolean for bool,
 * strings for text and unspecified (OID 0) parameters — the engine casts a string to whatever
 * the context needs — and lossless text for timestamps (microseconds survive, unlike `Date`).
 */
import { numericParamValue } from './encode-numeric.js'
import { formatTimestamp } from '../../lib/internal.js'
import { Oid } from './pg-types.js'
import type { FormatCode } from './messages.js'
import { PG_EPOCH_MICROS } from './value-encoders.js'
import { float8ArrayParam } from './encode-array.js'

/** A parameter value that could not be decoded: answered with SQLSTATE 22P02. */
export class ParamError extends Error {
  override readonly name = 'ParamError'
}

/**
 * The JS value of one parameter given as `data` (null = SQL NULL; a string when the parser
 * already decoded its text) with type `oid` in `format`.
 */
export function decodeParam(data: Buffer | string | null, oid: number, format: FormatCode, index: number): unknown {
  if (data === null) return null
  if (oid === Oid.FLOAT8_ARRAY) return float8ArrayParam(data, format, index)
  const element = ARRAY_ELEMENT[oid]
  if (element !== undefined) {
    const items = typeof data === 'string' || format === 0 ? parseArrayText(String(data), index) : decodeBinaryArray(data, index)
    return items.map((x) => (x === null ? null : typeof x === 'string' ? decodeText(x, element, index) : decodeBinary(x, element, index)))
  }
  if (typeof data === 'string') return decodeText(data, oid, index)
  return format === 1 ? decodeBinary(data, oid, index) : decodeText(data.toString('utf8'), oid, index)
}

const NUMERIC_OR_BOOL: readonly number[] = [Oid.INT2, Oid.INT4, Oid.INT8, Oid.FLOAT4, Oid.FLOAT8, Oid.BOOL]

/**
 * Decodes a parameter the client declared as `declared` (0 = unspecified) and the adapter
 * inferred as `inferred`. Binary values of undeclared parameters are read as the inferred type
 * (the client encoded them after Describe said so). Text values of undeclared parameters become
 * numbers / booleans when the inferred type is one and the text reads as one (so `LIMIT $1`
 * with '10' works); otherwise they stay text for the engine to cast where they are used.
 */
export function decodeInferred(data: Buffer | string | null, declared: number, inferred: number, format: FormatCode, index: number): unknown {
  if (declared !== 0 || data === null) return decodeParam(data, declared, format, index)
  if (typeof data !== 'string') {
    if (format === 1) return decodeParam(data, inferred, format, index)
    data = data.toString('utf8')
  }
  if (!NUMERIC_OR_BOOL.includes(inferred)) return data
  try {
    return decodeText(data, inferred, index)
  } catch {
    return data
  }
}

/** oid[] (asyncpg's type introspection binds one, see asyncpg-typeinfo.ts). */
export const OID_ARRAY = 1028

/** The element type of each one-dimensional array type a parameter may be declared as. */
const ARRAY_ELEMENT: Readonly<Record<number, number>> = {
  [Oid.BOOL_ARRAY]: Oid.BOOL, [Oid.INT2_ARRAY]: Oid.INT2, [Oid.INT4_ARRAY]: Oid.INT4, [Oid.INT8_ARRAY]: Oid.INT8,
  [Oid.FLOAT4_ARRAY]: Oid.FLOAT4, [Oid.FLOAT8_ARRAY]: Oid.FLOAT8, [Oid.TEXT_ARRAY]: Oid.TEXT, [Oid.VARCHAR_ARRAY]: Oid.VARCHAR,
  [OID_ARRAY]: Oid.OID, [Oid.BPCHAR_ARRAY]: Oid.BPCHAR, [Oid.TIMESTAMP_ARRAY]: Oid.TIMESTAMP, [Oid.TIMESTAMPTZ_ARRAY]: Oid.TIMESTAMPTZ, [Oid.UUID_ARRAY]: Oid.UUID,
}

/**
 * The elements of a one-dimensional array literal in PostgreSQL's text form: `{a,"b c",NULL}`
 * (double quotes, backslash escapes, unquoted NULL). Elements stay text.
 */
export function parseArrayText(s: string, index: number): (string | null)[] {
  const bad = (why: string): ParamError => new ParamError(`invalid array for parameter $${index + 1} (${why}): "${s.length > 60 ? s.slice(0, 60) + '...' : s}"`)
  const t = s.trim()
  if (!t.startsWith('{') || !t.endsWith('}')) throw bad('not in braces')
  const out: (string | null)[] = []
  let i = 1
  const end = t.length - 1
  const skipSpace = (): void => { while (i < end && /\s/.test(t[i]!)) i++ }
  skipSpace()
  if (i === end) return out
  for (;;) {
    skipSpace()
    if (t[i] === '{') throw bad('only one dimension is supported')
    if (t[i] === '"') {
      let v = ''
      i++
      while (i < end && t[i] !== '"') { if (t[i] === '\\') i++; v += t[i] ?? ''; i++ }
      if (t[i] !== '"') throw bad('unterminated quote')
      i++
      out.push(v)
    } else {
      let v = ''
      while (i < end && t[i] !== ',') { if (t[i] === '\\') i++; v += t[i] ?? ''; i++ }
      v = v.trim()
      if (v === '') throw bad('empty element')
      out.push(v.toUpperCase() === 'NULL' ? null : v)
    }
    skipSpace()
    if (i === end) return out
    if (t[i] !== ',') throw bad('expected a comma')
    i++
  }
}

/** The elements of a one-dimensional array in PostgreSQL's binary form, as their bytes (null for NULL). */
function decodeBinaryArray(b: Buffer, index: number): (Buffer | null)[] {
  const bad = (): ParamError => new ParamError(`invalid binary array for parameter $${index + 1}`)
  if (b.length < 12) throw bad()
  const ndim = b.readInt32BE(0)
  if (ndim === 0) return []
  if (ndim !== 1) throw new ParamError(`array parameter $${index + 1} has ${ndim} dimensions; only one is supported`)
  if (b.length < 20) throw bad()
  const n = b.readInt32BE(12)
  if (n < 0) throw bad()
  const out: (Buffer | null)[] = []
  let at = 20
  for (let k = 0; k < n; k++) {
    if (at + 4 > b.length) throw bad()
    const len = b.readInt32BE(at)
    at += 4
    if (len === -1) { out.push(null); continue }
    if (len < 0 || at + len > b.length) throw bad()
    out.push(b.subarray(at, at + len))
    at += len
  }
  return out
}

function decodeText(s: string, oid: number, index: number): unknown {
  switch (oid) {
    case Oid.INT2: case Oid.INT4: case Oid.OID: case Oid.FLOAT4: case Oid.FLOAT8: {
      const x = Number(s)
      if (s.trim() === '' || Number.isNaN(x) && s.trim().toLowerCase() !== 'nan') throw new ParamError(`invalid input for parameter $${index + 1}: "${s}"`)
      return x
    }
    case Oid.INT8: {
      try { return BigInt(s.trim()) } catch { throw new ParamError(`invalid input for parameter $${index + 1} of type bigint: "${s}"`) }
    }
    case Oid.BOOL: {
      const t = s.trim().toLowerCase()
      if (['t', 'true', 'yes', 'on', '1', 'y'].includes(t)) return true
      if (['f', 'false', 'no', 'off', '0', 'n'].includes(t)) return false
      throw new ParamError(`invalid input for parameter $${index + 1} of type boolean: "${s}"`)
    }
    case Oid.UUID: return uuidText(s)
    default: return s
  }
}

/**
 * A UUID's text in the canonical dashed form. PostgreSQL also accepts it without dashes, in
 * braces or with a dash after any group of four digits (psycopg 3 sends `uuid.hex`); anything
 * else is left for the engine to reject.
 */
function uuidText(s: string): string {
  const hex = s.trim().replace(/^\{(.*)\}$/, '$1')
  if (!/^[0-9a-f]{4}(?:-?[0-9a-f]{4}){7}$/i.test(hex)) return s
  const h = hex.replace(/-/g, '')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

function need(b: Buffer, n: number, index: number, type: string): void {
  if (b.length !== n) throw new ParamError(`invalid binary ${type} for parameter $${index + 1}: ${b.length} bytes`)
}

function decodeBinary(b: Buffer, oid: number, index: number): unknown {
  switch (oid) {
    case Oid.BOOL: need(b, 1, index, 'bool'); return b[0] !== 0
    case Oid.INT2: need(b, 2, index, 'int2'); return b.readInt16BE(0)
    case Oid.INT4: case Oid.OID: need(b, 4, index, 'int4'); return b.readInt32BE(0)
    case Oid.INT8: need(b, 8, index, 'int8'); return b.readBigInt64BE(0)
    case Oid.FLOAT4: need(b, 4, index, 'float4'); return b.readFloatBE(0)
    case Oid.FLOAT8: need(b, 8, index, 'float8'); return b.readDoubleBE(0)
    case Oid.TIMESTAMP: case Oid.TIMESTAMPTZ: {
      need(b, 8, index, 'timestamp')
      return formatTimestamp(b.readBigInt64BE(0) + BigInt(PG_EPOCH_MICROS))
    }
    case Oid.DATE: {
      need(b, 4, index, 'date')
      return formatTimestamp((b.readInt32BE(0) * 86_400_000_000) + PG_EPOCH_MICROS).slice(0, 10)
    }
    case Oid.UUID: {
      need(b, 16, index, 'uuid')
      const h = b.toString('hex')
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
    }
    case Oid.BYTEA: return new Uint8Array(b)
    case Oid.NUMERIC: return decodeNumeric(b, index)
    case 0: case Oid.TEXT: case Oid.VARCHAR: case Oid.BPCHAR: case Oid.NAME: case Oid.UNKNOWN: case Oid.CHAR:
      return b.toString('utf8')
    default: throw new ParamError(`unsupported binary parameter type (OID ${oid}) for $${index + 1}`)
  }
}

/** PostgreSQL's binary numeric (base-10000 digits) as decimal text, then a number. */
function decodeNumeric(b: Buffer, index: number): unknown {
  const text = numericBinaryText(b, index)
  return text === 'NaN' ? Number.NaN : numericParamValue(text)
}

/** PostgreSQL's binary numeric (base-10000 digits) as exact decimal text (`NaN` for NaN). */
export function numericBinaryText(b: Buffer, index: number): string {
  if (b.length < 8) throw new ParamError(`invalid binary numeric for parameter $${index + 1}`)
  const ndigits = b.readInt16BE(0)
  const weight = b.readInt16BE(2)
  const sign = b.readUInt16BE(4)
  const dscale = b.readInt16BE(6)
  if (b.length !== 8 + ndigits * 2) throw new ParamError(`invalid binary numeric for parameter $${index + 1}`)
  if (sign === 0xc000) return 'NaN'
  let int = ''
  let frac = ''
  for (let i = 0; i < ndigits; i++) {
    const d = String(b.readInt16BE(8 + i * 2)).padStart(4, '0')
    if (i <= weight) int += d
    else frac += d
  }
  for (let i = ndigits; i <= weight; i++) int += '0000'
  if (weight < -1) frac = '0000'.repeat(-weight - 1) + frac
  return `${sign === 0x4000 ? '-' : ''}${int.replace(/^0+(?=\d)/, '') || '0'}${dscale > 0 ? '.' + frac.padEnd(dscale, '0').slice(0, dscale) : ''}`
}
