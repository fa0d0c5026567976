/**
 * Numeric random generators: rnd_boolean, rnd_byte, rnd_short, rnd_char, rnd_int, rnd_long,
 * rnd_float, rnd_double — with QuestDB's draw counts (a null-rate gate is one `nextInt()` draw,
 * taken even when the rate is 0).
 */
import { INT_NULL } from '../../types/column-type.js'
import type { FunctionDef } from '../registry-types.js'
import { checkRate, constInt, constLong, invalidRange, longScalar, rndFunction, type RndDraw } from './rnd-def.js'
import type { Rnd } from './rnd.js'

const C3 = [0, 1, 2] as const
const SAFE = 9007199254740991

/** `lo + s % range` folded the way QuestDB's rnd_short(lo,hi) / rnd_byte(lo,hi) do it. */
function foldShort(s: number, lo: number, range: number): number {
  return s < 0 ? lo - (s % range) : lo + (s % range)
}

/** A raw nextLong() as a Scalar (number when safe). */
function rawLong(rnd: Rnd): number | bigint {
  rnd.nextLongHiLo()
  const h = rnd.hi
  if (h >= -2097152 && h < 2097152) return h * 4294967296 + (rnd.lo >>> 0)
  return BigInt.asIntN(64, (BigInt(h) << 32n) | BigInt(rnd.lo >>> 0))
}

const rndBoolean = rndFunction({
  name: 'rnd_boolean',
  signatures: [{ args: [], returns: 'BOOLEAN' }],
  description: 'A random boolean (the sign bit of one draw).',
  example: 'SELECT rnd_boolean() FROM long_sequence(3)',
  prepare: () => ({
    type: 'BOOLEAN',
    next: (rnd) => rnd.nextBoolean(),
    fill: (rnd, out, n) => { const d = out.data as Uint8Array; for (let i = 0; i < n; i++) d[i] = rnd.nextBoolean() ? 1 : 0 },
  }),
})

function shortLike(name: string, type: 'BYTE' | 'SHORT', defLo: number | undefined, bits: number): FunctionDef {
  const wrap = (x: number): number => (x << (32 - bits)) >> (32 - bits)
  return rndFunction({
    name,
    signatures: [{ args: [], returns: type }, { args: ['INT', 'INT'], constant: [0, 1], returns: type }],
    description: type === 'BYTE'
      ? 'A random byte: in [20, 127] without arguments, or in [lo, hi].'
      : 'A random short: any 16-bit value without arguments, or in [lo, hi].',
    example: `SELECT ${name}(), ${name}(1, 10) FROM long_sequence(3)`,
    prepare: (site): RndDraw => {
      let lo: number | undefined = defLo
      let range = 0
      if (site.argTypes.length === 2) {
        lo = wrap(constInt(site, 0))
        const hi = wrap(constInt(site, 1))
        if (!(lo < hi)) throw invalidRange(site)
        range = wrap(hi - lo + 1)
      } else if (lo !== undefined) range = wrap(127 - lo + 1)
      const l = lo
      const next = l === undefined
        ? (rnd: Rnd): number => wrap(rnd.nextShort())
        : (rnd: Rnd): number => wrap(foldShort(rnd.nextShort(), l, range))
      return { type, next, fill: (rnd, out, n) => { const d = out.data as Int8Array | Int16Array; for (let i = 0; i < n; i++) d[i] = next(rnd) } }
    },
  })
}

const rndChar = rndFunction({
  name: 'rnd_char',
  signatures: [{ args: [], returns: 'CHAR' }],
  description: 'A random upper-case letter B..Z.',
  example: 'SELECT rnd_char() FROM long_sequence(3)',
  prepare: () => ({
    type: 'CHAR',
    next: (rnd) => String.fromCharCode(rnd.nextCharCode()),
    fill: (rnd, out, n) => { const d = out.data as Uint16Array; for (let i = 0; i < n; i++) d[i] = rnd.nextCharCode() },
  }),
})

const rndInt = rndFunction({
  name: 'rnd_int',
  signatures: [{ args: [], returns: 'INT' }, { args: ['INT', 'INT', 'INT'], constant: C3, returns: 'INT' }],
  description: 'A random int: any 32-bit value without arguments, or in [lo, hi] with nulls at about 1 in nullRate rows.',
  example: 'SELECT rnd_int(), rnd_int(1, 100, 5) FROM long_sequence(3)',
  prepare: (site): RndDraw => {
    if (site.argTypes.length === 0) {
      return { type: 'INT', next: (rnd) => { const v = rnd.nextInt(); return v === INT_NULL ? null : v }, fill: (rnd, out, n) => { const d = out.data as Int32Array; for (let i = 0; i < n; i++) d[i] = rnd.nextInt() } }
    }
    const lo = constInt(site, 0)
    const hi = constInt(site, 1)
    const rate = checkRate(site, 2)
    if (!(lo < hi)) throw invalidRange(site)
    const range = (hi - lo + 1) | 0
    const one = (rnd: Rnd): number => (rnd.nullGate(rate) ? INT_NULL : (lo + (rnd.nextPositiveInt() % range)) | 0)
    return {
      type: 'INT',
      next: (rnd) => { const v = one(rnd); return v === INT_NULL ? null : v },
      fill: (rnd, out, n) => { const d = out.data as Int32Array; for (let i = 0; i < n; i++) d[i] = one(rnd) },
    }
  },
})

/** `lo + nextPositiveLong() % range` drawn exactly (rnd_long, rnd_timestamp, rnd_date). */
export function longInRange(lo: number | bigint, hi: number | bigint): (rnd: Rnd) => number | bigint {
  const bl = BigInt(lo)
  const brange = BigInt(hi) - bl + 1n
  if (typeof lo === 'number' && brange <= 137438953472n && Math.abs(lo) + Number(brange) <= SAFE) {
    const range = Number(brange)
    return (rnd) => lo + (rnd.nextPositiveLongMod(range) as number)
  }
  // Java wraps `hi - lo + 1` to 64 bits; a non-positive range would make `%` misbehave there too.
  const wrapped = BigInt.asIntN(64, brange)
  return (rnd) => longScalar(BigInt.asIntN(64, bl + rnd.nextPositiveLong() % wrapped))
}

const rndLong = rndFunction({
  name: 'rnd_long',
  signatures: [{ args: [], returns: 'LONG' }, { args: ['LONG', 'LONG', 'INT'], constant: C3, returns: 'LONG' }],
  description: 'A random long: any 64-bit value without arguments, or in [lo, hi] with nulls at about 1 in nullRate rows.',
  example: 'SELECT rnd_long(), rnd_long(1, 1000, 2) FROM long_sequence(3)',
  prepare: (site): RndDraw => {
    if (site.argTypes.length === 0) return { type: 'LONG', next: (rnd) => { const v = rawLong(rnd); return v === -9223372036854775808n ? null : v } }
    const lo = constLong(site, 0)
    const hi = constLong(site, 1)
    const rate = checkRate(site, 2)
    if (!(lo < hi)) throw invalidRange(site)
    const draw = longInRange(lo, hi)
    return { type: 'LONG', next: (rnd) => (rnd.nullGate(rate) ? null : draw(rnd)) }
  },
})

const rndFloat = rndFunction({
  name: 'rnd_float',
  signatures: [{ args: [], returns: 'FLOAT' }, { args: ['INT'], constant: [0], returns: 'FLOAT' }],
  description: 'A random float in [0, 1); with nullRate, NaN (null) at about 1 in nullRate rows.',
  example: 'SELECT rnd_float(), rnd_float(3) FROM long_sequence(3)',
  prepare: (site): RndDraw => {
    if (site.argTypes.length === 0) {
      return { type: 'FLOAT', next: (rnd) => rnd.nextFloat(), fill: (rnd, out, n) => { const d = out.data as Float32Array; for (let i = 0; i < n; i++) d[i] = rnd.nextFloat() } }
    }
    const rate = checkRate(site, 0)
    const one = (rnd: Rnd): number => (rnd.nullGate(rate) ? NaN : rnd.nextFloat())
    return { type: 'FLOAT', next: (rnd) => { const v = one(rnd); return v === v ? v : null }, fill: (rnd, out, n) => { const d = out.data as Float32Array; for (let i = 0; i < n; i++) d[i] = one(rnd) } }
  },
})

const rndDouble = rndFunction({
  name: 'rnd_double',
  signatures: [{ args: [], returns: 'DOUBLE' }, { args: ['INT'], constant: [0], returns: 'DOUBLE' }],
  description: 'A random double in [0, 1); with nullRate, NaN (null) at about 1 in nullRate rows.',
  example: 'SELECT rnd_double() FROM long_sequence(2, 128349234, 4327897)',
  prepare: (site): RndDraw => {
    if (site.argTypes.length === 0) {
      return { type: 'DOUBLE', next: (rnd) => rnd.nextDouble(), fill: (rnd, out, n) => { const d = out.data as Float64Array; for (let i = 0; i < n; i++) d[i] = rnd.nextDouble() } }
    }
    const rate = checkRate(site, 0)
    const one = (rnd: Rnd): number => (rnd.nullGate(rate) ? NaN : rnd.nextDouble())
    return { type: 'DOUBLE', next: (rnd) => { const v = one(rnd); return v === v ? v : null }, fill: (rnd, out, n) => { const d = out.data as Float64Array; for (let i = 0; i < n; i++) d[i] = one(rnd) } }
  },
})

/** The numeric rnd functions. */
export const RND_NUMERIC_FUNCTIONS: readonly FunctionDef[] = [
  rndBoolean,
  shortLike('rnd_byte', 'BYTE', 20, 8),
  shortLike('rnd_short', 'SHORT', undefined, 16),
  rndChar,
  rndInt,
  rndLong,
  rndFloat,
  rndDouble,
]
