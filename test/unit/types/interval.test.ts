import t from 'tap'
import { parseInterval, unionIntervals, intersectIntervals, invertIntervals, intervalsContain, parseDuration, normalizeIntervals } from '../../../lib/types/interval.js'
import { formatTimestamp, parseTimestamp } from '../../../lib/types/timestamp.js'
import { SqlError } from '../../../lib/errors.js'

const show = (s: Float64Array): string[] => Array.from(s, (x) => Number.isFinite(x) ? formatTimestamp(x) : String(x))
const ts = (s: string): number => parseTimestamp(s)!

t.test('plain periods', async (t) => {
  t.same(show(parseInterval('2020-01-01')), ['2020-01-01T00:00:00.000000Z', '2020-01-01T23:59:59.999999Z'])
  t.same(show(parseInterval('2020')), ['2020-01-01T00:00:00.000000Z', '2020-12-31T23:59:59.999999Z'])
  t.same(show(parseInterval('2020-12')), ['2020-12-01T00:00:00.000000Z', '2020-12-31T23:59:59.999999Z'])
  t.same(show(parseInterval('2020-01-01T10')), ['2020-01-01T10:00:00.000000Z', '2020-01-01T10:59:59.999999Z'])
})

t.test('durations extend the end of the period (QuestDB IntervalUtilsTest)', async (t) => {
  t.same(show(parseInterval('2015-02-23T10:00;2d')), ['2015-02-23T10:00:00.000000Z', '2015-02-25T10:00:59.999999Z'])
  t.same(show(parseInterval('2015-02-23T10:00:55.000Z;30m')), ['2015-02-23T10:00:55.000000Z', '2015-02-23T10:30:55.000000Z'])
  t.same(show(parseInterval('2024-01-15T10;2h30m')), ['2024-01-15T10:00:00.000000Z', '2024-01-15T13:29:59.999999Z'])
  t.same(show(parseInterval('2024-01-31;1M')), ['2024-01-31T00:00:00.000000Z', '2024-02-29T23:59:59.999999Z'])
  t.same(show(parseInterval('2026-04;-3d')), ['2026-04-01T00:00:00.000000Z', '2026-04-27T23:59:59.999999Z'])
})

t.test('repeating intervals', async (t) => {
  t.same(show(parseInterval('2020-01-01;1d;1M;3')), [
    '2020-01-01T00:00:00.000000Z', '2020-01-02T23:59:59.999999Z',
    '2020-02-01T00:00:00.000000Z', '2020-02-02T23:59:59.999999Z',
    '2020-03-01T00:00:00.000000Z', '2020-03-02T23:59:59.999999Z',
  ])
  t.same(show(parseInterval('2020-01-03T10;1h;1d;-2')), [
    '2020-01-02T10:00:00.000000Z', '2020-01-02T11:59:59.999999Z',
    '2020-01-03T10:00:00.000000Z', '2020-01-03T11:59:59.999999Z',
  ])
  t.same(show(parseInterval('2015-03-12T11:00:00;5m;-30m;3')), [
    '2015-03-12T10:00:00.000000Z', '2015-03-12T10:05:00.999999Z',
    '2015-03-12T10:30:00.000000Z', '2015-03-12T10:35:00.999999Z',
    '2015-03-12T11:00:00.000000Z', '2015-03-12T11:05:00.999999Z',
  ])
  t.same(show(parseInterval('2016-03-21;3y;6M;5')), ['2016-03-21T00:00:00.000000Z', '2021-03-21T23:59:59.999999Z'])
  // overlapping repeats merge
  t.same(show(parseInterval('2020-01-01;2d;1d;3')), ['2020-01-01T00:00:00.000000Z', '2020-01-05T23:59:59.999999Z'])
})

t.test('bad interval strings raise 22007', async (t) => {
  for (const s of ['', 'abc', '2020-13', '2020-01-01;', '2020-01-01;2x', '2020-01-01;2d;1d', '2020-01-01;2d;1d;x', '2020-01-01;2d;;3', '2020;1d;1d;0']) {
    try {
      parseInterval(s, 12)
      t.fail(s)
    } catch (e) {
      t.ok(e instanceof SqlError, s)
      t.equal((e as SqlError).code, '22007')
      t.equal((e as SqlError).position, 12)
    }
  }
})

t.test('durations parse', async (t) => {
  t.same(parseDuration('2h30m'), [[2, 'h'], [30, 'm']])
  t.same(parseDuration('-3d'), [[-3, 'd']])
  t.equal(parseDuration('3'), null)
  t.equal(parseDuration('3q'), null)
})

t.test('set operations', async (t) => {
  const a = normalizeIntervals([10, 20, 30, 40])
  const b = normalizeIntervals([15, 35])
  t.same(Array.from(unionIntervals(a, b)), [10, 40])
  t.same(Array.from(intersectIntervals(a, b)), [15, 20, 30, 35])
  t.same(Array.from(invertIntervals(a)), [-Infinity, 9, 21, 29, 41, Infinity])
  t.same(Array.from(invertIntervals(invertIntervals(a))), [10, 20, 30, 40])
  t.same(Array.from(normalizeIntervals([5, 6, 1, 2, 3, 4, 9, 8])), [1, 6])
  t.ok(intervalsContain(a, 20))
  t.notOk(intervalsContain(a, 25))
  t.ok(intervalsContain(a, 30))
  const day1 = parseInterval('2020-01-01')
  const day2 = parseInterval('2020-01-02')
  t.same(show(unionIntervals(day1, day2)), ['2020-01-01T00:00:00.000000Z', '2020-01-02T23:59:59.999999Z'])
  t.equal(intersectIntervals(day1, day2).length, 0)
  t.ok(intervalsContain(day1, ts('2020-01-01T12:00')))
})
