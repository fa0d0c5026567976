/**
 * The timers of materialized views (QuestDB 9's MatViewTimerJob): a `REFRESH EVERY` view's timer
 * and a `PERIOD` view's period timer. Both count on the wall clock of their time zone: the start
 * and every deadline are local times, stepped by the interval in local time (so `EVERY 1d` keeps
 * its local time of day across a daylight-saving change) and turned into UTC instants (a local
 * time in a gap moves forward, in an overlap it is the earlier instant). Pure arithmetic: the
 * refresher asks a timer for its next deadline and tells it when it fired; tests do the same.
 */
import { floorTo, addUnits, type TimeUnit } from '../types/calendar.js'
import { localToUtc, utcToLocal } from '../types/time-zone.js'

/** What a timer counts: an interval (count and unit letter), its first local time, its zone. */
export interface TimerSpec {
  readonly count: number
  readonly unit: string
  /** the first deadline on the zone's wall clock (µs; UTC without a zone) */
  readonly start: number
  readonly timeZone?: string
  /** a period timer's DELAY after each period's end (µs) */
  readonly delay?: number
}

/**
 * One timer. `every`: fires at `start` and every interval after it (from now on: a timer created
 * late fires at the next step, not for the steps it missed). `period`: fires `delay` after the
 * end of each period, starting with the period that ended last (so a view sees every complete
 * period refreshed); {@link RefreshTimer.periodHi} is the end of the period a firing completes.
 */
export class RefreshTimer {
  /** the awaited deadline on the zone's wall clock (µs) */
  private local: number
  private utc: number

  constructor(readonly kind: 'every' | 'period', private readonly spec: TimerSpec, nowUtc: number) {
    const nowLocal = this.toLocal(nowUtc)
    if (nowLocal <= spec.start) this.local = spec.start
    else if (kind === 'every') this.local = this.step(this.round(nowLocal - 1), 1)
    else this.local = this.round(nowLocal)
    this.utc = this.toUtc(this.local)
  }

  /** When the timer fires next (UTC µs). */
  get deadline(): number {
    return this.utc + (this.spec.delay ?? 0)
  }

  /** The end of the period the next firing completes (UTC µs, exclusive). */
  get periodHi(): number {
    return this.utc
  }

  /** After a firing: the next deadline (later than this one, even where the zone's clock repeats). */
  advance(): void {
    const before = this.utc
    do {
      this.local = this.step(this.local, 1)
      this.utc = this.toUtc(this.local)
    } while (this.utc <= before)
  }

  /** The next `n` deadlines from now on (UTC µs), without moving the timer. */
  upcoming(n: number): number[] {
    const copy = Object.create(RefreshTimer.prototype) as RefreshTimer
    Object.assign(copy, this)
    const out: number[] = []
    for (let i = 0; i < n; i++) { out.push(copy.deadline); copy.advance() }
    return out
  }

  /** The latest grid time (start plus whole intervals) at or before local time `t`. */
  private round(t: number): number {
    const { count, unit, start } = this.spec
    if (unit === 'M' || unit === 'y') {
      // whole intervals of months from the start: an estimate by 28-day months, then corrected
      let k = Math.floor((t - start) / (28 * 86_400e6) / (unit === 'y' ? 12 : 1) / count)
      while (k > 0 && this.step(start, k) > t) k--
      while (this.step(start, k + 1) <= t) k++
      return this.step(start, k)
    }
    return floorTo(t, unit as TimeUnit, count, start)
  }

  private step(t: number, k: number): number {
    return addUnits(t, this.spec.unit as TimeUnit, this.spec.count * k)
  }

  private toLocal(utc: number): number {
    return this.spec.timeZone === undefined ? utc : utcToLocal(this.spec.timeZone, utc)
  }

  private toUtc(local: number): number {
    return this.spec.timeZone === undefined ? local : localToUtc(this.spec.timeZone, local)
  }
}

/** One PERIOD interval in µs (units m, h, d). */
export function periodMicros(count: number, unit: string): number {
  return count * (unit === 'd' ? 86_400e6 : unit === 'h' ? 3_600e6 : 60e6)
}

/**
 * The end (UTC µs, exclusive) of the last complete period at `nowUtc`: periods of `length` µs on
 * the zone's wall clock, aligned to `start` (QuestDB: the period boundary at CREATE), complete
 * once `delay` µs have passed after their end.
 */
export function completePeriodsHi(nowUtc: number, length: number, delay: number, start: number, timeZone: string | undefined): number {
  const nowLocal = timeZone === undefined ? nowUtc : utcToLocal(timeZone, nowUtc)
  const t = nowLocal - delay
  const hiLocal = start + Math.floor((t - start) / length) * length
  return timeZone === undefined ? hiLocal : localToUtc(timeZone, hiLocal)
}
