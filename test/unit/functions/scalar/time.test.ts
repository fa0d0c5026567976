import t from 'tap'
import { parseTimestamp, formatTimestamp } from '../../../../lib/types/timestamp.js'
import { dateDiff, dateTrunc } from '../../../../lib/functions/scalar/time.js'
import { cst, ctx, NOW, run, vec } from './helpers.js'

const ts = (s: string): number => parseTimestamp(s)!
const fmt = (xs: unknown[]): (string | null)[] => xs.map((x) => (x === null ? null : formatTimestamp(x as number)))

t.test('current time', async (t) => {
  t.same(run('now', []), [NOW])
  // QuestDB 9: the day as an INTERVAL, held with every digit of its bounds
  t.same(run('today', []), ["('2024-01-02T00:00:00.000000Z', '2024-01-02T23:59:59.999999Z')"])
  t.same(run('tomorrow', []), ["('2024-01-03T00:00:00.000000Z', '2024-01-03T23:59:59.999999Z')"])
  t.same(run('yesterday', []), ["('2024-01-01T00:00:00.000000Z', '2024-01-01T23:59:59.999999Z')"])
  t.same(run('sysdate', []), [Math.floor(ctx.clock() / 1000)])
})

t.test('datediff (docs)', async (t) => {
  t.equal(dateDiff('d', ts('2020-01-23'), ts('2020-01-27')), 4)
  t.equal(dateDiff('M', ts('2020-01-23'), ts('2020-02-27')), 1)
  t.equal(dateDiff('M', ts('2020-02-27'), ts('2020-01-23')), 1)
  t.equal(dateDiff('M', ts('2020-01-23'), ts('2020-02-22')), 0)
  t.equal(dateDiff('y', ts('2020-01-23'), ts('2023-01-22')), 2)
  t.same(run('datediff', [cst('STRING', 'd'), vec('TIMESTAMP', [ts('2020-01-23'), null]), cst('TIMESTAMP', ts('2020-01-27'), 2)]), [4, null])
})

t.test('timestamp_floor / ceil (docs)', async (t) => {
  t.same(fmt(run('timestamp_floor', [cst('STRING', '5d'), vec('TIMESTAMP', [ts('2018-01-01')])])), ['2017-12-30T00:00:00.000000Z'])
  t.same(fmt(run('timestamp_floor', [cst('STRING', '5d'), vec('TIMESTAMP', [ts('2018-01-01')]), cst('TIMESTAMP', ts('2018-01-01'))])), ['2018-01-01T00:00:00.000000Z'])
  const x = vec('TIMESTAMP', [ts('2016-02-10T16:18:22.862145Z'), null])
  t.same(fmt(run('timestamp_floor', [cst('STRING', 'M'), x])), ['2016-02-01T00:00:00.000000Z', null])
  t.same(fmt(run('timestamp_floor', [cst('STRING', 'w'), x])), ['2016-02-08T00:00:00.000000Z', null])
  t.same(fmt(run('timestamp_ceil', [cst('STRING', 'd'), x])), ['2016-02-11T00:00:00.000000Z', null])
  t.throws(() => run('timestamp_floor', [cst('STRING', 'q'), x]), { code: '22023', position: 10 })
})

t.test('date_trunc (docs)', async (t) => {
  const x = ts('2022-03-11T22:00:30.555555Z')
  t.equal(formatTimestamp(dateTrunc('hour', x)), '2022-03-11T22:00:00.000000Z')
  t.equal(formatTimestamp(dateTrunc('month', x)), '2022-03-01T00:00:00.000000Z')
  t.equal(formatTimestamp(dateTrunc('year', x)), '2022-01-01T00:00:00.000000Z')
  t.equal(formatTimestamp(dateTrunc('quarter', x)), '2022-01-01T00:00:00.000000Z')
  t.equal(formatTimestamp(dateTrunc('decade', x)), '2020-01-01T00:00:00.000000Z')
  t.equal(formatTimestamp(dateTrunc('century', x)), '2001-01-01T00:00:00.000000Z')
  t.equal(formatTimestamp(dateTrunc('week', x)), '2022-03-07T00:00:00.000000Z')
})

t.test('dateadd', async (t) => {
  const x = vec('TIMESTAMP', [ts('2024-10-21T10:00:00Z')])
  t.same(fmt(run('dateadd', [cst('STRING', 'w'), cst('INT', 1), x])), ['2024-10-28T10:00:00.000000Z'])
  t.same(fmt(run('dateadd', [cst('STRING', 'M'), cst('INT', 2), vec('TIMESTAMP', [ts('2020-04-17T00:30:51.380499Z')])])), ['2020-06-17T00:30:51.380499Z'])
  t.same(fmt(run('dateadd', [cst('CHAR', 'd'), cst('INT', null), x])), [null])
  // with a zone the local wall-clock time is kept across the DST change (12:00 CEST -> 12:00 CET)
  t.same(fmt(run('dateadd', [cst('STRING', 'w'), cst('INT', 1), x, cst('STRING', 'Europe/Bratislava')])), ['2024-10-28T11:00:00.000000Z'])
})

t.test('time zones (docs)', async (t) => {
  t.same(fmt(run('to_timezone', [vec('TIMESTAMP', [1623167145000000]), cst('STRING', 'Europe/Berlin')])), ['2021-06-08T17:45:45.000000Z'])
  t.same(fmt(run('to_timezone', [vec('TIMESTAMP', [ts('2021-06-08T13:45:45Z')]), cst('STRING', 'PST')])), ['2021-06-08T06:45:45.000000Z'])
  t.same(fmt(run('to_utc', [vec('TIMESTAMP', [ts('2021-06-08T17:45:45Z')]), cst('STRING', 'Europe/Berlin')])), ['2021-06-08T15:45:45.000000Z'])
  t.same(fmt(run('to_timezone', [vec('TIMESTAMP', [0]), cst('STRING', '+05:30')])), ['1970-01-01T05:30:00.000000Z'])
  t.throws(() => run('to_timezone', [vec('TIMESTAMP', [0]), cst('STRING', 'Mars/Base')]), { code: '22023' })
})

t.test('extract and fields (docs)', async (t) => {
  const x = vec('TIMESTAMP', [ts('2023-03-11T22:00:30.555555Z'), null])
  const ex = (u: string) => run('extract', [cst('STRING', u), x])
  t.same(ex('millennium'), [3, null])
  t.same(ex('year'), [2023, null])
  t.same(ex('month'), [3, null])
  t.same(ex('week'), [10, null])
  t.same(ex('hour'), [22, null])
  t.same(ex('second'), [30, null])
  t.same(ex('dow'), [6, null])
  t.same(ex('isodow'), [6, null])
  t.same(ex('doy'), [70, null])
  t.same(ex('quarter'), [1, null])
  t.same(ex('century'), [21, null])
  t.same(ex('epoch'), [1678572030, null])
  t.same(ex('milliseconds'), [555, null])
  t.same(ex('microseconds'), [555555, null])
  t.throws(() => ex('fortnight'), { code: '22023' })
  t.same(run('year', [x]), [2023, null])
  t.same(run('day_of_week', [x]), [6, null])
  t.same(run('day_of_week_sunday_first', [x]), [7, null])
  t.same(run('millis', [x]), [555, null])
  t.same(run('micros', [x]), [555, null])
  t.same(run('days_in_month', [x]), [31, null])
  t.same(run('is_leap_year', [vec('TIMESTAMP', [ts('2024-05-01'), ts('2023-05-01')])]), [true, false])
  t.same(run('week_of_year', [vec('TIMESTAMP', [ts('2021-01-01')])]), [53])
})
