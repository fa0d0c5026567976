import t from 'tap'
import { formatDate, formatTimestamp, parseTimestamp, parseTimestampExact, parseTimestampPeriod } from '../../../lib/types/timestamp.js'

const iso = (s: string): string => formatTimestamp(parseTimestamp(s)!)

t.test('parses every ISO prefix to its floor', async (t) => {
  t.equal(parseTimestamp('1970-01-01T00:00:00.000000Z'), 0)
  t.equal(iso('2020'), '2020-01-01T00:00:00.000000Z')
  t.equal(iso('2020-02'), '2020-02-01T00:00:00.000000Z')
  t.equal(iso('2020-02-29'), '2020-02-29T00:00:00.000000Z')
  t.equal(iso('2020-02-29T10'), '2020-02-29T10:00:00.000000Z')
  t.equal(iso('2020-02-29 10:11'), '2020-02-29T10:11:00.000000Z')
  t.equal(iso('2020-02-29T10:11:12'), '2020-02-29T10:11:12.000000Z')
  t.equal(iso('2020-02-29T10:11:12.1'), '2020-02-29T10:11:12.100000Z')
  t.equal(iso('2020-02-29T10:11:12.123456Z'), '2020-02-29T10:11:12.123456Z')
  t.equal(iso('2020-02-29T10:11:12.123456789Z'), '2020-02-29T10:11:12.123456Z')
  t.equal(parseTimestamp('2020-01-08T17:55:42.000000Z'), 1578506142000000)
})

t.test('zone offsets', async (t) => {
  t.equal(iso('2026-01-12T12:35:26.123456+01:30'), '2026-01-12T11:05:26.123456Z')
  t.equal(iso('2026-01-12T12:35:26.123456+0130'), '2026-01-12T11:05:26.123456Z')
  t.equal(iso('2026-01-12T12:35:26-02'), '2026-01-12T14:35:26.000000Z')
  t.equal(iso('2026-01-12T00:00:00-01:00'), '2026-01-12T01:00:00.000000Z')
  t.equal(iso('2026-01-12Z'), '2026-01-12T00:00:00.000000Z')
})

t.test('rejects malformed literals', async (t) => {
  for (const s of ['', 'abc', '202', '2020-13', '2020-02-30', '2021-02-29', '2020-01-01T24', '2020-01-01T10:60',
    '2020-01-01T10:00:61', '2020-01-01T10:00:00.', '2020-01-01T10:00:00.1234567890', '2020-01-01X', '2020-1-01', '3 day', '2020-01-01T10:00+25']) {
    t.equal(parseTimestamp(s), null, s)
  }
})

t.test('periods', async (t) => {
  const per = (s: string): string[] => { const p = parseTimestampPeriod(s)!; return [formatTimestamp(p.lo), formatTimestamp(p.hi)] }
  t.same(per('2020-01-01'), ['2020-01-01T00:00:00.000000Z', '2020-01-01T23:59:59.999999Z'])
  t.same(per('2020'), ['2020-01-01T00:00:00.000000Z', '2020-12-31T23:59:59.999999Z'])
  t.same(per('2020-12'), ['2020-12-01T00:00:00.000000Z', '2020-12-31T23:59:59.999999Z'])
  t.same(per('2020-02'), ['2020-02-01T00:00:00.000000Z', '2020-02-29T23:59:59.999999Z'])
  t.same(per('2020-01-01T10'), ['2020-01-01T10:00:00.000000Z', '2020-01-01T10:59:59.999999Z'])
  t.same(per('2020-01-01T10:00:55.1'), ['2020-01-01T10:00:55.100000Z', '2020-01-01T10:00:55.199999Z'])
  t.same(per('2020-01-01T10:00:55.000001Z'), ['2020-01-01T10:00:55.000001Z', '2020-01-01T10:00:55.000001Z'])
  t.same(per('2020-01-01T10+01:00'), ['2020-01-01T09:00:00.000000Z', '2020-01-01T09:59:59.999999Z'])
  t.equal(parseTimestampPeriod('nope'), null)
})

t.test('formats before 1970 and after 9999', async (t) => {
  t.equal(formatTimestamp(-1), '1969-12-31T23:59:59.999999Z')
  t.equal(formatTimestamp(2), '1970-01-01T00:00:00.000002Z')
  t.equal(formatTimestamp(-86400000000), '1969-12-31T00:00:00.000000Z')
  t.equal(iso('1900-03-01T12:00:00.5'), '1900-03-01T12:00:00.500000Z')
  t.equal(iso('0001-01-01'), '0001-01-01T00:00:00.000000Z')
  t.equal(formatTimestamp(253402300800000000), '10000-01-01T00:00:00.000000Z')
  t.equal(formatTimestamp(9223372036854775807n), '294247-01-10T04:00:54.775807Z')
  t.equal(parseTimestampExact('9999-12-31T23:59:59.999999Z'), 253402300799999999n)
  t.equal(parseTimestampExact('2255-01-01'), 8993721600000000)
})

t.test('agrees with Date for many instants', async (t) => {
  let bad = 0
  for (let k = 0; k < 5000; k++) {
    const ms = Math.round((Math.random() - 0.5) * 2 * 8e12)
    const us = ms * 1000 + Math.floor(Math.random() * 1000)
    const expect = new Date(ms).toISOString().replace('Z', String(us - ms * 1000 + 1000).slice(1) + 'Z')
    if (formatTimestamp(us) !== expect || parseTimestamp(expect) !== us) bad++
    if (formatDate(ms) !== new Date(ms).toISOString()) bad++
  }
  t.equal(bad, 0)
})

t.test('formatDate', async (t) => {
  t.equal(formatDate(0), '1970-01-01T00:00:00.000Z')
  t.equal(formatDate(-1), '1969-12-31T23:59:59.999Z')
  t.equal(formatDate(1577836800123), '2020-01-01T00:00:00.123Z')
})
