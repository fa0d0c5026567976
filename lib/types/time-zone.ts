/**
 * Time zones for `to_timezone`, `to_utc`, `dateadd(..., tz)`, `today(tz)` and SAMPLE BY ... TIME ZONE:
 * the one module that turns a zone name into offsets, so every statement accepts the same names.
 * Accepts IANA names (`Europe/Berlin`), fixed offsets (`+02:00`, `-0530`, `UTC+01`), `UTC`,
 * `GMT`, `Z`, Java's short ids that QuestDB accepts (`PST` behaves as
 * `America/Los_Angeles`, `EST` is a fixed -05:00), and zone abbreviations and English long names
 * (`CEST`, `Pacific Daylight Time`: the rules of a region that uses them, see zone-names.ts). Rules come from `Intl.DateTimeFormat`
 * (in browsers and Node), with a small cache of offsets per 15-minute bucket.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../errors.js'
import { addUnits, type TimeUnit } from './calendar.js'
import { parseUtcOffset } from './utc-offset.js'
import { zoneForName } from './zone-names.js'

const MICROS_PER_MINUTE = 60_000_000
const MICROS_PER_DAY = 86_400_000_000
const BUCKET = 15 * MICROS_PER_MINUTE
const CACHE_LIMIT = 8192

/** Java's `ZoneId.SHORT_IDS`: region aliases and fixed offsets (minutes) for legacy abbreviations. */
const SHORT_IDS: Readonly<Record<string, string | number>> = {
  ACT: 'Australia/Darwin', AET: 'Australia/Sydney', AGT: 'America/Argentina/Buenos_Aires', ART: 'Africa/Cairo',
  AST: 'America/Anchorage', BET: 'America/Sao_Paulo', BST: 'Asia/Dhaka', CAT: 'Africa/Harare', CNT: 'America/St_Johns',
  CST: 'America/Chicago', CTT: 'Asia/Shanghai', EAT: 'Africa/Addis_Ababa', ECT: 'Europe/Paris', IET: 'America/Indiana/Indianapolis',
  IST: 'Asia/Kolkata', JST: 'Asia/Tokyo', MIT: 'Pacific/Apia', NET: 'Asia/Yerevan', NST: 'Pacific/Auckland', PLT: 'Asia/Karachi',
  PNT: 'America/Phoenix', PRT: 'America/Puerto_Rico', PST: 'America/Los_Angeles', SST: 'Pacific/Guadalcanal', VST: 'Asia/Ho_Chi_Minh',
  EST: -300, MST: -420, HST: -600, UTC: 0, GMT: 0, Z: 0, UT: 0,
}

/** A resolved time zone: a fixed offset, or rules read through Intl. */
type Zone =
  | { readonly kind: 'fixed'; readonly offset: number }
  | { readonly kind: 'intl'; readonly fmt: Intl.DateTimeFormat; readonly cache: Map<number, number> }

const zones = new Map<string, Zone>()

function resolve(tz: string, pos = -1): Zone {
  let z = zones.get(tz)
  if (z !== undefined) return z
  const fixed = parseUtcOffset(tz, { maxHours: 18 })
  const alias = SHORT_IDS[tz.toUpperCase()]
  if (fixed !== null) z = { kind: 'fixed', offset: fixed }
  else if (typeof alias === 'number') z = { kind: 'fixed', offset: alias * MICROS_PER_MINUTE }
  else {
    const fmt = intlFormat(typeof alias === 'string' ? alias : tz) ?? intlFormat(zoneForName(tz))
    if (fmt === undefined) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid timezone: ${tz}`, pos)
    z = { kind: 'intl', fmt, cache: new Map() }
  }
  zones.set(tz, z)
  return z
}

/** The wall-clock formatter of region `name`, or undefined when Intl does not know it. */
function intlFormat(name: string | undefined): Intl.DateTimeFormat | undefined {
  if (name === undefined) return undefined
  try {
    return new Intl.DateTimeFormat('en-US', {
      timeZone: name, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric', era: 'short',
    })
  } catch {
    return undefined
  }
}

/** Returns `tz` when it names a time zone this engine accepts; raises 22023 `invalid timezone` at `pos` otherwise. */
export function checkTimeZone(tz: string, pos = -1): string {
  resolve(tz, pos)
  return tz
}

/** True when `tz` names a time zone this engine accepts. */
export function isValidTimeZone(tz: string): boolean {
  try { resolve(tz); return true } catch { return false }
}

function intlOffset(fmt: Intl.DateTimeFormat, utcMicros: number): number {
  const ms = Math.floor(utcMicros / 1000)
  const sec = Math.floor(ms / 1000) * 1000
  const f: Record<string, string> = {}
  for (const p of fmt.formatToParts(sec)) f[p.type] = p.value
  let year = Number(f.year)
  if (f.era === 'BC' || f.era === 'B') year = 1 - year
  const local = Date.UTC(year, Number(f.month) - 1, Number(f.day), Number(f.hour), Number(f.minute), Number(f.second))
  // Date.UTC maps years 0-99 to 1900+; correct for them
  const fixed = year >= 0 && year < 100 ? new Date(local).setUTCFullYear(year) : local
  return (fixed - sec) * 1000
}

/**
 * The offset of zone `tz` from UTC at the instant `utcMicros`, in microseconds (positive east).
 * Raises 22023 `invalid timezone` for an unknown zone.
 */
export function tzOffsetMicros(tz: string, utcMicros: number): number {
  const z = resolve(tz)
  if (z.kind === 'fixed') return z.offset
  const key = Math.floor(utcMicros / BUCKET)
  let off = z.cache.get(key)
  if (off === undefined) {
    off = intlOffset(z.fmt, utcMicros)
    if (z.cache.size >= CACHE_LIMIT) z.cache.clear()
    z.cache.set(key, off)
  }
  return off
}

/** UTC → local wall-clock micros (`to_timezone`). */
export function utcToLocal(tz: string, utcMicros: number): number {
  return utcMicros + tzOffsetMicros(tz, utcMicros)
}

/**
 * Local wall-clock micros in `tz` → UTC (`to_utc`), resolving DST like Java's
 * `ZonedDateTime.ofLocal`: in an overlap the earlier instant (the offset before the transition);
 * in a gap the local time moves forward by the gap length.
 */
export function localToUtc(tz: string, localMicros: number): number {
  const before = tzOffsetMicros(tz, localMicros - MICROS_PER_DAY)
  const after = tzOffsetMicros(tz, localMicros + MICROS_PER_DAY)
  if (before === after) {
    const o = tzOffsetMicros(tz, localMicros - before)
    return localMicros - (o === before ? before : o)
  }
  const first = Math.max(before, after)
  const second = Math.min(before, after)
  if (tzOffsetMicros(tz, localMicros - first) === first) return localMicros - first
  if (tzOffsetMicros(tz, localMicros - second) === second) return localMicros - second
  return localMicros - before
}

/**
 * `dateadd(unit, n, ts, tz)`, like Java's `ZonedDateTime.plus`: days, weeks, months and years
 * are added on the local wall clock of `tz` (a week across a DST change keeps the local time of
 * day); hours and smaller units are added on the instant timeline.
 */
export function addUnitsInZone(utcMicros: number, unit: TimeUnit, n: number, tz: string): number {
  if (unit !== 'd' && unit !== 'w' && unit !== 'M' && unit !== 'y') return addUnits(utcMicros, unit, n)
  return localToUtc(tz, addUnits(utcToLocal(tz, utcMicros), unit, n))
}
