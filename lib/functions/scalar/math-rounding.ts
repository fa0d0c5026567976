/**
 * Decimal rounding of doubles as QuestDB's numeric functions define it: `round` (half away
 * from zero), `round_down` (toward zero), `round_up` (away from zero) and `round_half_even`,
 * each to `scale` decimal places (a negative scale rounds to tens, hundreds, ...).
 *
 * Browser-safe: imports nothing from `node:*`.
 */

/** The rounding modes. */
export type RoundMode = 'half_up' | 'down' | 'up' | 'half_even'

function roundMagnitude(y: number, mode: RoundMode): number {
  switch (mode) {
    case 'down': return Math.floor(y)
    case 'up': return Math.ceil(y)
    case 'half_up': return Math.floor(y + 0.5)
    case 'half_even': {
      const f = Math.floor(y)
      const d = y - f
      if (d > 0.5) return f + 1
      if (d < 0.5) return f
      return f % 2 === 0 ? f : f + 1
    }
  }
}

/** Rounds `x` to `scale` decimal places in `mode`; a non-finite input stays as it is (null). */
export function roundScaled(x: number, scale: number, mode: RoundMode): number {
  if (!Number.isFinite(x)) return NaN
  const neg = x < 0
  const a = neg ? -x : x
  let r: number
  if (scale >= 0) {
    const p = 10 ** scale
    const y = a * p
    // beyond 2^52 every double is an integer already: nothing to round at this scale
    r = y >= 4503599627370496 ? a : roundMagnitude(y, mode) / p
  } else {
    const q = 10 ** -scale
    r = roundMagnitude(a / q, mode) * q
  }
  return neg ? (r === 0 ? 0 : -r) : r
}
