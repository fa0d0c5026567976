/**
 * Value text written straight into a {@link ByteWriter}, byte for byte what the string formatters
 * of `lib/types` print (`String(n)`, `formatDouble`, `formatTimestamp`), without building a
 * string where the digits can be written directly: integers digit by digit, timestamps from
 * their integer fields (the date part cached per day), doubles through `String()` only for the
 * shortest round-trip digits.
 */
import { formatDouble } from './number-format.js'
import { formatTimestamp } from './timestamp.js'
import type { ByteWriter } from './byte-writer.js'

const TWO_31 = 2147483648
const MICROS_PER_DAY = 86_400_000_000

/** Digits of a non-negative integer below 2^31 written backwards ending at `end` (exclusive); returns the start. */
function smallDigits(b: Uint8Array, end: number, n: number): number {
  let p = end
  do {
    const q = (n / 10) | 0
    b[--p] = 48 + (n - q * 10)
    n = q
  } while (n !== 0)
  return p
}

/** Number of decimal digits of a non-negative integer. */
function digitCount(n: number): number {
  let len = 1
  while (n >= 10) { n = Math.floor(n / 10); len++ }
  return len
}

/** An integer as `String(n)` prints it (safe integers; anything else goes through `String`). */
export function writeInt(s: ByteWriter, n: number): void {
  s.ensure(24)
  const b = s.buf
  let p = s.pos
  if (n < 0) { b[p++] = 45; n = -n }
  if (n < TWO_31) {
    const len = n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : n < 100000 ? 5 : digitCount(n)
    smallDigits(b, p + len, n)
    s.pos = p + len
    return
  }
  if (n > Number.MAX_SAFE_INTEGER) { s.pos = p; s.ascii(String(n)); return }
  const len = digitCount(n)
  let q = p + len
  while (n >= TWO_31) {
    const d = Math.floor(n / 10)
    b[--q] = 48 + (n - d * 10)
    n = d
  }
  smallDigits(b, q, n)
  s.pos = p + len
}

const P10: number[] = []
for (let k = 0; k <= 22; k++) P10.push(Number('1e' + k))

/**
 * Writes `a` (1e-3 <= a < 1e7, not an integer) in fixed notation when its shortest round-trip
 * decimal has at most 15 significant digits, and returns false (nothing written) otherwise.
 *
 * Any decimal of up to 15 significant digits reads back to a distinct double (DBL_DIG), so the
 * shortest one is unique and is found as the fewest fraction digits `f` whose rounding
 * `m = round(a * 10^f)` reads back: `m / 10^f`, both operands exact, is correctly rounded, which
 * is what parsing the decimal gives. Below 10^15 the product's rounding error cannot move `m` off
 * the decimal that reads back, so no shorter one is missed. The 15-digit check comes first, so a
 * double that needs 16 or 17 digits costs one multiplication before `String()`.
 */
function fixedShortest(s: ByteWriter, a: number, negative: boolean): boolean {
  const e = a >= 1
    ? (a >= 1e3 ? (a >= 1e5 ? (a >= 1e6 ? 6 : 5) : (a >= 1e4 ? 4 : 3)) : (a >= 100 ? 2 : a >= 10 ? 1 : 0))
    : (a >= 0.1 ? -1 : a >= 0.01 ? -2 : -3)
  const maxF = 14 - e
  const top = P10[maxF]!
  if (Math.round(a * top) / top !== a) return false
  let f = 1
  let scale = 10
  let m = Math.round(a * 10)
  while (m / scale !== a) { f++; scale = P10[f]!; m = Math.round(a * scale) }
  const int = Math.floor(m / scale)
  let frac = m - int * scale
  if (negative) s.byte(45)
  writeInt(s, int)
  s.ensure(f + 1)
  const b = s.buf
  const p = s.pos
  b[p] = 46
  let q = p + f
  while (frac >= TWO_31) { const d = Math.floor(frac / 10); b[q--] = 48 + (frac - d * 10); frac = d }
  while (q > p) { const d = (frac / 10) | 0; b[q--] = 48 + (frac - d * 10); frac = d }
  s.pos = p + f + 1
  return true
}

/**
 * Writes `a` (1e-3 <= a < 1e6, not an integer) when one or two fraction digits read back to it
 * (TSBS's metrics, prices), from the one integer `m = round(a * 100)`: `m / 100`, both operands
 * exact, is what parsing that decimal gives, and a one-digit decimal is the case `m % 10 === 0`.
 * Returns false (nothing written) otherwise.
 */
function centiDigits(s: ByteWriter, a: number, negative: boolean): boolean {
  const m = Math.round(a * 100)
  if (m / 100 !== a) return false
  const int = (m / 100) | 0
  let frac = m - int * 100
  const one = frac % 10 === 0
  if (one) frac /= 10
  const len = int < 10 ? 1 : int < 100 ? 2 : int < 1000 ? 3 : int < 10000 ? 4 : int < 100000 ? 5 : 6
  s.ensure(len + 4)
  const b = s.buf
  let p = s.pos
  if (negative) b[p++] = 45
  smallDigits(b, p + len, int)
  p += len
  b[p++] = 46
  if (one) b[p++] = 48 + frac
  else { const t = (frac / 10) | 0; b[p] = 48 + t; b[p + 1] = 48 + frac - t * 10; p += 2 }
  s.pos = p
  return true
}

/** A finite double as `formatDouble` prints it (Java's `Double.toString`). */
export function writeDouble(s: ByteWriter, x: number): void {
  const negative = x < 0
  const a = negative ? -x : x
  if (a >= 1e-3 && a < 1e7) {
    if (a >= 1 && Number.isInteger(a)) {
      if (negative) s.byte(45)
      writeInt(s, a)
      s.ensure(2)
      s.buf[s.pos++] = 46
      s.buf[s.pos++] = 48
      return
    }
    if (a < 1e6 && centiDigits(s, a, negative)) return
    if (fixedShortest(s, a, negative)) return
    if (negative) s.byte(45)
    s.ascii(String(a))
    return
  }
  s.ascii(formatDouble(x))
}

const f64 = new Float64Array(1)
const f64Bytes = new Uint8Array(f64.buffer)
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

/** A double as 8 big-endian IEEE bytes. */
export function writeFloat64BE(s: ByteWriter, x: number): void {
  s.ensure(8)
  f64[0] = x
  const b = s.buf
  const p = s.pos
  if (LITTLE_ENDIAN) {
    b[p] = f64Bytes[7]!; b[p + 1] = f64Bytes[6]!; b[p + 2] = f64Bytes[5]!; b[p + 3] = f64Bytes[4]!
    b[p + 4] = f64Bytes[3]!; b[p + 5] = f64Bytes[2]!; b[p + 6] = f64Bytes[1]!; b[p + 7] = f64Bytes[0]!
  } else {
    for (let k = 0; k < 8; k++) b[p + k] = f64Bytes[k]!
  }
  s.pos = p + 8
}

/** A safe integer as a big-endian two's-complement int64. */
export function writeInt64BE(s: ByteWriter, v: number): void {
  const hi = Math.floor(v / 4294967296)
  const lo = v - hi * 4294967296
  s.int32(hi)
  s.int32(lo)
}

/**
 * Timestamps (microseconds since the epoch, safe integers) as `formatTimestamp` prints them,
 * `yyyy-MM-ddTHH:mm:ss.SSSUUUZ`, with `sep` in place of `T` and the `Z` optional. The date part
 * is formatted once per day (by `formatTimestamp` itself, so years before 1 or past 9999 print
 * the same) and its bytes reused while rows stay in that day.
 */
export class TimestampText {
  private day = NaN
  private prefix: Uint8Array = new Uint8Array(0)

  /** @param sep the byte between date and time (`T` 84 or space 32); @param zulu end with `Z` */
  constructor(private readonly sep: number, private readonly zulu: boolean) {}

  /** Writes `micros` (a safe integer). */
  write(s: ByteWriter, micros: number): void {
    let days = Math.floor(micros / MICROS_PER_DAY)
    let inDay = micros - days * MICROS_PER_DAY
    if (inDay < 0) { days--; inDay += MICROS_PER_DAY } else if (inDay >= MICROS_PER_DAY) { days++; inDay -= MICROS_PER_DAY }
    if (days !== this.day) {
      const text = formatTimestamp(days * MICROS_PER_DAY)
      const date = text.slice(0, text.indexOf('T'))
      this.prefix = Uint8Array.from(date, (c) => c.charCodeAt(0))
      this.day = days
    }
    s.bytes(this.prefix)
    s.ensure(17)
    const b = s.buf
    let p = s.pos
    const sec = Math.floor(inDay / 1_000_000)
    const frac = inDay - sec * 1_000_000
    const h = (sec / 3600) | 0
    const rem = sec - h * 3600
    const m = (rem / 60) | 0
    const ss = rem - m * 60
    b[p] = this.sep
    b[p + 1] = 48 + ((h / 10) | 0); b[p + 2] = 48 + (h % 10); b[p + 3] = 58
    b[p + 4] = 48 + ((m / 10) | 0); b[p + 5] = 48 + (m % 10); b[p + 6] = 58
    b[p + 7] = 48 + ((ss / 10) | 0); b[p + 8] = 48 + (ss % 10)
    smallDigits(b, p + 16, frac + 1_000_000) // seven digits: the leading 1 lands on the dot's place
    b[p + 9] = 46
    p += 16
    if (this.zulu) b[p++] = 90
    s.pos = p
  }
}

/**
 * The encoded cell of each symbol key, made once per dictionary: result encoders (pgwire
 * DataRows, REST JSON and CSV) write a repeated symbol as a copy of bytes, not by encoding its
 * string again. A vector with another dictionary starts a new cache.
 */
export class SymbolCells {
  private dict: readonly string[] | undefined
  private cache: (Uint8Array | undefined)[] = []

  /** @param encode the cell of one symbol string, in the encoder's format */
  constructor(private readonly encode: (s: string) => Uint8Array) {}

  /** Switches to the dictionary `values` (a vector's `dict.values`); a new one empties the cache. */
  use(values: readonly string[]): void {
    if (values !== this.dict) { this.dict = values; this.cache = [] }
  }

  /** The cell of key `k` (0 or more) of the current dictionary. */
  cell(k: number): Uint8Array {
    return this.cache[k] ??= this.encode(this.dict![k]!)
  }
}
