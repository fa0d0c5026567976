/**
 * Java-style printing of DOUBLE and FLOAT values, as QuestDB prints them in its text outputs:
 * the shortest digits that round-trip, in fixed notation with at least one fraction digit when
 * 1e-3 <= |v| < 1e7 (`30.0`, `0.001`, `1234567.0`) and `d.dddE<exp>` otherwise (`1.0E7`,
 * `2.877924760262829E-4`). `-0.0` keeps its sign. JavaScript's `toString` would print `30` and
 * `1e-7`, so the digits are reformatted here.
 *
 * Browser-safe: imports nothing from `node:*`.
 */

const readFloat = (s: string): number => Math.fround(Number(s))

/** Non-finite values print as Java does; callers normally print null for them instead. */
function nonFinite(x: number): string {
  return Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity'
}

/**
 * Lays out a decimal `digits` (no leading/trailing zeros, at least one digit) times
 * 10^`exp` (the exponent of the first digit) in Java's `Double.toString` style.
 */
function layout(negative: boolean, digits: string, exp: number): string {
  const sign = negative ? '-' : ''
  if (exp >= -3 && exp < 7) {
    if (exp < 0) return sign + '0.' + '0'.repeat(-exp - 1) + digits
    const intLen = exp + 1
    if (digits.length <= intLen) return sign + digits + '0'.repeat(intLen - digits.length) + '.0'
    return sign + digits.slice(0, intLen) + '.' + digits.slice(intLen)
  }
  return sign + digits[0] + '.' + (digits.length > 1 ? digits.slice(1) : '0') + 'E' + exp
}

/** Splits `toExponential`/`toPrecision` output (`d.ddde±x`) into layout(). */
function fromExponential(negative: boolean, e: string): string {
  const at = e.indexOf('e')
  const mant = e.slice(0, at)
  let digits = mant.length > 1 ? mant[0] + mant.slice(2) : mant
  let end = digits.length
  while (end > 1 && digits.charCodeAt(end - 1) === 48) end--
  digits = digits.slice(0, end)
  return layout(negative, digits, Number(e.slice(at + 1)))
}

/**
 * Prints a double like Java's `Double.toString` with shortest round-trip digits (QuestDB's
 * `Numbers.append(double)`).
 *
 * @example
 * ```ts
 * formatDouble(30)       // '30.0'
 * formatDouble(1e7)      // '1.0E7'
 * formatDouble(-0)       // '-0.0'
 * ```
 */
export function formatDouble(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0'
  if (!Number.isFinite(x)) return nonFinite(x)
  const negative = x < 0
  const a = negative ? -x : x
  if (a < 1e7 && a >= 1 && Number.isInteger(a)) return (negative ? '-' : '') + a + '.0'
  if (a >= 1e-3 && a < 1e7) {
    const s = String(a)
    // String() gives fixed notation with shortest digits in this range (it switches at 1e-7 / 1e21)
    return negative ? '-' + s : s
  }
  return fromExponential(negative, twoDigits(a, a.toExponential(), Number))
}

/**
 * Java (and QuestDB) never print a single significant digit when a closer two-digit decimal also
 * reads back (`4.9E-324`, not `5.0E-324`); this matters only for subnormal values.
 */
function twoDigits(a: number, e: string, read: (s: string) => number): string {
  if (e.indexOf('.') >= 0) return e
  const e2 = a.toExponential(1)
  return read(e2) === a ? e2 : e
}

/**
 * Prints a float (a double holding a float32 value) like Java's `Float.toString`: the shortest
 * decimal that reads back to the same float32, laid out as {@link formatDouble} does.
 *
 * @example
 * ```ts
 * formatFloat(Math.fround(0.1))    // '0.1'
 * formatFloat(Math.fround(1 / 3))  // '0.33333334'
 * ```
 */
export function formatFloat(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0'
  if (!Number.isFinite(x)) return nonFinite(x)
  const f = Math.fround(x)
  const negative = f < 0
  const a = negative ? -f : f
  if (a < 1e7 && a >= 1 && Number.isInteger(a)) return (negative ? '-' : '') + a + '.0'
  for (let p = 1; p < 9; p++) {
    const e = a.toExponential(p - 1)
    if (Math.fround(Number(e)) === a) return fromExponential(negative, p === 1 ? twoDigits(a, e, readFloat) : e)
  }
  return fromExponential(negative, a.toExponential(8))
}
