import t from 'tap'
import { BucketTable, makeSampler, type SamplerSpec } from '../../../../lib/exec/operators/sample-by-buckets.js'
import { GroupTable } from '../../../../lib/exec/operators/sample-by-keys.js'
import { fillColumn, filledLayout, plainLayout, type Groups } from '../../../../lib/exec/operators/sample-by-fill.js'
import { clipBatch } from '../../../../lib/exec/operators/sample-by-clip.js'
import { formatTimestamp, parseTimestamp } from '../../../../lib/types/timestamp.js'
import { getScalar, vectorOf } from '../../../../lib/types/vector.js'
import type { SampleUnit } from '../../../../lib/plan/nodes/sample-by.js'
import { ExecContext } from '../../../../lib/exec/context.js'

const ts = (s: string): number => parseTimestamp(s)!
const iso = formatTimestamp
const spec = (unit: SampleUnit, stride: number, extra: Partial<SamplerSpec> = {}): SamplerSpec =>
  ({ unit, stride, firstObservation: false, timeZone: undefined, offset: 0, from: undefined, ...extra })

t.test('calendar samplers', async (t) => {
  t.equal(iso(makeSampler(spec('d', 5), 0).floor(ts('2018-01-01'))), '2017-12-30T00:00:00.000000Z', '5d floors from the epoch')
  t.equal(iso(makeSampler(spec('w', 1), 0).floor(ts('2025-02-05'))), '2025-02-03T00:00:00.000000Z', 'weeks start on Monday')
  t.equal(iso(makeSampler(spec('w', 3), 0).floor(ts('2016-02-10'))), '2016-02-08T00:00:00.000000Z', '3w from Monday 1969-12-29')
  const m3 = makeSampler(spec('M', 3), 0)
  t.equal(iso(m3.floor(ts('2024-05-15T10:00'))), '2024-04-01T00:00:00.000000Z')
  t.equal(iso(m3.next(ts('2024-04-01'))), '2024-07-01T00:00:00.000000Z')
  t.equal(iso(makeSampler(spec('y', 1), 0).floor(ts('1969-06-01'))), '1969-01-01T00:00:00.000000Z')
  t.equal(iso(makeSampler(spec('d', 1, { offset: 10 * 3_600_000_000 }), 0).floor(ts('2024-01-02T09:00'))), '2024-01-01T10:00:00.000000Z', 'WITH OFFSET')
  t.equal(iso(makeSampler(spec('m', 1, { from: ts('2024-01-01T00:00:20') }), 0).floor(ts('2024-01-01T00:00:10'))), '2023-12-31T23:59:20.000000Z', 'FROM is the origin')
})

t.test('first observation', async (t) => {
  const first = ts('2024-01-31')
  const m = makeSampler(spec('M', 1, { firstObservation: true }), first)
  t.equal(iso(m.floor(ts('2024-03-15'))), '2024-02-29T00:00:00.000000Z', 'months from the 31st clamp like plusMonths')
  t.equal(iso(m.next(ts('2024-02-29'))), '2024-03-31T00:00:00.000000Z')
  t.equal(iso(makeSampler(spec('m', 1, { firstObservation: true }), ts('2024-01-01T00:00:30')).floor(ts('2024-01-01T00:01:31'))), '2024-01-01T00:01:30.000000Z')
})

t.test('time zones', async (t) => {
  const berlin = makeSampler(spec('d', 1, { timeZone: 'Europe/Berlin' }), 0)
  t.equal(iso(berlin.floor(ts('2021-03-28T12:00:00Z'))), '2021-03-27T23:00:00.000000Z')
  t.equal(iso(berlin.next(ts('2021-03-27T23:00:00Z'))), '2021-03-28T22:00:00.000000Z', 'the spring-forward day is 23 hours')
  const london = makeSampler(spec('h', 1, { timeZone: 'Europe/London' }), ts('2021-10-31T00:00:00Z'))
  t.equal(iso(london.floor(ts('2021-10-31T01:30:00Z'))), '2021-10-31T01:00:00.000000Z', 'sub-day strides stay evenly spaced in UTC')
  const kolkata = makeSampler(spec('h', 1, { timeZone: 'Asia/Kolkata' }), ts('2024-01-01'))
  t.equal(iso(kolkata.floor(ts('2024-01-01T00:00:00Z'))), '2023-12-31T23:30:00.000000Z')
})

t.test('bucket table and group table', async (t) => {
  const table = new BucketTable(makeSampler(spec('m', 1), 0))
  const out = new Int32Array(4)
  table.assign(new Float64Array([0, 30e6, 60e6, 150e6]), 4, out)
  t.same(Array.from(out), [0, 0, 1, 2])
  t.same(table.starts, [0, 60e6, 120e6])
  t.equal(table.ordered, true)
  table.assign(new Float64Array([10e6]), 1, out)
  t.equal(out[0], 0, 'an earlier bucket keeps its ordinal')
  t.equal(table.ordered, false)

  const groups = new GroupTable()
  const g = new Int32Array(5)
  groups.assign(new Int32Array([0, 0, 0, 1, 1]), new Int32Array([0, 1, 0, 1, 0]), 5, g)
  t.same(Array.from(g), [0, 1, 0, 2, 3])
  groups.assign(new Int32Array([0, 1]), new Int32Array([1, 1]), 2, g)
  t.same(Array.from(g.subarray(0, 2)), [1, 2], 'going back to an earlier bucket finds its groups')
  t.equal(groups.count, 4)
})

t.test('layouts and fills', async (t) => {
  // buckets at 0, 2 (minutes), key 0 only in bucket 0, key 1 in both
  const m = 60e6
  const g: Groups = { count: 3, bucketOf: new Int32Array([0, 0, 1]), keyOf: new Int32Array([0, 1, 1]), starts: [0, 2 * m], ordered: true }
  t.same(Array.from(plainLayout(g).group), [0, 1, 2])
  const rows = await filledLayout(g, 2, makeSampler(spec('m', 1), 0), undefined, 4 * m, -1, new ExecContext(0, () => 0, 'admin', undefined as never, '', [], undefined))
  t.same(Array.from(rows.start), [0, 0, m, m, 2 * m, 2 * m, 3 * m, 3 * m])
  t.same(Array.from(rows.group), [0, 1, -1, -1, -1, 2, -1, -1])
  const result = vectorOf('DOUBLE', new Float64Array([1, 10, 30]), 3)
  const col = async (kind: 'prev' | 'linear' | 'null') => {
    const v = await fillColumn(result, { kind }, rows, 2)
    return Array.from({ length: rows.length }, (_, i) => getScalar(v, i))
  }
  t.same(await col('prev'), [1, 10, 1, 10, 1, 30, 1, 30])
  t.same(await col('linear'), [1, 10, null, 20, null, 30, null, null], 'between two values of the same key only')
  t.same(await col('null'), [1, 10, null, null, null, 30, null, null])
  const v = await fillColumn(result, { kind: 'value', value: 0 }, rows, 2)
  t.same(Array.from({ length: rows.length }, (_, i) => getScalar(v, i)), [1, 10, 0, 0, 0, 30, 0, 0])
})

t.test('clip to FROM-TO', async (t) => {
  const b = { length: 5, vectors: [vectorOf('TIMESTAMP', new Float64Array([1, 2, 3, 4, 5]), 5)] }
  const c = clipBatch(b, 0, 2, 5)
  t.same(Array.from({ length: c.length }, (_, i) => getScalar(c.vectors[0]!, i)), [2, 3, 4])
  const u = { length: 4, vectors: [vectorOf('TIMESTAMP', new Float64Array([5, 1, 3, 2]), 4)] }
  const d = clipBatch(u, 0, 2, undefined)
  t.same(Array.from({ length: d.length }, (_, i) => getScalar(d.vectors[0]!, i)), [5, 3, 2], 'unordered input is filtered row by row')
})
