/**
 * Casts to and from TIMESTAMP_NS, value by value and vector by vector, as QuestDB 9 does them:
 * TIMESTAMP (µs) × 1000, DATE (ms) × 1 000 000, back by Java's truncating division; LONG and
 * the other integers are nanoseconds as they are; doubles truncate; text parses as an ISO
 * literal with up to nine fraction digits (else an integer of nanoseconds) and prints with nine.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../errors.js'
import { type ColumnType, LONG_NULL } from './column-type.js'
import type { Scalar, Vector, I64Vector } from './vector.js'
import { parseLongText } from './text-parse.js'
import { joinNs, nsBig, nsOfParts, nsScalar, nsToMicros, parseTimestampNs, splitNs } from './timestamp-ns.js'
import { parseTimestampParts } from './timestamp.js'
import { formatValue } from './value-format.js'

const MAX_SAFE = Number.MAX_SAFE_INTEGER

/** Parses text as a TIMESTAMP_NS: an ISO literal, else an integer of nanoseconds; undefined when neither. */
export function parseTimestampNsText(text: string): number | bigint | null | undefined {
  const t = parseTimestampNs(text)
  if (t !== null) return t
  return parseLongText(text)
}

function times(x: number | bigint, k: bigint, position: number): number | bigint {
  const y = nsBig(x) * k
  if (y !== BigInt.asIntN(64, y) || y === -9223372036854775808n) throw new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, `timestamp out of range for TIMESTAMP_NS: ${String(x)}`, position)
  return nsScalar(y)
}

function truncDiv(x: number | bigint, k: number): number | bigint {
  if (typeof x === 'number' && Math.abs(x) <= MAX_SAFE) return Math.trunc(x / k) + 0
  return nsScalar(nsBig(x) / BigInt(k))
}

/**
 * Casts one non-null value where `from` or `to` is TIMESTAMP_NS (and `to` is not text, which
 * prints through `formatValue`). Bad text raises 22P02 unless `onBadText` is `'null'`;
 * TIMESTAMP or DATE values past TIMESTAMP_NS's range (about 1677–2262) raise 22003.
 */
export function castNsScalar(value: Scalar, from: ColumnType, to: ColumnType, onBadText: 'throw' | 'null' = 'throw', position = -1): Scalar {
  if (value === null) return null
  if (from === to) return value
  if (to === 'TIMESTAMP_NS') {
    switch (from) {
      case 'STRING': case 'VARCHAR': case 'SYMBOL': case 'CHAR': {
        const parts = parseTimestampParts(String(value))
        if (parts !== null) {
          const ns = nsOfParts(parts)
          if (ns !== BigInt.asIntN(64, ns) || ns === -9223372036854775808n) throw new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, `timestamp out of range for TIMESTAMP_NS: ${String(value)}`, position)
          return nsScalar(ns)
        }
        const v = parseTimestampNsText(String(value))
        if (v !== undefined) return v
        if (onBadText === 'null') return null
        throw new SqlError(SqlState.INVALID_TEXT_REPRESENTATION, `inconvertible value: \`${String(value)}\` [${from} -> TIMESTAMP_NS]`, position)
      }
      case 'TIMESTAMP': return times(value as number | bigint, 1000n, position)
      case 'DATE': return times(value as number | bigint, 1_000_000n, position)
      case 'FLOAT': case 'DOUBLE': {
        const d = Number(value)
        if (!Number.isFinite(d)) return null
        const t = Math.trunc(d)
        return Math.abs(t) <= MAX_SAFE ? t + 0 : nsScalar(BigInt.asIntN(64, BigInt(t)))
      }
      case 'BOOLEAN': return value === true ? 1 : 0
      default: return typeof value === 'bigint' || typeof value === 'number' ? value : null
    }
  }
  // from TIMESTAMP_NS
  const x = value as number | bigint
  switch (to) {
    case 'TIMESTAMP': return nsToMicros(x)
    case 'DATE': return truncDiv(x, 1_000_000)
    case 'LONG': return x
    case 'DOUBLE': return Number(x)
    case 'FLOAT': return Math.fround(Number(x))
    case 'INT': { const v = Number(BigInt.asIntN(32, nsBig(x))); return v === -2147483648 ? null : v }
    case 'SHORT': return Number(BigInt.asIntN(16, nsBig(x)))
    case 'BYTE': return Number(BigInt.asIntN(8, nsBig(x)))
    case 'BOOLEAN': return nsBig(x) !== 0n
    default: return formatValue('TIMESTAMP_NS', x)
  }
}

/**
 * Vector casts between TIMESTAMP and TIMESTAMP_NS (and LONG ↔ TIMESTAMP_NS, a relabel) without
 * a BigInt per value; undefined for the other pairs (the caller's value-by-value path).
 */
export function castNsVector(v: Vector, to: ColumnType): Vector | undefined {
  if (v.kind !== 'i64') return undefined
  const n = v.isConst ? 1 : v.length
  if (to === 'TIMESTAMP_NS' && (v.type === 'LONG')) return { ...v, type: to }
  if (v.type === 'TIMESTAMP_NS' && to === 'LONG') return { ...v, type: to }
  if (to === 'TIMESTAMP_NS' && v.type === 'TIMESTAMP' && v.data instanceof Float64Array) {
    return joinNs(v.data.length === n ? v.data : v.data.subarray(0, n), undefined, v.length, v.isConst)
  }
  if (v.type === 'TIMESTAMP_NS' && to === 'TIMESTAMP') {
    const { micros, sub } = splitNs(v as I64Vector, n)
    // Java truncates toward zero: a negative value with a remainder rounds up
    for (let i = 0; i < n; i++) if (sub[i]! !== 0 && micros[i]! < 0 && micros[i] !== LONG_NULL) micros[i]! += 1
    return { kind: 'i64', type: 'TIMESTAMP', length: v.length, isConst: v.isConst, data: micros }
  }
  if (v.type === 'TIMESTAMP_NS' && to === 'DATE') {
    // milliseconds truncated toward zero, as QuestDB's NanosTimestampDriver.toDate divides
    const { micros, sub } = splitNs(v as I64Vector, n)
    const out = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      const m = micros[i]!
      if (m === LONG_NULL) { out[i] = LONG_NULL; continue }
      const f = Math.floor(m / 1000)
      out[i] = m < 0 && (sub[i]! !== 0 || f * 1000 !== m) ? f + 1 : f
    }
    return { kind: 'i64', type: 'DATE', length: v.length, isConst: v.isConst, data: out }
  }
  return undefined
}
