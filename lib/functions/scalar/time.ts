/**
 * Date/time functions (QuestDB's date-time.md): current time (now, systimestamp, sysdate,
 * today, tomorrow, yesterday), arithmetic (dateadd, datediff), rounding (timestamp_floor,
 * timestamp_ceil, date_trunc) and time zones (to_timezone, to_utc). Timestamps are microseconds
 * since the epoch (UTC); calendar math comes from lib/types/calendar.ts.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import { addUnits, floorTo, ceilTo, yearOf, type TimeUnit, UNIT_MICROS } from '../../types/calendar.js'
import { civilFromDays, daysFromCivil, dayOf, MICROS_PER_DAY } from '../../types/civil.js'
import type { Scalar, Vector } from '../../types/vector.js'
import type { CallSite, ScalarFunctionDef } from '../registry-types.js'
import { textAt, toF64 } from '../kernel-helpers.js'
import { mapTimeOf, parseUnit, type StridedUnit } from './time-helpers.js'
import { checkTimeZone, isValidTimeZone, localToUtc, utcToLocal } from '../../types/time-zone.js'
import { intervalValue } from '../../types/interval-value.js'

/** Whole months from `a` to `b` (a <= b), counting a month only when its day and time are reached. */
function monthsBetween(a: number, b: number): number {
  const da = dayOf(a), db = dayOf(b)
  const ca = civilFromDays(da), ya = ca[0]!, ma = ca[1]!, dda = ca[2]!
  const cb = civilFromDays(db), yb = cb[0]!, mb = cb[1]!, ddb = cb[2]!
  let months = (yb - ya) * 12 + (mb - ma)
  const ra = (dda - 1) * MICROS_PER_DAY + (a - da * MICROS_PER_DAY)
  const rb = (ddb - 1) * MICROS_PER_DAY + (b - db * MICROS_PER_DAY)
  if (months > 0 && rb < ra) months--
  return months
}

/** `datediff(unit, a, b)`: the absolute number of whole units between two timestamps. */
export function dateDiff(unit: TimeUnit, a: number, b: number): number {
  const lo = Math.min(a, b), hi = Math.max(a, b)
  switch (unit) {
    case 'M': return monthsBetween(lo, hi)
    case 'y': return Math.trunc(monthsBetween(lo, hi) / 12)
    case 'n': return (hi - lo) * 1000
    default: return Math.floor((hi - lo) / UNIT_MICROS[unit])
  }
}

/** `date_trunc(unit, ts)` with PostgreSQL unit names. */
export function dateTrunc(unit: string, ts: number): number {
  switch (unit) {
    case 'millennium': case 'century': case 'decade': {
      const y = yearOf(ts)
      const start = unit === 'decade' ? Math.floor(y / 10) * 10 : unit === 'century' ? Math.floor((y - 1) / 100) * 100 + 1 : Math.floor((y - 1) / 1000) * 1000 + 1
      return daysFromCivil(start, 1, 1) * MICROS_PER_DAY
    }
    case 'year': return floorTo(ts, 'y')
    case 'quarter': return floorTo(ts, 'M', 3)
    case 'month': return floorTo(ts, 'M')
    case 'week': return floorTo(ts, 'w')
    case 'day': return floorTo(ts, 'd')
    case 'hour': return floorTo(ts, 'h')
    case 'minute': return floorTo(ts, 'm')
    case 'second': return floorTo(ts, 's')
    case 'millisecond': case 'milliseconds': return floorTo(ts, 'T')
    case 'microsecond': case 'microseconds': case 'nanosecond': case 'nanoseconds': return ts
    default: return NaN
  }
}

const DATE_TRUNC_UNITS = new Set(['millennium', 'century', 'decade', 'year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millisecond', 'milliseconds', 'microsecond', 'microseconds', 'nanosecond', 'nanoseconds'])

/** Init for functions whose first argument is a unit: parses a constant unit once. */
function unitInit(site: CallSite): { unit: StridedUnit | undefined; pos: number } {
  const c = site.constants[0]
  const pos = site.argPositions[0] ?? site.pos
  return { unit: typeof c === 'string' ? parseUnit(c, pos) : undefined, pos }
}

type UnitState = ReturnType<typeof unitInit>

function unitAt(st: UnitState | undefined, v: Vector, i: number): StridedUnit | null {
  if (st?.unit !== undefined) return st.unit
  const t = textAt(v, i)
  return t === null ? null : parseUnit(t, st?.pos ?? -1)
}

function tz(a: Scalar, site: unknown): string {
  return checkTimeZone(String(a), typeof site === 'number' ? site : -1)
}

const tzPos = (argIndex: number) => (site: CallSite) => site.argPositions[argIndex] ?? site.pos

/**
 * `to_timezone` / `to_utc`'s zone argument, as QuestDB checks it: a constant zone is checked when
 * the call is bound (22023 `invalid timezone: X`, or `timezone must not be null`, at the
 * argument), so also when no row is computed; a zone read per row (a column) is not — see
 * {@link zoneRow}.
 */
function zoneArgInit(site: CallSite): undefined {
  const c = site.constants[1]
  const pos = site.argPositions[1] ?? site.pos
  if (c === null) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'timezone must not be null', pos)
  if (typeof c === 'string') checkTimeZone(c, pos)
  return undefined
}

/** One row of `to_timezone` / `to_utc`: a NULL or unknown zone read per row leaves the timestamp unchanged, as in QuestDB. */
function zoneRow(a: readonly Scalar[], convert: (tz: string, micros: number) => number): Scalar {
  const ts = a[0]
  if (ts === null || ts === undefined) return null
  const z = a[1]
  if (z === null || z === undefined || !isValidTimeZone(String(z))) return ts
  return convert(String(z), Number(ts))
}

/** The date/time arithmetic, rounding and zone functions. */
export const TIME_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'now', family: 'time', description: 'The statement\'s start time; the same for every row.', example: 'SELECT now()',
    signatures: [{ args: [], returns: 'TIMESTAMP' }], row: (_a, ctx) => ctx.now,
  },
  {
    kind: 'scalar', name: 'systimestamp', family: 'time', description: 'The current time, read on every call.', example: 'SELECT systimestamp()',
    signatures: [{ args: [], returns: 'TIMESTAMP' }], deterministic: false, readsClock: true, row: (_a, ctx) => Math.floor(ctx.clock()),
  },
  {
    kind: 'scalar', name: 'sysdate', family: 'time', description: 'The current time as a DATE (milliseconds), read on every call.', example: 'SELECT sysdate()',
    signatures: [{ args: [], returns: 'DATE' }], deterministic: false, readsClock: true, row: (_a, ctx) => Math.floor(ctx.clock() / 1000),
  },
  ...([['today', 0], ['tomorrow', 1], ['yesterday', -1]] as const).map(([name, shift]): ScalarFunctionDef => ({
    kind: 'scalar', name, family: 'time',
    description: `${name === 'today' ? 'The current' : name === 'tomorrow' ? 'The next' : 'The previous'} day as an INTERVAL (UTC, or the day in the given time zone as UTC bounds; NULL for an unknown zone), as QuestDB 9 returns it.`,
    example: `SELECT ${name}(), ${name}('Europe/Berlin')`,
    signatures: [{ args: [], returns: 'INTERVAL' }, { args: ['STRING'], returns: 'INTERVAL' }],
    init: tzPos(0),
    row: (a, ctx, pos) => {
      // QuestDB's AbstractDayIntervalFunction: [start of the day, start + 1 day - 1 microsecond]
      if (a.length === 0) { const lo = (dayOf(ctx.now) + shift) * MICROS_PER_DAY; return intervalValue(lo, lo + MICROS_PER_DAY - 1, false) }
      let z: string
      try { z = tz(a[0]!, pos) } catch { return null } // QuestDB: an unknown zone gives a NULL interval
      const local = (dayOf(utcToLocal(z, ctx.now)) + shift) * MICROS_PER_DAY
      return intervalValue(localToUtc(z, local), localToUtc(z, local + MICROS_PER_DAY - 1), false)
    },
  })),
  {
    kind: 'scalar', name: 'dateadd', family: 'time',
    description: 'Adds n units (n u T s m h d w M y) to a timestamp; with a time zone, in local time.',
    example: "SELECT dateadd('w', 1, '2024-10-21T10:00:00Z', 'Europe/Bratislava')",
    signatures: [{ args: ['TEXT', 'INT', 'TIMESTAMP'], returns: 'TIMESTAMP' }, { args: ['TEXT', 'INT', 'TIMESTAMP', 'STRING'], returns: 'TIMESTAMP' }],
    // a constant zone is checked when the call is bound; one read per row, at that row (NULL: 22023 `NULL timezone`), as in QuestDB
    check: (site) => {
      const c = site.constants[3]
      if (typeof c === 'string') checkTimeZone(c, site.argPositions[3] ?? site.pos)
    },
    init: (site) => ({ ...unitInit(site), tzPos: site.argPositions[3] ?? site.pos }),
    vector: (args, n, _ctx, state) => {
      const st = state as (UnitState & { tzPos: number }) | undefined
      const nv = toF64(args[1]!)
      const zv = args[3]
      return mapTimeOf(args, args[2]!, n, 'TIMESTAMP', (ts, i) => {
        const u = unitAt(st, args[0]!, i), k = nv.data[i * nv.s]!
        if (u === null || k !== k) return NaN
        if (zv === undefined) return addUnits(ts, u.unit, k * u.stride)
        const zt = textAt(zv, i)
        if (zt === null) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'NULL timezone', st?.tzPos ?? -1)
        const z = checkTimeZone(zt, st?.tzPos ?? -1)
        return localToUtc(z, addUnits(utcToLocal(z, ts), u.unit, k * u.stride))
      })
    },
  },
  {
    kind: 'scalar', name: 'datediff', family: 'time',
    description: 'The absolute number of whole units between two timestamps.', example: "SELECT datediff('d', '2020-01-23', '2020-01-27')",
    signatures: [{ args: ['TEXT', 'TIMESTAMP', 'TIMESTAMP'], returns: 'LONG' }],
    init: unitInit,
    vector: (args, n, _ctx, state) => {
      const b = toF64(args[2]!)
      return mapTimeOf(args, args[1]!, n, 'LONG', (a, i) => {
        const u = unitAt(state as UnitState | undefined, args[0]!, i), y = b.data[i * b.s]!
        return u === null || y !== y ? NaN : dateDiff(u.unit, a, y)
      })
    },
  },
  {
    kind: 'scalar', name: 'timestamp_floor', family: 'time',
    description: 'Floors to a (strided) unit from the epoch, or from the optional offset timestamp; weeks start on Monday.',
    example: "SELECT timestamp_floor('5d', '2018-01-01')",
    signatures: [{ args: ['TEXT', 'TIMESTAMP'], returns: 'TIMESTAMP' }, { args: ['TEXT', 'TIMESTAMP', 'TIMESTAMP'], returns: 'TIMESTAMP' }],
    init: unitInit,
    vector: (args, n, _ctx, state) => {
      const off = args[2] === undefined ? undefined : toF64(args[2])
      return mapTimeOf(args, args[1]!, n, 'TIMESTAMP', (ts, i) => {
        const u = unitAt(state as UnitState | undefined, args[0]!, i)
        if (u === null) return NaN
        const o = off === undefined ? undefined : off.data[i * off.s]!
        return o !== undefined && o !== o ? floorTo(ts, u.unit, u.stride) : floorTo(ts, u.unit, u.stride, o)
      })
    },
  },
  {
    kind: 'scalar', name: 'timestamp_ceil', family: 'time',
    description: 'Ceils to a (strided) unit: the smallest unit boundary at or after the timestamp.', example: "SELECT timestamp_ceil('d', '2016-02-10T16:18:22.862145Z')",
    signatures: [{ args: ['TEXT', 'TIMESTAMP'], returns: 'TIMESTAMP' }],
    init: unitInit,
    vector: (args, n, _ctx, state) => mapTimeOf(args, args[1]!, n, 'TIMESTAMP', (ts, i) => {
      const u = unitAt(state as UnitState | undefined, args[0]!, i)
      return u === null ? NaN : ceilTo(ts, u.unit, u.stride)
    }),
  },
  {
    kind: 'scalar', name: 'date_trunc', family: 'time',
    description: 'Truncates to millennium, century, decade, year, quarter, month, week, day, hour, minute, second, milliseconds or microseconds.',
    example: "SELECT date_trunc('month', now())",
    signatures: [{ args: ['TEXT', 'TIMESTAMP'], returns: 'TIMESTAMP' }],
    init: (site) => {
      const c = site.constants[0]
      if (typeof c === 'string' && !DATE_TRUNC_UNITS.has(c.toLowerCase())) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `invalid unit '${c}'`, site.argPositions[0] ?? site.pos)
      return undefined
    },
    vector: (args, n) => mapTimeOf(args, args[1]!, n, 'TIMESTAMP', (ts, i) => {
      const u = textAt(args[0]!, i)
      return u === null ? NaN : dateTrunc(u.toLowerCase(), ts)
    }),
  },
  {
    kind: 'scalar', name: 'to_timezone', family: 'time',
    description: 'Converts a UTC timestamp to the wall-clock time of a zone.', example: "SELECT to_timezone(1623167145000000, 'Europe/Berlin')",
    signatures: [{ args: ['TIMESTAMP', 'STRING'], returns: 'TIMESTAMP' }],
    check: zoneArgInit,
    nullStrict: false,
    row: (a) => zoneRow(a, utcToLocal),
  },
  {
    kind: 'scalar', name: 'to_utc', family: 'time',
    description: 'Converts a wall-clock time of a zone to UTC.', example: "SELECT to_utc('2021-06-08T17:45:45Z', 'Europe/Berlin')",
    signatures: [{ args: ['TIMESTAMP', 'STRING'], returns: 'TIMESTAMP' }],
    check: zoneArgInit,
    nullStrict: false,
    row: (a) => zoneRow(a, localToUtc),
  },
]
