/**
 * Random values of the wide types: `rnd_uuid4()` (two raw draws, version 4 / variant 1 bits
 * set), `rnd_long256()` (four raw draws), `rnd_ipv4()` (one raw `nextInt()`),
 * `rnd_ipv4(subnet, nullRate)` and `rnd_bin()` / `rnd_bin(lo, hi, nullRate)` (one `nextByte()`
 * per byte; the null gate of rnd_bin draws `nextPositiveInt()`).
 */
import { SqlError, SqlState } from '../../errors.js'
import type { FunctionDef } from '../registry-types.js'
import { checkRate, constInt, constLong, invalidRange, rndFunction, type RndDraw } from './rnd-def.js'
import type { Rnd } from './rnd.js'

function hex(x: number, digits: number): string {
  return (x >>> 0).toString(16).padStart(digits, '0')
}

const rndUuid4 = rndFunction({
  name: 'rnd_uuid4',
  signatures: [{ args: [], returns: 'UUID' }],
  description: 'A random version-4 UUID.',
  example: 'SELECT rnd_uuid4() FROM long_sequence(3)',
  prepare: () => ({
    type: 'UUID',
    next: (rnd) => {
      rnd.nextLongHiLo()
      const loH = (rnd.hi & 0x3fffffff) | 0x80000000
      const loL = rnd.lo
      rnd.nextLongHiLo()
      const hiH = rnd.hi
      const hiL = (rnd.lo & 0xffff0fff) | 0x4000
      return `${hex(hiH, 8)}-${hex(hiL >>> 16, 4)}-${hex(hiL & 0xffff, 4)}-${hex(loH >>> 16, 4)}-${hex(loH & 0xffff, 4)}${hex(loL, 8)}`
    },
  }),
})

const rndLong256 = rndFunction({
  name: 'rnd_long256',
  signatures: [{ args: [], returns: 'LONG256' }],
  description: 'A random 256-bit value, printed as 0x-prefixed hex.',
  example: 'SELECT rnd_long256() FROM long_sequence(3)',
  prepare: () => ({
    type: 'LONG256',
    next: (rnd) => {
      const w: number[] = []
      for (let i = 0; i < 4; i++) { rnd.nextLongHiLo(); w.push(rnd.hi, rnd.lo) }
      // w = [l0h, l0l, l1h, l1l, l2h, l2l, l3h, l3l]; print l3..l0, leading zero bytes dropped
      let s = ''
      for (let k = 3; k >= 0; k--) {
        const h = w[2 * k]!
        const l = w[2 * k + 1]!
        if (s === '') {
          if (h === 0 && l === 0 && k > 0) continue
          s = h === 0 ? (l >>> 0).toString(16) : (h >>> 0).toString(16) + hex(l, 8)
        } else s += hex(h, 8) + hex(l, 8)
      }
      // whole bytes, as QuestDB prints LONG256 (lib/types/long256.ts)
      return (s.length & 1) === 1 ? '0x0' + s : '0x' + s
    },
  }),
})

/** Parses `a.b.c.d/bits` into [subnet, broadcast] as signed ints, or undefined. */
function parseSubnet(text: string): [number, number] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/.exec(text)
  if (m === null) return undefined
  const parts = [m[1], m[2], m[3], m[4]].map(Number)
  if (parts.some((p) => p > 255)) return undefined
  const bits = m[5] === undefined ? 32 : Number(m[5])
  if (bits > 32) return undefined
  const ip = ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) | 0
  const mask = bits === 0 ? 0 : (-1 << (32 - bits)) | 0
  const subnet = ip & mask
  return [subnet, subnet | ~mask]
}

const rndIpv4 = rndFunction({
  name: 'rnd_ipv4',
  signatures: [{ args: [], returns: 'IPV4' }, { args: ['STRING', 'INT'], constant: [0, 1], returns: 'IPV4' }],
  description: "A random IPv4 address: any address, or one inside a subnet such as '22.43.0.0/16' with nulls at about 1 in nullRate rows.",
  example: "SELECT rnd_ipv4(), rnd_ipv4('22.43.0.0/16', 2) FROM long_sequence(3)",
  prepare: (site): RndDraw => {
    if (site.argTypes.length === 0) {
      return { type: 'IPV4', next: (rnd) => { const v = rnd.nextInt(); return v === 0 ? null : v >>> 0 }, fill: (rnd, out, n) => { const d = out.data as Int32Array; for (let i = 0; i < n; i++) d[i] = rnd.nextInt() } }
    }
    const text = site.constants[0]
    const range = typeof text === 'string' ? parseSubnet(text) : undefined
    if (range === undefined) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid argument: ${String(text)}`, site.argPositions[0] ?? site.pos)
    const rate = constInt(site, 1)
    const [lo, hi] = range
    const size = (hi - lo + 1) | 0
    const one = (rnd: Rnd): number => (rnd.nullGate(rate) ? 0 : (lo + (rnd.nextPositiveInt() % size)) | 0)
    return { type: 'IPV4', next: (rnd) => { const v = one(rnd); return v === 0 ? null : v >>> 0 }, fill: (rnd, out, n) => { const d = out.data as Int32Array; for (let i = 0; i < n; i++) d[i] = one(rnd) } }
  },
})

function bytes(rnd: Rnd, len: number): Uint8Array {
  const b = new Uint8Array(len)
  for (let i = 0; i < len; i++) b[i] = rnd.nextByte() & 0xff
  return b
}

const rndBin = rndFunction({
  name: 'rnd_bin',
  signatures: [{ args: [], returns: 'BINARY' }, { args: ['LONG', 'LONG', 'INT'], constant: [0, 1, 2], returns: 'BINARY' }],
  description: 'Random binary: 32 bytes, or lo to hi bytes with nulls at about 1 in nullRate rows.',
  example: 'SELECT rnd_bin(), rnd_bin(4, 8, 2) FROM long_sequence(3)',
  prepare: (site): RndDraw => {
    if (site.argTypes.length === 0) return { type: 'BINARY', next: (rnd) => bytes(rnd, 32) }
    const lo = Number(constLong(site, 0))
    const hi = Number(constLong(site, 1))
    const rate = checkRate(site, 2, 'invalid null rate')
    if (lo > hi) throw invalidRange(site)
    if (lo < 1) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'minimum has to be grater than 0', site.argPositions[0] ?? site.pos)
    const div = rate + 1
    const range = hi - lo + 1
    if (lo === hi) return { type: 'BINARY', next: (rnd) => (rnd.nextPositiveInt() % div === 1 ? null : bytes(rnd, lo)) }
    return { type: 'BINARY', next: (rnd) => (rnd.nextPositiveInt() % div === 1 ? null : bytes(rnd, lo + (rnd.nextPositiveLongMod(range) as number))) }
  },
})

/** rnd_uuid4, rnd_long256, rnd_ipv4, rnd_bin. */
export const RND_MISC_FUNCTIONS: readonly FunctionDef[] = [rndUuid4, rndLong256, rndIpv4, rndBin]
