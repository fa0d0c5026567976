/**
 * SAMPLE BY buckets: where each bucket starts (a {@link Sampler}) and the table that gives every
 * row its dense bucket ordinal. Rows arrive in designated-timestamp order, so the common case is
 * one comparison per row against the current bucket's [start, end); only a row past the current
 * bucket calls the sampler. All arithmetic is on microseconds as numbers (no Date).
 */
import { addMonths } from '../../types/calendar.js'
import { civilFromDays, dayOf, floorDiv, MICROS_PER_DAY } from '../../types/civil.js'
import { localToUtc, tzOffsetMicros, utcToLocal } from '../../types/time-zone.js'
import type { SampleUnit } from '../../plan/nodes/sample-by.js'

/** Bucket starts: `floor(ts)` is the start of the bucket holding `ts`, `next(start)` the following one. */
export interface Sampler {
  floor(ts: number): number
  next(start: number): number
}

const UNIT_MICROS: Readonly<Record<Exclude<SampleUnit, 'M' | 'y'>, number>> = {
  n: 0.001, U: 1, T: 1000, s: 1_000_000, m: 60_000_000, h: 3_600_000_000, d: MICROS_PER_DAY, w: 7 * MICROS_PER_DAY,
}

/** Monday 1969-12-29: weeks count from here. */
export const WEEK_ORIGIN = -3 * MICROS_PER_DAY

/** True for d, w, M, y: units whose buckets follow the local calendar under TIME ZONE. */
export function isSuperDay(unit: SampleUnit): boolean {
  return unit === 'd' || unit === 'w' || unit === 'M' || unit === 'y'
}

/** Equal-length buckets `origin + k * size`. */
export class FixedSampler implements Sampler {
  constructor(private readonly size: number, private readonly origin: number) {}
  floor(ts: number): number { return floorDiv(ts - this.origin, this.size) * this.size + this.origin }
  next(start: number): number { return start + this.size }
}

/** Calendar-month buckets `anchor + k * months` (days clamp like Java's plusMonths). */
export class MonthSampler implements Sampler {
  constructor(private readonly months: number, private readonly anchor: number) {}

  floor(ts: number): number {
    let k = floorDiv(monthsBetween(this.anchor, ts), this.months) * this.months
    let s = addMonths(this.anchor, k)
    while (s > ts) { k -= this.months; s = addMonths(this.anchor, k) }
    return s
  }

  next(start: number): number {
    const k = floorDiv(monthsBetween(this.anchor, start), this.months) * this.months
    return addMonths(this.anchor, k + this.months)
  }
}

function monthsBetween(a: number, b: number): number {
  const ca = civilFromDays(dayOf(a))
  const ya = ca[0]!, ma = ca[1]!
  const cb = civilFromDays(dayOf(b))
  return (cb[0]! - ya) * 12 + cb[1]! - ma
}

/** Buckets on the local wall clock of `tz` (local midnights, DST-length days), reported in UTC. */
export class ZonedSampler implements Sampler {
  constructor(private readonly local: Sampler, private readonly tz: string) {}
  floor(ts: number): number { return localToUtc(this.tz, this.local.floor(utcToLocal(this.tz, ts))) }
  next(start: number): number {
    return localToUtc(this.tz, this.local.next(this.local.floor(utcToLocal(this.tz, start))))
  }
}

/** What decides the bucket origin; `first` is the first row's timestamp (or FROM). */
export interface SamplerSpec {
  readonly unit: SampleUnit
  readonly stride: number
  readonly firstObservation: boolean
  readonly timeZone: string | undefined
  readonly offset: number
  /** FROM as written (local time under TIME ZONE), or undefined */
  readonly from: number | undefined
}

/** A sampler anchored at `anchor` (months/years by calendar, the rest by fixed size). */
export function anchoredSampler(unit: SampleUnit, stride: number, anchor: number): Sampler {
  if (unit === 'M') return new MonthSampler(stride, anchor)
  if (unit === 'y') return new MonthSampler(stride * 12, anchor)
  return new FixedSampler(Math.max(1, UNIT_MICROS[unit] * stride), anchor)
}

/**
 * The sampler of a query (reference §3.2): first observation anchors at the first row; calendar
 * alignment anchors at FROM, else at the epoch (Monday 1969-12-29 for weeks), shifted by WITH
 * OFFSET. Under TIME ZONE, d/w/M/y buckets follow the local calendar; sub-day buckets are evenly
 * spaced in UTC on the zone's standard (non-DST) offset, or anchored at FROM converted to UTC.
 */
export function makeSampler(spec: SamplerSpec, first: number): Sampler {
  const { unit, stride, timeZone: tz, offset, from } = spec
  if (spec.firstObservation) return anchoredSampler(unit, stride, first)
  const epoch = unit === 'w' ? WEEK_ORIGIN : 0
  if (tz === undefined) return anchoredSampler(unit, stride, (from ?? epoch) + offset)
  if (isSuperDay(unit)) return new ZonedSampler(anchoredSampler(unit, stride, (from ?? epoch) + offset), tz)
  if (from !== undefined) return anchoredSampler(unit, stride, localToUtc(tz, from) + offset)
  return anchoredSampler(unit, stride, offset - standardOffset(tz, first))
}

/** The zone's standard offset around `ts`: the smaller of its offsets half a year apart. */
export function standardOffset(tz: string, ts: number): number {
  return Math.min(tzOffsetMicros(tz, ts), tzOffsetMicros(tz, ts + 183 * MICROS_PER_DAY))
}

/**
 * Dense bucket ordinals in order of first appearance, with each ordinal's start. `ordered` stays
 * true while every new bucket starts after all earlier ones (always, for a designated-timestamp
 * scan) and no row goes back to an earlier bucket.
 */
export class BucketTable {
  /** start of bucket ordinal i */
  readonly starts: number[] = []
  private readonly byStart = new Map<number, number>()
  /** the ordinal of the bucket the last row fell in, and that bucket's [lo, hi) */
  cur = -1
  lo = 0
  hi = -Infinity
  ordered = true

  constructor(readonly sampler: Sampler) {}

  get count(): number { return this.starts.length }

  /** The ordinal of the bucket starting at `start`, or -1. */
  ordinalOf(start: number): number { return this.byStart.get(start) ?? -1 }

  /** Writes the bucket ordinal of `ts[0..length)` to `out`. */
  assign(ts: Float64Array, length: number, out: Int32Array): void {
    let cur = this.cur, lo = this.lo, hi = this.hi
    for (let i = 0; i < length; i++) {
      const t = ts[i]!
      if (t < hi && t >= lo) { out[i] = cur; continue }
      cur = this.enter(t)
      lo = this.lo; hi = this.hi
      out[i] = cur
    }
  }

  /**
   * The ordinal of the bucket holding `ts`, a row outside the current bucket's [lo, hi): that
   * bucket becomes the current one (`cur`, `lo`, `hi`), numbered on first sight.
   */
  enter(ts: number): number {
    const lo = this.sampler.floor(ts)
    this.lo = lo
    this.hi = this.sampler.next(lo)
    let ord = this.byStart.get(lo)
    if (ord === undefined) {
      ord = this.starts.length
      if (ord > 0 && lo < this.starts[ord - 1]!) this.ordered = false
      this.starts.push(lo)
      this.byStart.set(lo, ord)
    } else if (ord < this.cur) this.ordered = false
    this.cur = ord
    return ord
  }
}
