/**
 * `rnd_decimal(precision, scale, nullRate)` (QuestDB 9's random value generator page): a random
 * non-negative DECIMAL(precision, scale), drawn as QuestDB's RndDecimalFunctionFactory draws it
 * for each storage width — a null gate, then `nextPositiveInt() % (10^p - 1)` up to p = 9,
 * `nextPositiveLong() % (10^p - 1)` up to p = 18, and above that a high word `% (10^k - 1)` with
 * raw lower 64-bit words (for 128 and 256 bits). Where those wide draws pass the precision (QuestDB
 * can draw up to 9·2^64 for p = 20) the value is taken modulo 10^p, so it stays a valid value.
 */
import { SqlError, SqlState } from '../../errors.js'
import { type DecimalType, DECIMAL_MAX_PRECISION, decimalScalar, decimalType } from '../../types/decimal.js'
import type { FunctionDef } from '../registry-types.js'
import { constInt, rndFunction, type RndDraw } from './rnd-def.js'
import type { Rnd } from './rnd.js'

const U64 = 1n << 64n
const unsigned = (x: bigint): bigint => (x < 0n ? x + U64 : x)
const maxValue = (p: number): bigint => 10n ** BigInt(p) - 1n

/** The unscaled draw for precision `p` (after the null gate). */
function drawer(p: number): (rnd: Rnd) => bigint {
  if (p <= 9) { const range = Number(maxValue(p)); return (rnd) => BigInt(rnd.nextPositiveInt() % range) }
  if (p <= 18) { const range = maxValue(p); return (rnd) => rnd.nextPositiveLong() % range }
  const limit = 10n ** BigInt(p)
  if (p <= 38) {
    const high = maxValue(Math.max(p - 19 - 1, 1))
    return (rnd) => { const h = rnd.nextPositiveLong() % high; const l = unsigned(rnd.nextLong()); return ((h << 64n) + l) % limit }
  }
  const hhP = Math.max(p - 3 * 19 - 1, 0)
  const hh = hhP > 0 ? maxValue(hhP) : 0n
  const hl = maxValue(Math.max(p - 2 * 19 - 1, 1))
  return (rnd) => {
    // QuestDB's `% 0` for a zero hh range throws; its hh word is 0 there, and the draw is still consumed
    const a = rnd.nextPositiveLong(); const w3 = hh === 0n ? 0n : a % hh
    const w2 = rnd.nextPositiveLong() % hl
    const w1 = unsigned(rnd.nextLong()), w0 = unsigned(rnd.nextLong())
    return ((w3 << 192n) + (w2 << 128n) + (w1 << 64n) + w0) % limit
  }
}

/** The definition. */
export const RND_DECIMAL: FunctionDef = rndFunction({
  name: 'rnd_decimal',
  signatures: [{ args: ['INT', 'INT', 'INT'], constant: [0, 1, 2], returns: (_t, c) => safeType(c?.[0], c?.[1]) }],
  description: 'A random non-negative DECIMAL(precision, scale), NULL at about 1 in nullRate rows.',
  example: 'SELECT rnd_decimal(8, 2, 0) FROM long_sequence(5)',
  prepare: (site): RndDraw => {
    const p = constInt(site, 0), s = constInt(site, 1), rate = constInt(site, 2)
    if (rate < 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'invalid NULL rate', site.argPositions[2] ?? site.pos)
    if (!(s >= 0 && p > 0 && p >= s && p <= DECIMAL_MAX_PRECISION)) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid precision and scale: ${p}, ${s}`, site.pos)
    const type = decimalType(p, s)
    const draw = drawer(p)
    return { type, next: (rnd) => (rnd.nullGate(rate) ? null : decimalScalar(draw(rnd), type)) }
  },
})

/** The result type for the binder: DECIMAL(p, s) when they are valid (checked again when it runs). */
function safeType(p: unknown, s: unknown): DecimalType {
  const pi = Number(p), si = Number(s)
  return Number.isInteger(pi) && Number.isInteger(si) && si >= 0 && pi > 0 && pi >= si && pi <= DECIMAL_MAX_PRECISION ? decimalType(pi, si) : decimalType(18, 3)
}
