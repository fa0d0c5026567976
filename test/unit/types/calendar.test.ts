import t from 'tap'
import * as cal from '../../../lib/types/calendar.js'
import { formatTimestamp, parseTimestamp } from '../../../lib/types/timestamp.js'

const ts = (s: string): number => parseTimestamp(s)!
const iso = formatTimestamp

t.test('addUnits', async (t) => {
  t.equal(iso(cal.addUnits(ts('2024-01-31'), 'M', 1)), '2024-02-29T00:00:00.000000Z')
  t.equal(iso(cal.addUnits(ts('2023-01-31T10:00'), 'M', 1)), '2023-02-28T10:00:00.000000Z')
  t.equal(iso(cal.addUnits(ts('2024-02-29'), 'y', 1)), '2025-02-28T00:00:00.000000Z')
  t.equal(iso(cal.addUnits(ts('2024-03-31'), 'M', -1)), '2024-02-29T00:00:00.000000Z')
  t.equal(iso(cal.addUnits(ts('2024-01-15'), 'M', -13)), '2022-12-15T00:00:00.000000Z')
  t.equal(iso(cal.addUnits(ts('2024-10-21T10:00:00Z'), 'w', 1)), '2024-10-28T10:00:00.000000Z')
  t.equal(iso(cal.addUnits(ts('2024-01-01'), 'h', 25)), '2024-01-02T01:00:00.000000Z')
  t.equal(cal.addUnits(0, 'T', 3), 3000)
  t.equal(cal.addUnits(0, 'n', 3999), 3)
  t.equal(iso(cal.addUnits(ts('1969-12-31'), 'd', 1)), '1970-01-01T00:00:00.000000Z')
})

t.test('floorTo / ceilTo', async (t) => {
  t.equal(iso(cal.floorTo(ts('2018-01-01'), 'd', 5)), '2017-12-30T00:00:00.000000Z')
  t.equal(iso(cal.floorTo(ts('2018-01-01'), 'd', 5, ts('2018-01-01'))), '2018-01-01T00:00:00.000000Z')
  t.equal(iso(cal.floorTo(ts('2024-01-04T10:00'), 'w')), '2024-01-01T00:00:00.000000Z')
  t.equal(iso(cal.floorTo(ts('1970-01-01'), 'w')), '1969-12-29T00:00:00.000000Z')
  t.equal(iso(cal.floorTo(ts('2016-02-10T16:18:22.862145Z'), 'M')), '2016-02-01T00:00:00.000000Z')
  t.equal(iso(cal.floorTo(ts('2016-02-10T16:18:22.862145Z'), 'y')), '2016-01-01T00:00:00.000000Z')
  t.equal(iso(cal.floorTo(ts('2016-02-10T16:18:22.862145Z'), 'h')), '2016-02-10T16:00:00.000000Z')
  t.equal(iso(cal.floorTo(ts('2016-02-10T16:18:22.862145Z'), 'T')), '2016-02-10T16:18:22.862000Z')
  t.equal(iso(cal.floorTo(ts('2016-02-10T16:18:22.862145Z'), 'm', 15)), '2016-02-10T16:15:00.000000Z')
  t.equal(iso(cal.floorTo(ts('2016-05-10'), 'M', 3)), '2016-04-01T00:00:00.000000Z')
  t.equal(iso(cal.floorTo(ts('1969-12-31T23:59:59.5'), 's')), '1969-12-31T23:59:59.000000Z')
  t.equal(iso(cal.ceilTo(ts('2016-02-10T16:18:22.862145Z'), 'h')), '2016-02-10T17:00:00.000000Z')
  t.equal(iso(cal.ceilTo(ts('2016-02-10T16:00'), 'h')), '2016-02-10T16:00:00.000000Z')
  t.equal(iso(cal.ceilTo(ts('2016-02-10'), 'M')), '2016-03-01T00:00:00.000000Z')
})

t.test('fields', async (t) => {
  const x = ts('2023-03-11T22:00:30.555555Z')
  t.equal(cal.yearOf(x), 2023)
  t.equal(cal.monthOf(x), 3)
  t.equal(cal.dayOfMonth(x), 11)
  t.equal(cal.hourOf(x), 22)
  t.equal(cal.minuteOf(x), 0)
  t.equal(cal.secondOf(x), 30)
  t.equal(cal.millisOf(x), 555)
  t.equal(cal.microsOf(x), 555)
  t.equal(cal.weekOfYear(x), 10)
  t.equal(cal.dayOfWeek(x), 6) // Saturday
  t.equal(cal.dayOfWeekSundayFirst(x), 7)
  t.equal(cal.dayOfYear(x), 70)
  t.equal(cal.quarterOf(x), 1)
  t.equal(cal.daysInMonthOf(ts('2024-02-10')), 29)
  t.equal(cal.isLeapYearOf(ts('2100-02-10')), false)
  t.equal(cal.isLeapYearOf(ts('2000-02-10')), true)
  t.same(cal.isoWeek(ts('2021-01-03')), [2020, 53])
  t.same(cal.isoWeek(ts('2024-12-30')), [2025, 1])
  t.equal(cal.dayOfWeek(ts('1969-12-29')), 1)
  t.equal(cal.hourOf(-1), 23)
  t.equal(cal.microsOf(-1), 999)
})
