/**
 * `approx_percentile(x, p[, precision])` and `approx_median(x[, precision])`: QuestDB's
 * HdrHistogram estimates, value for value.
 *
 * QuestDB records the group's values in an auto-ranging HdrHistogram `DoubleHistogram` with
 * `precision` significant decimal digits (0–5, default 3) and answers
 * `getValueAtPercentile(p * 100)`. This kernel keeps the same buckets without the histogram's
 * machinery: a value v > 0 in the binary octave [2^e, 2^(e+1)) falls in sub-bucket
 * s = floor(v * 2^(h - e)), where 2^h is the histogram's sub-bucket half count (h = 10 for
 * precision 3). Those buckets do not depend on where the auto-range sits, so per group a map of
 * (e, s) → count, the count of zeros and the smallest positive value are enough. The answer is the
 * bucket holding the k-th smallest value (k = ceil(p * n), at least 1), reported as that bucket's
 * highest equivalent value in the histogram's integer units: (s + 1) * 2^(e - h) - 2^(L - h), with
 * 2^L the histogram's lowest tracked value (the power of two at or below the smallest positive
 * value). At p = 0 the bucket's lowest value s * 2^(e - h) is reported, as HdrHistogram does.
 * NaN and infinities are skipped (QuestDB records finite values only); a negative value, or one
 * that takes a group's dynamic range past what the auto-resizing histogram can cover, is refused
 * with QuestDB's message (approx-percentile-range.ts follows the histogram's covered range); an
 * empty group gives null.
 *
 * Integer arguments (LONG and narrower) take QuestDB's other overload, an integer `Histogram`:
 * n keeps unit resolution below 2^(h+1), above it falls in a bucket of width 2^(bitLength(n) - 1 - h),
 * and the answer is that bucket's highest integer (its lowest at p = 0), as a DOUBLE.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { ColumnType } from '../../types/column-type.js'
import { type Vector, getScalar, materialize } from '../../types/vector.js'
import type { AggregateKernel, CallSite, FunctionDef } from '../registry-types.js'
import { aggregate, growArray, sameGroup } from './agg-util.js'
import { HistogramRange } from './approx-percentile-range.js'

/** QuestDB's default precision (significant decimal digits) when the argument is absent. */
export const DEFAULT_PRECISION = 3

/** log2 of HdrHistogram's sub-bucket half count for a precision: ceil(log2(2 * 10^digits)) - 1. */
export function subBucketHalfMagnitude(digits: number): number {
  return Math.ceil(Math.log2(2 * 10 ** digits)) - 1
}

/** The exponent e with 2^e <= v < 2^(e+1), for a finite v > 0. */
export function octave(v: number): number {
  let e = Math.floor(Math.log2(v))
  if (2 ** e > v) e--
  else if (2 ** (e + 1) <= v) e++
  return e
}

/** v * 2^k without overflowing on the way for the extreme exponents of subnormal values. */
function scale(v: number, k: number): number {
  if (k > 1000) return v * 2 ** 600 * 2 ** (k - 600)
  if (k < -1000) return v * 2 ** -600 * 2 ** (k + 600)
  return v * 2 ** k
}

const nextDownBuf = new Float64Array(1)
const nextDownBits = new BigInt64Array(nextDownBuf.buffer)

/** Java's Math.nextAfter(x, -Infinity) for a finite x. */
function nextDown(x: number): number {
  if (x === 0) return -Number.MIN_VALUE
  nextDownBuf[0] = x
  nextDownBits[0] = x > 0 ? nextDownBits[0]! - 1n : nextDownBits[0]! + 1n
  return nextDownBuf[0]!
}

/** One group's histogram: bucket key → count, zeros, smallest positive value, total, QuestDB's covered range. */
interface GroupHistogram {
  readonly buckets: Map<number, number>
  zeros: number
  minPositive: number
  total: number
  readonly range: HistogramRange
}

/** Offset that keeps the octave part of a bucket key positive (e >= -1074). */
const OCTAVE_BIAS = 1100

/** Per group: an HdrHistogram-equivalent bucket count map. */
export class ApproxPercentileKernel implements AggregateKernel {
  groups: (GroupHistogram | null)[] = []
  private readonly h: number
  private readonly span: number
  private entries = 0

  /** `percentile` in [0, 1]; `digits` in [0, 5]; `pos` locates errors. */
  constructor(readonly percentile: number, private readonly digits: number, readonly pos: number) {
    this.h = subBucketHalfMagnitude(digits)
    this.span = 2 ** (this.h + 1)
  }

  resize(count: number): void {
    growArray(this.groups, count, null)
  }

  private group(g: number): GroupHistogram {
    let s = this.groups[g]
    if (s === null || s === undefined) this.groups[g] = s = { buckets: new Map(), zeros: 0, minPositive: Infinity, total: 0, range: new HistogramRange(this.h, this.digits) }
    return s
  }

  private record(g: number, v: number): void {
    if (v - v !== 0) return // NaN (null) and infinities are not recorded
    const s = this.group(g)
    s.range.record(v, this.pos) // refuses negatives and values past the histogram's reach, as QuestDB
    s.total++
    if (v === 0) { s.zeros++; return }
    if (v < s.minPositive) s.minPositive = v
    const e = octave(v)
    const key = (e + OCTAVE_BIAS) * this.span + Math.floor(scale(v, this.h - e))
    const n = s.buckets.get(key)
    if (n === undefined) { s.buckets.set(key, 1); this.entries++ } else s.buckets.set(key, n + 1)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = materialize(args[0]!)
    if (v.kind === 'f64' || v.kind === 'f32') {
      const d = v.data
      for (let i = 0; i < length; i++) this.record(groups[i]!, d[i]!)
      return
    }
    for (let i = 0; i < length; i++) {
      const x = getScalar(v, i)
      if (x !== null) this.record(groups[i]!, Number(x))
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = (other as ApproxPercentileKernel).groups
    for (let i = 0; i < count; i++) {
      const b = o[from[i]!]
      if (b === null || b === undefined) continue
      const a = this.group(to[i]!)
      // the other share's rows came later: its extremes move this group's range (see approx-percentile-range.ts)
      if (b.range.maxValue > 0) { a.range.record(b.range.minValue, this.pos); a.range.record(b.range.maxValue, this.pos) }
      a.total += b.total
      a.zeros += b.zeros
      if (b.minPositive < a.minPositive) a.minPositive = b.minPositive
      for (const [k, n] of b.buckets) {
        const m = a.buckets.get(k)
        if (m === undefined) { a.buckets.set(k, n); this.entries++ } else a.buckets.set(k, m + n)
      }
    }
  }

  /** The estimate for one group, or null when it recorded nothing. */
  valueOf(s: GroupHistogram | null | undefined): number | null {
    if (s === null || s === undefined || s.total === 0) return null
    const pct = this.percentile * 100
    const requested = Math.min(Math.max(nextDown(pct), 0), 100)
    const k = Math.max(1, Math.ceil((requested * s.total) / 100))
    if (k <= s.zeros) return 0
    let seen = s.zeros
    const keys = [...s.buckets.keys()].sort((a, b) => a - b)
    let key = keys[keys.length - 1]!
    for (const kk of keys) {
      seen += s.buckets.get(kk)!
      if (seen >= k) { key = kk; break }
    }
    const e = Math.floor(key / this.span) - OCTAVE_BIAS
    const sub = key - (e + OCTAVE_BIAS) * this.span
    if (pct === 0) return scale(sub, e - this.h)
    const lowest = octave(s.minPositive)
    return scale(sub + 1, e - this.h) - scale(1, lowest - this.h)
  }

  result(count: number): Vector {
    const data = new Float64Array(count)
    for (let g = 0; g < count; g++) data[g] = this.valueOf(this.groups[g]) ?? NaN
    return { kind: 'f64', type: 'DOUBLE', length: count, data }
  }

  heapBytes(): number {
    return this.entries * 48
  }
}

/** Per group: an integer HdrHistogram's counts, keyed by each bucket's lowest value. */
export class ApproxPercentileLongKernel implements AggregateKernel {
  groups: (Map<number, number> | null)[] = []
  private readonly h: number
  private entries = 0

  /** `percentile` in [0, 1]; `digits` in [0, 5]; `pos` locates errors. */
  constructor(readonly percentile: number, digits: number, readonly pos: number) {
    this.h = subBucketHalfMagnitude(digits)
  }

  resize(count: number): void {
    growArray(this.groups, count, null)
  }

  private add(g: number, key: number, n: number): void {
    let m = this.groups[g]
    if (m === null || m === undefined) this.groups[g] = m = new Map()
    const c = m.get(key)
    if (c === undefined) { m.set(key, n); this.entries++ } else m.set(key, c + n)
  }

  /** The lowest value of n's bucket. */
  private lowestOf(n: number): number {
    if (n < 2 ** (this.h + 1)) return n
    const w = 2 ** (octave(n) - this.h)
    return Math.floor(n / w) * w
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = materialize(args[0]!)
    for (let i = 0; i < length; i++) {
      const x = getScalar(v, i)
      if (x === null) continue
      const n = Number(x)
      if (n < 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'Histogram recorded value cannot be negative.', this.pos) // QuestDB's text
      this.add(groups[i]!, this.lowestOf(n), 1)
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = (other as ApproxPercentileLongKernel).groups
    for (let i = 0; i < count; i++) {
      const m = o[from[i]!]
      if (m !== null && m !== undefined) for (const [k, n] of m) this.add(to[i]!, k, n)
    }
  }

  /** The estimate for one group, or null when it recorded nothing. */
  valueOf(m: Map<number, number> | null | undefined): number | null {
    if (m === null || m === undefined || m.size === 0) return null
    let total = 0
    for (const n of m.values()) total += n
    const pct = this.percentile * 100
    const requested = Math.min(Math.max(nextDown(pct), 0), 100)
    const k = Math.max(1, Math.ceil((requested * total) / 100))
    const keys = [...m.keys()].sort((a, b) => a - b)
    let key = keys[keys.length - 1]!
    let seen = 0
    for (const kk of keys) {
      seen += m.get(kk)!
      if (seen >= k) { key = kk; break }
    }
    if (pct === 0 || key < 2 ** (this.h + 1)) return key
    return key + 2 ** (octave(key) - this.h) - 1
  }

  result(count: number): Vector {
    const data = new Float64Array(count)
    for (let g = 0; g < count; g++) data[g] = this.valueOf(this.groups[g]) ?? NaN
    return { kind: 'f64', type: 'DOUBLE', length: count, data }
  }

  heapBytes(): number {
    return this.entries * 48
  }
}

function precisionOf(site: CallSite, index: number): number {
  if (index >= site.argTypes.length) return DEFAULT_PRECISION
  const c = site.constants[index]
  const pos = site.argPositions[index] ?? site.pos
  if (c === undefined || c === null) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'precision must be a constant', pos)
  const d = Number(c)
  if (!Number.isInteger(d) || d < 0 || d > 5) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'precision must be between 0 and 5', site.pos)
  return d
}

/** True for the integer overload (the argument bound as LONG or narrower). */
function isInteger(t: ColumnType | undefined): boolean {
  return t === 'LONG' || t === 'INT' || t === 'SHORT' || t === 'BYTE'
}

function percentileOf(site: CallSite): number {
  const c = site.constants[1]
  const pos = site.argPositions[1] ?? site.pos
  if (c === undefined || c === null) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'percentile must be a constant', pos)
  const p = Number(c)
  if (!(p >= 0 && p <= 1)) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'percentile must be between 0.0 and 1.0', site.pos)
  return p
}

/** approx_percentile and approx_median. */
export const APPROX_PERCENTILE_FUNCTIONS: readonly FunctionDef[] = [
  aggregate({
    name: 'approx_percentile',
    signatures: [
      { args: ['DOUBLE', 'DOUBLE'], constant: [1], returns: 'DOUBLE' },
      { args: ['DOUBLE', 'DOUBLE', 'INT'], constant: [1, 2], returns: 'DOUBLE' },
      { args: ['LONG', 'DOUBLE'], constant: [1], returns: 'DOUBLE' },
      { args: ['LONG', 'DOUBLE', 'INT'], constant: [1, 2], returns: 'DOUBLE' },
    ],
    description: 'Approximate percentile (p in [0, 1]) of non-negative values, as QuestDB\'s HdrHistogram with `precision` significant digits (0-5, default 3).',
    example: 'SELECT approx_percentile(x, 0.9, 3) FROM long_sequence(100)',
    create: (site) => (isInteger(site.argTypes[0]) ? new ApproxPercentileLongKernel(percentileOf(site), precisionOf(site, 2), site.pos) : new ApproxPercentileKernel(percentileOf(site), precisionOf(site, 2), site.pos)),
  }),
  aggregate({
    name: 'approx_median',
    signatures: [
      { args: ['DOUBLE'], returns: 'DOUBLE' },
      { args: ['DOUBLE', 'INT'], constant: [1], returns: 'DOUBLE' },
      { args: ['LONG'], returns: 'DOUBLE' },
      { args: ['LONG', 'INT'], constant: [1], returns: 'DOUBLE' },
    ],
    description: 'approx_percentile(x, 0.5, precision): the approximate median of non-negative values (precision 0-5, default 3).',
    example: 'SELECT approx_median(x) FROM long_sequence(100)',
    create: (site) => (isInteger(site.argTypes[0]) ? new ApproxPercentileLongKernel(0.5, precisionOf(site, 1), site.pos) : new ApproxPercentileKernel(0.5, precisionOf(site, 1), site.pos)),
  }),
]
