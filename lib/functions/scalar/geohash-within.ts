/**
 * `g WITHIN (#p1, #p2, ...)` over a column batch. Each prefix of `p` bits is the value range
 * `[p * 2^(bits - pbits), (p + 1) * 2^(bits - pbits))` of a `bits`-bit geohash. The ranges are
 * sorted and merged; one range left is two comparisons a row. Several are a lookup table over
 * the top bits of the value (at most 16, so 64 KiB): a bucket is wholly within, wholly outside,
 * or (only when a prefix is longer than the table's bits) partly within, and only rows in such a
 * bucket search the ranges. So a row costs about what one prefix costs, however many there are.
 * Nulls (INT's -2^31, LONG's -2^63) are negative: never within.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { type GeohashValue } from '../../types/geohash.js'
import { allocate, type Vector } from '../../types/vector.js'

/** A WITHIN prefix: its bits and value. */
export interface WithinPrefix { readonly bits: number; readonly value: GeohashValue }

/** The most bits a lookup table keys on (2^16 one-byte entries). */
const TABLE_BITS = 16
/** Table entries besides 0 (no row of the bucket is within): every row is, some are (search the ranges). */
const ALL = 1, PART = 2

/** The prefixes compiled for values of `bits` bits (at most 53: the values are exact doubles). */
export interface WithinMatcher {
  readonly bits: number
  /** disjoint value ranges `[lo[j], hi[j])`, sorted */
  readonly lo: Float64Array
  readonly hi: Float64Array
  /** per bucket of the top `bits - shift` bits: 0, ALL or PART; undefined for one range or none */
  readonly table: Uint8Array | undefined
  readonly shift: number
}

/** {@link WithinMatcher} of `prefixes` for a `bits`-bit column (`bits` <= 53); prefixes longer than the column match nothing. */
export function compileWithin(prefixes: readonly WithinPrefix[], bits: number): WithinMatcher {
  const spans = prefixes.filter((p) => p.bits <= bits).map((p) => {
    const span = 2 ** (bits - p.bits)
    const lo = Number(p.value) * span
    return [lo, lo + span] as const
  }).sort((a, b) => a[0] - b[0])
  const lo: number[] = [], hi: number[] = []
  for (const [a, b] of spans) {
    if (lo.length > 0 && a <= hi[hi.length - 1]!) hi[hi.length - 1] = Math.max(hi[hi.length - 1]!, b)
    else { lo.push(a); hi.push(b) }
  }
  const ranges = { bits, lo: Float64Array.from(lo), hi: Float64Array.from(hi) }
  if (lo.length < 2) return { ...ranges, table: undefined, shift: 0 }
  const longest = Math.max(...prefixes.filter((p) => p.bits <= bits).map((p) => p.bits))
  const tableBits = Math.min(longest, TABLE_BITS)
  const shift = bits - tableBits
  const bucket = 2 ** shift
  const table = new Uint8Array(2 ** tableBits)
  for (let j = 0; j < lo.length; j++) {
    const first = Math.floor(lo[j]! / bucket), last = Math.ceil(hi[j]! / bucket) - 1
    for (let b = first; b <= last; b++) {
      const whole = lo[j]! <= b * bucket && (b + 1) * bucket <= hi[j]!
      table[b] = whole ? ALL : PART
    }
  }
  return { ...ranges, table, shift }
}

/** Whether `x` lies in one of the sorted disjoint ranges (binary search). */
function inRanges(x: number, lo: Float64Array, hi: Float64Array): number {
  let a = 0, b = lo.length - 1
  while (a <= b) {
    const m = (a + b) >> 1
    if (x < lo[m]!) b = m - 1
    else if (x >= hi[m]!) a = m + 1
    else return 1
  }
  return 0
}

/** WITHIN of `m` rows of `d` (INT or exact-double geohash values) into `o` (1 within, 0 not). */
export function withinRows(d: Int32Array | Float64Array, m: number, w: WithinMatcher, o: Uint8Array): void {
  const { lo, hi, table } = w
  if (table === undefined) {
    if (lo.length === 0) return
    // one range: two comparisons (nulls are below it)
    const a = lo[0]!, b = hi[0]!
    for (let i = 0; i < m; i++) { const x = d[i]!; o[i] = x >= a && x < b ? 1 : 0 }
    return
  }
  if (d instanceof Int32Array) {
    const sh = w.shift
    for (let i = 0; i < m; i++) {
      const x = d[i]!
      if (x < 0) continue
      const e = table[x >>> sh]!
      o[i] = e === PART ? inRanges(x, lo, hi) : e
    }
    return
  }
  // a power of two's inverse: the product is exact, its floor the bucket
  const inv = 2 ** -w.shift
  for (let i = 0; i < m; i++) {
    const x = d[i]!
    if (x < 0) continue
    const e = table[Math.floor(x * inv)]!
    o[i] = e === PART ? inRanges(x, lo, hi) : e
  }
}

/** WITHIN over `g` (a geohash vector of `bits` bits): a BOOLEAN vector, constant when `g` is. */
export function withinVector(g: Vector, n: number, bits: number, prefixes: readonly WithinPrefix[], matcherOf: (bits: number) => WithinMatcher): Vector {
  const m = g.isConst ? 1 : n
  const out = allocate('BOOLEAN', m)
  const o = out.data as Uint8Array
  if (g.kind === 'i32' || (g.kind === 'i64' && g.data instanceof Float64Array)) {
    withinRows(g.data as Int32Array | Float64Array, m, matcherOf(bits), o)
  } else if (g.kind === 'i64') {
    // values past 2^53 (54-60 bits): the ranges as bigints, computed once per batch
    const d = g.data as BigInt64Array
    const usable = prefixes.filter((p) => p.bits <= bits)
    const lo = usable.map((p) => BigInt(p.value) << BigInt(bits - p.bits))
    const hi = usable.map((p, j) => lo[j]! + (1n << BigInt(bits - p.bits)))
    for (let i = 0; i < m; i++) {
      const x = d[i]!
      for (let j = 0; j < lo.length; j++) if (x >= lo[j]! && x < hi[j]!) { o[i] = 1; break }
    }
  }
  return g.isConst ? ({ ...out, length: n, isConst: true } as Vector) : out
}
