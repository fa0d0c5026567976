/**
 * Field extraction from timestamps: `extract(unit FROM ts)` (the binder passes
 * `extract('unit', ts)`) and the single-field functions year, month, day, hour, minute,
 * second, millis (of the second), micros (of the millisecond), nanos, day_of_week
 * (1 = Monday), day_of_week_sunday_first, week_of_year (ISO), days_in_month, is_leap_year,
 * is_end_of_month. All are vector kernels over the timestamp column.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import {
  dayOfMonth, dayOfWeek, dayOfWeekSundayFirst, dayOfYear, daysInMonthOf, hourOf, isLeapYearOf, isoWeek,
  microsOf, millisOf, minuteOf, monthOf, quarterOf, secondOf, weekOfYear, yearOf,
} from '../../types/calendar.js'
import { floorDiv } from '../../types/civil.js'
import type { ColumnType } from '../../types/column-type.js'
import type { ScalarFunctionDef } from '../registry-types.js'
import { textAt } from '../kernel-helpers.js'
import { mapTime, mapTimeOf } from './time-helpers.js'

type Field = (ts: number) => number

/** The fields `extract` knows, by (lower-case) unit name. */
export const EXTRACT_FIELDS: Readonly<Record<string, Field>> = {
  millennium: (ts) => Math.floor((yearOf(ts) - 1) / 1000) + 1,
  century: (ts) => Math.floor((yearOf(ts) - 1) / 100) + 1,
  decade: (ts) => Math.floor(yearOf(ts) / 10),
  year: yearOf,
  isoyear: (ts) => isoWeek(ts)[0],
  quarter: quarterOf,
  month: monthOf,
  week: weekOfYear,
  doy: dayOfYear,
  dow: (ts) => dayOfWeek(ts) % 7,
  isodow: dayOfWeek,
  day: dayOfMonth,
  hour: hourOf,
  minute: minuteOf,
  second: secondOf,
  milliseconds: millisOf,
  microseconds: (ts) => ts - floorDiv(ts, 1_000_000) * 1_000_000,
  nanoseconds: (ts) => (ts - floorDiv(ts, 1_000_000) * 1_000_000) * 1000,
  epoch: (ts) => floorDiv(ts, 1_000_000),
}

function fieldOf(unit: string, position: number): Field {
  const f = EXTRACT_FIELDS[unit.toLowerCase()]
  if (f === undefined) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `unsupported extract unit: ${unit}`, position)
  return f
}

function field(name: string, f: Field, description: string, ret: ColumnType = 'INT'): ScalarFunctionDef {
  return {
    kind: 'scalar', name, family: 'time', description, example: `SELECT ${name}(now())`,
    signatures: [{ args: ['TIMESTAMP'], returns: ret }],
    vector: (args, n) => mapTime(args[0]!, n, ret, f),
  }
}

const endOfMonth: Field = (ts) => (dayOfMonth(ts) === daysInMonthOf(ts) ? 1 : 0)

/** extract and the single-field time functions. */
export const TIME_FIELD_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'extract', family: 'time',
    description: 'A field of a timestamp: millennium, century, decade, year, isoyear, quarter, month, week, doy, dow, isodow, day, hour, minute, second, milliseconds, microseconds, nanoseconds, epoch.',
    example: "SELECT extract(week FROM '2023-03-11T22:00:30.555555Z')",
    signatures: [{ args: ['TEXT', 'TIMESTAMP'], returns: 'INT' }],
    init: (site) => {
      const c = site.constants[0]
      const pos = site.argPositions[0] ?? site.pos
      return { f: typeof c === 'string' ? fieldOf(c, pos) : undefined, pos }
    },
    vector: (args, n, _ctx, state) => {
      const st = state as { f: Field | undefined; pos: number } | undefined
      const f = st?.f
      if (f !== undefined) return mapTimeOf(args, args[1]!, n, 'INT', f)
      return mapTimeOf(args, args[1]!, n, 'INT', (ts, i) => {
        const u = textAt(args[0]!, i)
        return u === null ? NaN : fieldOf(u, st?.pos ?? -1)(ts)
      })
    },
  },
  field('year', yearOf, 'Calendar year.'),
  field('month', monthOf, 'Month of the year, 1-12.'),
  field('day', dayOfMonth, 'Day of the month, 1-31.'),
  field('hour', hourOf, 'Hour of the day, 0-23.'),
  field('minute', minuteOf, 'Minute of the hour, 0-59.'),
  field('second', secondOf, 'Second of the minute, 0-59.'),
  field('millis', millisOf, 'Milliseconds of the second, 0-999.'),
  field('micros', microsOf, 'Microseconds of the millisecond, 0-999.'),
  field('nanos', () => 0, 'Nanoseconds of the microsecond (always 0 for microsecond timestamps).'),
  field('day_of_week', dayOfWeek, 'Day of the week, 1 = Monday ... 7 = Sunday.'),
  field('day_of_week_sunday_first', dayOfWeekSundayFirst, 'Day of the week, 1 = Sunday ... 7 = Saturday.'),
  field('week_of_year', weekOfYear, 'ISO-8601 week of the year, 1-53.'),
  field('days_in_month', daysInMonthOf, 'Number of days in the timestamp\'s month.'),
  field('is_leap_year', (ts) => (isLeapYearOf(ts) ? 1 : 0), 'True when the timestamp\'s year is a leap year.', 'BOOLEAN'),
  field('is_end_of_month', endOfMonth, 'True on the last day of the month.', 'BOOLEAN'),
]
