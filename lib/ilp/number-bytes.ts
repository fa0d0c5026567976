/**
 * Numbers of the line protocol read straight from bytes: integers (`123` of `123i`), floats in
 * QuestDB's accepted forms, and timestamps converted to microseconds from any unit.
 */

/** Units of line-protocol timestamps: ns, µs, ms, s, minutes, hours (the `precision` values). */
export type TimeUnit = 'n' | 'u' | 'ms' | 's' | 'm' | 'h'

const MAX_SAFE = Number.MAX_SAFE_INTEGER
const I64_MIN = -9223372036854775808n
const I64_MAX = 9223372036854775807n
/** Exact powers of ten (a double holds 10^0..10^22 exactly). */
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

/**
 * The signed decimal integer in `buf[s, e)` as a number when safe, else a bigint; undefined
 * when it is not an integer or not a 64-bit one.
 */
export function parseIntegerBytes(buf: Uint8Array, s: number, e: number): number | bigint | undefined {
  let neg = false
  let p = s
  if (buf[p] === 45) { neg = true; p++ } else if (buf[p] === 43) p++
  if (p >= e) return undefined
  if (e - p <= 15) {
    let v = 0
    for (; p < e; p++) {
      const d = buf[p]! - 48
      if (d < 0 || d > 9) return undefined
      v = v * 10 + d
    }
    return neg ? -v : v
  }
  let text = ''
  for (; p < e; p++) {
    const c = buf[p]!
    if (c < 48 || c > 57) return undefined
    text += String.fromCharCode(c)
  }
  const b = neg ? -BigInt(text) : BigInt(text)
  if (b < I64_MIN || b > I64_MAX) return undefined
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b
}

/** QuestDB's float forms: decimal with optional fraction and exponent, NaN, Infinity. */
const FLOAT_TEXT = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|NaN|Infinity)$/

/**
 * The float in `buf[s, e)`, or undefined when it is not one (or overflows to infinity from a
 * finite text). Plain `123.45` forms whose digits fit 2^53 are computed exactly without a string.
 */
export function parseFloatBytes(buf: Uint8Array, s: number, e: number): number | undefined {
  let p = s
  let neg = false
  if (buf[p] === 45) { neg = true; p++ } else if (buf[p] === 43) p++
  let mant = 0
  let digits = 0
  let frac = -1
  for (; p < e; p++) {
    const c = buf[p]!
    if (c === 46) { if (frac >= 0) return undefined; frac = 0; continue }
    const d = c - 48
    if (d < 0 || d > 9) break
    mant = mant * 10 + d
    digits++
    if (frac >= 0) frac++
  }
  if (p === e && digits > 0 && mant <= MAX_SAFE && frac <= 22) {
    const v = frac > 0 ? mant / POW10[frac]! : mant
    return neg ? -v : v
  }
  const text = Buffer.from(buf.buffer, buf.byteOffset + s, e - s).toString('latin1')
  if (!FLOAT_TEXT.test(text)) return undefined
  const v = Number(text)
  if (!Number.isFinite(v) && !/Infinity|NaN/.test(text)) return undefined
  return v
}

/**
 * The nanoseconds past the microsecond of the last timestamp read ({@link timestampToMicros}, the
 * binary timestamps): what a TIMESTAMP_NS column keeps of an `n` value (0 for other units and
 * negative values), and whether that timestamp was below zero with the nanoseconds past its
 * (negative) microsecond: `-5` nanoseconds is 0 µs, yet before 1970 for a TIMESTAMP_NS designated
 * timestamp.
 */
export const LAST_SUB_MICROS = { nanos: 0, negative: false, negativeNanos: 0 }

/**
 * The integer in `buf[s, e)`, given in `unit`, as microseconds (nanoseconds truncated toward
 * zero, as QuestDB's integer division). Undefined when it is not an integer; ±Infinity when it
 * is beyond ±2^53 µs (year 2255).
 */
export function timestampToMicros(buf: Uint8Array, s: number, e: number, unit: TimeUnit): number | undefined {
  let p = s
  let neg = false
  LAST_SUB_MICROS.nanos = 0
  LAST_SUB_MICROS.negative = false
  LAST_SUB_MICROS.negativeNanos = 0
  if (buf[p] === 45) { neg = true; p++ }
  if (p >= e) return undefined
  // nanoseconds: the last three digits are dropped (but checked), and kept aside for TIMESTAMP_NS columns
  const stop = unit === 'n' ? Math.max(p, e - 3) : e
  let v = 0
  for (let i = p; i < stop; i++) { const d = buf[i]! - 48; if (d < 0 || d > 9) return undefined; v = v * 10 + d }
  let sub = 0
  for (let i = stop; i < e; i++) { const c = buf[i]!; if (c < 48 || c > 57) return undefined; sub = sub * 10 + c - 48 }
  if (!neg) LAST_SUB_MICROS.nanos = sub
  else { LAST_SUB_MICROS.negative = v !== 0 || sub !== 0; LAST_SUB_MICROS.negativeNanos = sub }
  if (unit !== 'n' && unit !== 'u') v *= unit === 'ms' ? 1000 : unit === 's' ? 1_000_000 : unit === 'm' ? 60_000_000 : 3_600_000_000
  if (v > MAX_SAFE) return neg ? -Infinity : Infinity
  return neg ? -v : v
}

/** A decimal as QuestDB's protocol 3 sends it: the unscaled integer and its scale. */
export interface DecimalValue {
  readonly unscaled: bigint
  readonly scale: number
}

/**
 * The protocol-3 text decimal in `buf[s, e)` (without its `d` suffix): `[+-]digits[.digits]`
 * with an optional exponent; `null` for `NaN` / `Infinity` (a null decimal); undefined when it is
 * not a decimal.
 */
export function parseDecimalBytes(buf: Uint8Array, s: number, e: number): DecimalValue | null | undefined {
  return parseDecimalText(Buffer.from(buf.buffer, buf.byteOffset + s, e - s).toString('latin1'))
}

/** {@link parseDecimalBytes} of a string (a float or string field going into a DECIMAL column). */
export function parseDecimalText(text: string): DecimalValue | null | undefined {
  const neg = text.startsWith('-')
  const rest = neg || text.startsWith('+') ? text.slice(1) : text
  if (rest === 'NaN' || rest === 'Infinity') return rest === 'Infinity' || rest === text ? null : undefined
  const m = /^(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,3}))?$/.exec(rest)
  if (m === null || (m[1] === '' && (m[2] ?? '') === '')) return undefined
  const frac = m[2] ?? ''
  let scale = frac.length - (m[3] === undefined ? 0 : Number(m[3]))
  let unscaled = BigInt(m[1]! + frac)
  if (scale < 0) { unscaled *= 10n ** BigInt(-scale); scale = 0 }
  return { unscaled: neg ? -unscaled : unscaled, scale }
}

/** The big-endian two's-complement integer of `buf[s, s + len)` (protocol 3's binary decimal). */
export function twosComplementBE(buf: Uint8Array, s: number, len: number): bigint {
  let v = 0n
  for (let i = 0; i < len; i++) v = (v << 8n) | BigInt(buf[s + i]!)
  return len > 0 && buf[s]! >= 0x80 ? v - (1n << BigInt(8 * len)) : v
}
