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
  /** the awaited deadline's index on the grid: its local time is `start` plus `k` intervals */
  private k: number
  /** the awaited deadline on the zone's wall clock (µs) */
  private local: number
  private utc: number

  constructor(readonly kind: 'every' | 'period', private readonly spec: TimerSpec, nowUtc: number) {
    const nowLocal = this.toLocal(nowUtc)
    this.k = nowLocal <= spec.start ? 0 : kind === 'every' ? this.index(nowLocal - 1) + 1 : this.index(nowLocal)
    this.local = this.step(spec.start, this.k)
    this.utc = this.toUtc(this.local)
  }

  /**
   * When the timer fires next (UTC µs). A period timer fires `delay` after its period's end on the
   * zone's wall clock, as {@link completePeriodsHi} counts a period complete (in UTC the two differ
   * when the clocks change in between: London's autumn change with a 2h delay fired an hour early,
   * found the period incomplete, and waited a day).
   */
  get deadline(): number {
    const delay = this.spec.delay ?? 0
    return delay === 0 ? this.utc : this.toUtc(this.local + delay)
  }

  /** The end of the period the next firing completes (UTC µs, exclusive). */
  get periodHi(): number {
    return this.utc
  }

  /**
   * After a firing: the next deadline (later than this one, even where the zone's clock repeats).
   * Counted from the start, not from the last deadline, so a month clamped short (`EVERY 1M` from
   * the 31st: February's last day) does not carry into the months after it.
   */
  advance(): void {
    const before = this.utc
    do {
      this.k++
      this.local = this.step(this.spec.start, this.k)
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

  /** The index `k` of the latest grid time (`start` plus `k` intervals) at or before local time `t` (not before `start`). */
  private index(t: number): number {
    const { count, unit, start } = this.spec
    if (unit === 'M' || unit === 'y') {
      // whole intervals of months from the start: an estimate by 28-day months, then corrected
      let k = Math.floor((t - start) / (28 * 86_400e6) / (unit === 'y' ? 12 : 1) / count)
      while (k > 0 && this.step(start, k) > t) k--
      while (this.step(start, k + 1) <= t) k++
      return k
    }
    return Math.round((floorTo(t, unit as TimeUnit, count, start) - start) / (this.step(start, 1) - start))
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
