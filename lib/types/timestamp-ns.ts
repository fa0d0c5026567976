/**
 * TIMESTAMP_NS values: 64-bit nanoseconds since the epoch (QuestDB 9's nanosecond timestamp),
 * null -2^63 like every 64-bit type. Parsing literals with up to nine fraction digits, printing
 * as QuestDB prints them (`2024-01-01T00:00:00.123456789Z`, always nine digits), and the split
 * of a nanosecond value into whole microseconds plus a 0–999 nanosecond remainder that lets the
 * microsecond calendar code (civil.ts, calendar.ts) serve nanosecond values too.
 *
 * In vectors TIMESTAMP_NS has the i64 layout (vector.ts): current-day values are past 2^53, so a
 * vector is a BigInt64Array. Kernels do not read it value by value as bigints: {@link splitNs}
 * reads the two 32-bit halves of each value and {@link joinNs} writes them back, in plain number
 * arithmetic (no BigInt per row).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { LONG_NULL } from './column-type.js'
import type { I64Vector } from './vector.js'
import { daysFromCivil } from './civil.js'
import { formatTimestamp, parseTimestampParts, type TimestampParts } from './timestamp.js'

/** Nanoseconds in a microsecond. */
export const NANOS_PER_MICRO = 1000
/** The null sentinel as a bigint. */
export const NS_NULL_BIG = -9223372036854775808n
const MAX_SAFE = Number.MAX_SAFE_INTEGER
const TWO32 = 4294967296

/** An i64 scalar: a number when safe, else a bigint. */
export function nsScalar(x: bigint): number | bigint {
  return x >= -9007199254740991n && x <= 9007199254740991n ? Number(x) : x
}

/** The bigint form of an i64 scalar. */
export function nsBig(x: number | bigint): bigint {
  return typeof x === 'bigint' ? x : BigInt(x)
}

/** Nanoseconds since the epoch (UTC) of parsed literal fields. */
export function nsOfParts(p: TimestampParts): bigint {
  const sec = daysFromCivil(p.year, p.month, p.day) * 86400 + p.hour * 3600 + p.minute * 60 + p.second
  return BigInt(sec) * 1_000_000_000n + BigInt(p.micros * 1000 + p.nanos) - BigInt(p.offsetMicros) * 1000n
}

/**
 * Parses a timestamp literal to nanoseconds: any ISO prefix QuestDB accepts (see
 * `parseTimestampParts`), with up to nine fraction digits kept exactly. Null when not one.
 *
 * @example
 * ```ts
 * parseTimestampNs('2024-01-01T00:00:00.123456789Z') // 1704067200123456789n
 * ```
 */
export function parseTimestampNs(text: string): number | bigint | null {
  const p = parseTimestampParts(text)
  if (p === null) return null
  const ns = nsOfParts(p)
  // outside the 64-bit range (before 1677-09-21 or after 2262-04-11): not a TIMESTAMP_NS
  return ns === BigInt.asIntN(64, ns) && ns !== NS_NULL_BIG ? nsScalar(ns) : null
}

/**
 * The inclusive nanosecond interval a literal covers in `ts IN '...'` on a TIMESTAMP_NS column:
 * `'2024-01-01'` is the whole day, a nine-digit literal a single nanosecond.
 */
export function parseTimestampNsPeriod(text: string): { lo: bigint; hi: bigint } | null {
  const p = parseTimestampParts(text)
  if (p === null) return null
  const lo = nsOfParts(p)
  let end: bigint
  switch (p.precision) {
    case 'year': end = BigInt(daysFromCivil(p.year + 1, 1, 1)) * 86_400_000_000_000n - BigInt(p.offsetMicros) * 1000n; break
    case 'month': end = BigInt(p.month === 12 ? daysFromCivil(p.year + 1, 1, 1) : daysFromCivil(p.year, p.month + 1, 1)) * 86_400_000_000_000n - BigInt(p.offsetMicros) * 1000n; break
    case 'day': end = lo + 86_400_000_000_000n; break
    case 'hour': end = lo + 3_600_000_000_000n; break
    case 'minute': end = lo + 60_000_000_000n; break
    case 'second': end = lo + 1_000_000_000n; break
    case 'fraction': end = lo + 10n ** BigInt(Math.max(0, 9 - p.fractionDigits)); break
  }
  return { lo, hi: end - 1n }
}

/** Floor division of a 64-bit value by 1000 and its remainder (0–999), from its 32-bit halves. */
function splitHalves(lo: number, hi: number, out: Float64Array, sub: Uint16Array, i: number): void {
  // hi * 2^32 = hi * 4294967 * 1000 + hi * 296, so floor(v / 1000) = hi * 4294967 + floor((hi * 296 + lo) / 1000), exactly
  const r = hi * 296 + lo
  const q = Math.floor(r / 1000)
  out[i] = hi * 4294967 + q
  sub[i] = r - q * 1000
}

/** A TIMESTAMP_NS vector as whole microseconds (null stays LONG_NULL) and nanosecond remainders. */
export interface NsSplit {
  /** floor(ns / 1000), LONG_NULL for null */
  readonly micros: Float64Array
  /** ns - micros * 1000, 0–999 */
  readonly sub: Uint16Array
}

/**
 * Splits the first `n` values of an i64 vector of nanoseconds (either representation) into
 * microseconds and remainders, without a BigInt per value. A constant vector gives one value.
 */
export function splitNs(v: I64Vector, n: number): NsSplit {
  const m = v.isConst ? 1 : n
  const micros = new Float64Array(m)
  const sub = new Uint16Array(m)
  const d = v.data
  if (d instanceof BigInt64Array) {
    const w = new Uint32Array(d.buffer, d.byteOffset, m * 2)
    for (let i = 0; i < m; i++) {
      const lo = w[2 * i]!, hi = w[2 * i + 1]! | 0
      if (hi === -2147483648 && lo === 0) { micros[i] = LONG_NULL; continue }
      splitHalves(lo, hi, micros, sub, i)
    }
  } else {
    for (let i = 0; i < m; i++) {
      const x = d[i]!
      if (x === LONG_NULL) { micros[i] = LONG_NULL; continue }
      let q = Math.floor(x / 1000)
      if (q * 1000 > x) q--
      micros[i] = q
      sub[i] = x - q * 1000
    }
  }
  return { micros, sub }
}

/**
 * Nanoseconds `micros[i] * 1000 + sub[i]` (sub absent: 0) as an i64 vector of `type`, written
 * through the 32-bit halves of a BigInt64Array; a LONG_NULL (or non-finite) micros gives null.
 * Values wrap modulo 2^64 like Java's long arithmetic.
 */
export function joinNs(micros: Float64Array, sub: Uint16Array | undefined, length: number, isConst = false, type: 'TIMESTAMP_NS' | 'LONG' = 'TIMESTAMP_NS'): I64Vector {
  const m = micros.length
  const data = new BigInt64Array(m)
  const w = new Uint32Array(data.buffer)
  for (let i = 0; i < m; i++) {
    const x = micros[i]!
    if (x === LONG_NULL || !Number.isFinite(x)) { w[2 * i] = 0; w[2 * i + 1] = 0x80000000; continue }
    const mh = Math.floor(x / TWO32)
    const ml = x - mh * TWO32
    const t = ml * 1000 + (sub === undefined ? 0 : sub[i]!)
    const carry = Math.floor(t / TWO32)
    w[2 * i] = t - carry * TWO32
    w[2 * i + 1] = (mh * 1000 + carry) | 0
  }
  return { kind: 'i64', type, length, data, isConst }
}

/** Reads one value of an i64 nanosecond vector as microseconds (floor) and a remainder. */
export function nsParts(x: number | bigint): { micros: number; sub: number } {
  if (typeof x === 'number') {
    let q = Math.floor(x / 1000)
    if (q * 1000 > x) q--
    return { micros: q, sub: x - q * 1000 }
  }
  let q = x / 1000n
  if (q * 1000n > x) q -= 1n
  return { micros: Number(q), sub: Number(x - q * 1000n) }
}

/** Nanoseconds of `micros * 1000 + sub` as an i64 scalar (number when safe). */
export function nsOf(micros: number, sub = 0): number | bigint {
  const y = micros * 1000 + sub
  if (Math.abs(y) <= MAX_SAFE) return y
  return BigInt.asIntN(64, BigInt(micros) * 1000n + BigInt(sub))
}

const SUB3: string[] = []
for (let k = 0; k < 1000; k++) SUB3.push(String(k + 1000).slice(1))

/**
 * Prints nanoseconds since the epoch as QuestDB prints a TIMESTAMP_NS:
 * `yyyy-MM-ddTHH:mm:ss.SSSUUUNNNZ`, always nine fraction digits.
 *
 * @example
 * ```ts
 * formatTimestampNs(1704067200123456789n) // '2024-01-01T00:00:00.123456789Z'
 * ```
 */
export function formatTimestampNs(ns: number | bigint): string {
  const { micros, sub } = nsParts(ns)
  return formatNsParts(micros, sub)
}

/** {@link formatTimestampNs} of already split parts (a microsecond value and its 0–999 remainder). */
export function formatNsParts(micros: number, sub: number): string {
  const t = formatTimestamp(micros)
  return t.slice(0, -1) + SUB3[sub]! + 'Z'
}

/** Microseconds (TIMESTAMP) of nanoseconds, truncated toward zero as Java's `nanos / 1000`. */
export function nsToMicros(x: number | bigint): number | bigint {
  if (typeof x === 'number') return Math.trunc(x / 1000) + 0
  return nsScalar(x / 1000n)
}

/**
 * A designated timestamp value in microseconds, whatever the column's unit: TIMESTAMP values as
 * they are, TIMESTAMP_NS values floored to the microsecond (exactly). Partition bounds and names
 * are kept in microseconds for both units.
 */
export function timestampMicros(type: string, x: number | bigint): number {
  return type === 'TIMESTAMP_NS' ? nsParts(x).micros : Number(x)
}

/**
 * Microsecond scan intervals as bounds on a TIMESTAMP_NS column's raw values, for binary searches
 * that compare values as doubles: widened by a margin past double rounding (256 ns at today's
 * values), so the rows found cover the intervals; the filter above the scan decides exactly.
 */
export function nsScanBounds(intervals: Float64Array): Float64Array {
  const out = new Float64Array(intervals.length)
  for (let k = 0; k < intervals.length; k += 2) {
    const lo = intervals[k]!, hi = intervals[k + 1]!
    out[k] = lo === -Infinity ? lo : lo * 1000 - 1024
    out[k + 1] = hi === Infinity ? hi : hi * 1000 + 999 + 1024
  }
  return out
}
