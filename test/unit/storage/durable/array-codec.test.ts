/**
 * DOUBLE array columns on disk: the codec round-trips nulls, empties and shapes and refuses
 * malformed bytes; a data directory keeps arrays through WAL replay (a crash before any
 * checkpoint) and through checkpointed partition files, with out-of-order rows merged.
 */
import t from 'tap'
import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../../../lib/index.js'
import { ARR_FILE_MAGIC, decodeArrFile, encodeArr, encodeArrFile, decodeArr, isArrFile2 } from '../../../../lib/storage/durable/array-codec.js'
import { readArrayRows } from '../../../../lib/storage/durable/array-rows.js'
import { arrOf } from '../../../../lib/types/array-vector.js'
import { DoubleArray } from '../../../../lib/types/array.js'
import { getScalar } from '../../../../lib/types/vector.js'
import { afterReopen, tmpDir } from '../helpers.js'

t.test('codec round trip: shapes, nulls, empty arrays, null elements', async (t) => {
  const rows = [new DoubleArray([2, 2], Float64Array.of(1, 2, 3, NaN)), null, DoubleArray.empty(2), new DoubleArray([1, 3], Float64Array.of(4, 5, 6))]
  const v = arrOf('DOUBLE[][]', rows)
  const [data, offsets] = encodeArr(v)
  t.equal(offsets.length, rows.length * 8, 'one int64 offset per row')
  const back = decodeArr('DOUBLE[][]', data, rows.length)
  t.same(Array.from(back.data), [1, 2, 3, NaN, 4, 5, 6])
  t.same(getScalar(back, 0), rows[0])
  t.equal(getScalar(back, 1), null)
  t.same((getScalar(back, 2) as DoubleArray).values.length, 0)
  t.same((getScalar(back, 3) as DoubleArray).shape, [1, 3])
  // a view of rows [1, 4) encodes only its own elements
  const [d2] = encodeArr({ ...v, length: 3, offsets: v.offsets.subarray(1), shapes: v.shapes.subarray(2) })
  t.same(Array.from(decodeArr('DOUBLE[][]', d2, 3).data), [4, 5, 6])
  t.throws(() => decodeArr('DOUBLE[][]', data.subarray(0, data.length - 8), rows.length), RangeError, 'truncated data is refused')
})

t.test('arrays survive WAL replay and checkpoints, out-of-order rows included', async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ path: dir })
  await db.query('create table book (ts timestamp, bids double[][], v double[]) timestamp(ts) partition by day wal')
  await db.query("insert into book values ('2024-01-02', ARRAY[[1.5, 10], [1.4, 20]], ARRAY[1.0]), ('2024-01-01', NULL, '{}')")
  await db.query("insert into book values ('2024-01-01T12:00', '{{7}}', '{1,NULL,3}')")
  await db.close()
  const [replayed] = await afterReopen(dir, 'select ts, bids, v from book order by ts')
  t.same(replayed!.map((r) => [r[1], r[2]]), [[null, []], [[[7]], [1, null, 3]], [[[1.5, 10], [1.4, 20]], [1]]])
  // force partition files: a tiny checkpoint threshold, then reopen again
  const db2 = await Database.open({ path: dir, checkpointBytes: 1 })
  await db2.query("insert into book values ('2023-12-31', ARRAY[[0.5]], ARRAY[9.0, 8.0])")
  await db2.close()
  const files = readdirSync(dir, { recursive: true }).map(String)
  t.ok(files.some((f) => f.endsWith('bids.d')) && files.some((f) => f.endsWith('bids.o')), 'the array column has partition files')
  const [after] = await afterReopen(dir, 'select array_sum(bids), v from book order by ts')
  t.same(after, [[0.5, [9, 8]], [null, []], [7, [1, null, 3]], [32.9, [1]]])
})

t.test('rows [from, to) read by position from files holding more rows (a partition cut by an out-of-order merge)', async (t) => {
  const dir = tmpDir(t)
  const rows = Array.from({ length: 11 }, (_, i) => (i % 4 === 0 ? null : i % 4 === 1 ? DoubleArray.empty(2) : new DoubleArray([1, i], Float64Array.from({ length: i }, (_, j) => i * 10 + j))))
  const [data, offsets] = encodeArr(arrOf('DOUBLE[][]', rows))
  const base = join(dir, 'b')
  writeFileSync(`${base}.d`, data)
  writeFileSync(`${base}.o`, offsets)
  for (const [from, to] of [[0, 11], [0, 5], [5, 11], [3, 4], [7, 7], [11, 11], [0, 0]] as const) {
    const v = readArrayRows(base, 'DOUBLE[][]', from, to)
    t.equal(v.length, to - from, `rows [${from}, ${to}): count`)
    t.same(Array.from({ length: to - from }, (_, r) => getScalar(v, r)), rows.slice(from, to), `rows [${from}, ${to}): values`)
  }
  t.throws(() => readArrayRows(base, 'DOUBLE[][]', 5, 12), RangeError, 'more rows than the files hold')
  writeFileSync(`${base}.d`, data.subarray(0, data.length - 8))
  t.throws(() => readArrayRows(base, 'DOUBLE[][]', 5, 11), RangeError, 'elements cut short')
  t.same(getScalar(readArrayRows(base, 'DOUBLE[][]', 0, 3), 2), rows[2], 'rows before the damage still read')
})

t.test('layout 2 files (magic, then a record and the elements per row): appended in pieces, read whole and by position', async (t) => {
  const dir = tmpDir(t)
  const rows = Array.from({ length: 11 }, (_, i) => (i % 4 === 0 ? null : i % 4 === 1 ? DoubleArray.empty(2) : new DoubleArray([1, i], Float64Array.from({ length: i }, (_, j) => i * 10 + j))))
  // written as two appends, the second's offsets after the first's bytes
  const [d1, o1] = encodeArrFile(arrOf('DOUBLE[][]', rows.slice(0, 6)), ARR_FILE_MAGIC.length)
  const [d2, o2] = encodeArrFile(arrOf('DOUBLE[][]', rows.slice(6)), ARR_FILE_MAGIC.length + d1.length)
  const data = Buffer.concat([ARR_FILE_MAGIC, d1, d2])
  const base = join(dir, 'b')
  writeFileSync(`${base}.d`, data)
  writeFileSync(`${base}.o`, Buffer.concat([o1, o2]))
  t.ok(isArrFile2(data), 'starts with the magic')
  t.notOk(isArrFile2(encodeArr(arrOf('DOUBLE[][]', rows))[0]), 'layout 1 does not')
  const whole = decodeArrFile('DOUBLE[][]', data.subarray(ARR_FILE_MAGIC.length), 11)
  t.equal(whole.end, data.length - ARR_FILE_MAGIC.length, 'the rows end where the file does')
  t.same(Array.from({ length: 11 }, (_, r) => getScalar(whole.vector, r)), rows, 'every row read whole')
  for (const [from, to] of [[0, 11], [0, 5], [5, 11], [3, 4], [7, 7], [11, 11], [0, 0], [5, 7]] as const) {
    const v = readArrayRows(base, 'DOUBLE[][]', from, to)
    t.same(Array.from({ length: to - from }, (_, r) => getScalar(v, r)), rows.slice(from, to), `rows [${from}, ${to})`)
  }
  t.throws(() => readArrayRows(base, 'DOUBLE[][]', 5, 12), RangeError, 'more rows than the files hold')
  writeFileSync(`${base}.d`, data.subarray(0, data.length - 8))
  t.throws(() => readArrayRows(base, 'DOUBLE[][]', 5, 11), RangeError, 'elements cut short')
  t.throws(() => decodeArrFile('DOUBLE[][]', data.subarray(ARR_FILE_MAGIC.length, data.length - 8), 11), RangeError, 'a whole read of a short file')
  const bad = Buffer.from(data)
  bad.writeInt32LE(5, ARR_FILE_MAGIC.length + 16)
  t.throws(() => decodeArrFile('DOUBLE[][]', bad.subarray(ARR_FILE_MAGIC.length), 11), RangeError, 'a record whose shape disagrees with its count')
})
