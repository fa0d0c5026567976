import t from 'tap'
import { addUnitsInZone, isValidTimeZone, localToUtc, tzOffsetMicros, utcToLocal } from '../../../lib/types/time-zone.js'
import { formatTimestamp, parseTimestamp } from '../../../lib/types/timestamp.js'
import { SqlError } from '../../../lib/errors.js'

const ts = (s: string): number => parseTimestamp(s)!
const HOUR = 3_600_000_000

t.test('reference conversions (§4.3)', async (t) => {
  t.equal(formatTimestamp(utcToLocal('Europe/Berlin', 1623167145000000)), '2021-06-08T17:45:45.000000Z')
  t.equal(formatTimestamp(utcToLocal('PST', ts('2021-06-08T13:45:45Z'))), '2021-06-08T06:45:45.000000Z')
  t.equal(formatTimestamp(localToUtc('Europe/Berlin', ts('2021-06-08T17:45:45'))), '2021-06-08T15:45:45.000000Z')
  t.equal(formatTimestamp(localToUtc('PST', ts('2021-06-08T06:45:45'))), '2021-06-08T13:45:45.000000Z')
})

t.test('offsets', async (t) => {
  t.equal(tzOffsetMicros('UTC', 0), 0)
  t.equal(tzOffsetMicros('GMT', 0), 0)
  t.equal(tzOffsetMicros('Europe/London', ts('2024-01-01')), 0)
  t.equal(tzOffsetMicros('Europe/London', ts('2024-07-01')), HOUR)
  t.equal(tzOffsetMicros('America/New_York', ts('2024-01-01')), -5 * HOUR)
  t.equal(tzOffsetMicros('Asia/Kolkata', ts('2024-01-01')), 5.5 * HOUR)
  t.equal(tzOffsetMicros('+02:00', 0), 2 * HOUR)
  t.equal(tzOffsetMicros('-0530', 0), -5.5 * HOUR)
  t.equal(tzOffsetMicros('EST', ts('2024-07-01')), -5 * HOUR)
  t.equal(tzOffsetMicros('Europe/Berlin', ts('1950-07-01')), HOUR)
  t.ok(isValidTimeZone('Europe/Bratislava'))
  t.notOk(isValidTimeZone('Mars/Olympus'))
  t.throws(() => tzOffsetMicros('Mars/Olympus', 0), SqlError)
})

t.test('DST edges resolve like Java', async (t) => {
  // London 2024-03-31 01:00 UTC springs forward: local 01:30 does not exist -> 02:30 BST = 01:30 UTC
  t.equal(formatTimestamp(localToUtc('Europe/London', ts('2024-03-31T01:30'))), '2024-03-31T01:30:00.000000Z')
  // London 2024-10-27 falls back: local 01:30 happens twice -> the earlier (BST) instant 00:30 UTC
  t.equal(formatTimestamp(localToUtc('Europe/London', ts('2024-10-27T01:30'))), '2024-10-27T00:30:00.000000Z')
  t.equal(formatTimestamp(localToUtc('Europe/London', ts('2024-10-27T02:30'))), '2024-10-27T02:30:00.000000Z')
  t.equal(formatTimestamp(localToUtc('Europe/London', ts('2024-10-27T00:30'))), '2024-10-26T23:30:00.000000Z')
})

t.test('dateadd with a time zone keeps the local time', async (t) => {
  // the reference's example (§4.3) is consistent with an input of 09:00Z: 11:00 CEST + 1w = 11:00 CET = 10:00Z,
  // while adding a week without a zone keeps 09:00Z
  t.equal(formatTimestamp(addUnitsInZone(ts('2024-10-21T09:00:00Z'), 'w', 1, 'Europe/Bratislava')), '2024-10-28T10:00:00.000000Z')
  t.equal(formatTimestamp(addUnitsInZone(ts('2024-10-21T09:00:00Z'), 'h', 24 * 7, 'Europe/Bratislava')), '2024-10-28T09:00:00.000000Z')
  t.equal(formatTimestamp(addUnitsInZone(ts('2024-10-21T09:00:00Z'), 'd', 7, 'Europe/Bratislava')), '2024-10-28T10:00:00.000000Z')
})
