/**
 * Time-zone offsets for `to_timezone`, `to_utc` and `dateadd(..., tz)`: IANA names through
 * `Intl.DateTimeFormat`, fixed offsets (`+01:00`, `-0530`, `UTC+2`), and Java's three-letter
 * short ids (`PST` follows America/Los_Angeles, as QuestDB does). Offsets are cached per zone
 * and hour so the per-row cost is a map lookup.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'

/** Java's `ZoneId.SHORT_IDS`. */
const SHORT_IDS: Readonly<Record<string, string>> = {
  ACT: 'Australia/Darwin', AET: 'Australia/Sydney', AGT: 'America/Argentina/Buenos_Aires', ART: 'Africa/Cairo',
  AST: 'America/Anchorage', BET: 'America/Sao_Paulo', BST: 'Asia/Dhaka', CAT: 'Africa/Harare', CNT: 'America/St_Johns',
  CST: 'America/Chicago', CTT: 'Asia/Shanghai', EAT: 'Africa/Addis_Ababa', ECT: 'Europe/Paris',
  IET: 'America/Indiana/Indianapolis', IST: 'Asia/Kolkata', JST: 'Asia/Tokyo', MIT: 'Pacific/Apia', NET: 'Asia/Yerevan',
  NST: 'Pacific/Auckland', PLT: 'Asia/Karachi', PNT: 'America/Phoenix', PRT: 'America/Puerto_Rico',
  PST: 'America/Los_Angeles', SST: 'Pacific/Guadalcanal', VST: 'Asia/Ho_Chi_Minh',
  EST: '-05:00', MST: '-07:00', HST: '-10:00',
}

/** A resolved zone: the UTC offset (microseconds) in force at a UTC instant. */
export interface Zone {
  readonly name: string
  offsetAt(utcMicros: number): number
}

const HOUR_MICROS = 3_600_000_000

function fixedOffset(text: string): number | undefined {
  const m = /^(?:UTC|GMT|Z)?([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(text)
  if (m === null) return text === 'UTC' || text === 'GMT' || text === 'Z' ? 0 : undefined
  const h = Number(m[2]), mi = Number(m[3] ?? '0')
  if (h > 18 || mi > 59) return undefined
  return (m[1] === '-' ? -1 : 1) * (h * 60 + mi) * 60_000_000
}

function intlZone(name: string): Zone | undefined {
  let fmt: Intl.DateTimeFormat
  try {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: name, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    })
  } catch {
    return undefined
  }
  const cache = new Map<number, number>()
  return {
    name,
    offsetAt(utc: number): number {
      const hour = Math.floor(utc / HOUR_MICROS)
      let off = cache.get(hour)
      if (off === undefined) {
        const ms = hour * 3_600_000
        const p: Record<string, number> = {}
        for (const part of fmt.formatToParts(new Date(ms))) if (part.type !== 'literal') p[part.type] = Number(part.value)
        const local = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!)
        off = (local - ms) * 1000
        if (cache.size > 100_000) cache.clear()
        cache.set(hour, off)
      }
      return off
    },
  }
}

const zones = new Map<string, Zone>()

/** Resolves a zone name or offset, or throws SqlError 22023 at `position`. */
export function zoneOf(text: string, position = -1): Zone {
  let z = zones.get(text)
  if (z !== undefined) return z
  const mapped = SHORT_IDS[text] ?? text
  const fixed = fixedOffset(mapped)
  z = fixed !== undefined ? { name: text, offsetAt: () => fixed } : intlZone(mapped)
  if (z === undefined) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid timezone: ${text}`, position)
  zones.set(text, z)
  return z
}

/** UTC -> local wall-clock time (`to_timezone`). */
export function utcToLocal(utc: number, z: Zone): number {
  return utc + z.offsetAt(utc)
}

/** Local wall-clock time -> UTC (`to_utc`); in a gap or overlap the earlier offset wins. */
export function localToUtc(local: number, z: Zone): number {
  const guess = local - z.offsetAt(local)
  const off = z.offsetAt(guess)
  const second = local - off
  return z.offsetAt(second) === off ? second : guess
}
