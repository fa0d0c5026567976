import t from 'tap'
import { compactVector, retainedBytes } from '../../../../lib/storage/durable/compact-vector.js'
import { ColumnBuffer } from '../../../../lib/storage/column-buffer.js'
import { type Vector, getScalar, vectorOf } from '../../../../lib/types/vector.js'
import { type ArrVector, arrGet, arrOf } from '../../../../lib/types/array-vector.js'
import { DoubleArray } from '../../../../lib/types/array.js'

t.test('a view on a larger buffer is copied to its own size; its values are unchanged', async (t) => {
  const b = new ColumnBuffer('DOUBLE', 1024)
  b.append(vectorOf('DOUBLE', Float64Array.from({ length: 100 }, (_, i) => i * 1.5), 100))
  const v = b.view(40, 60)
  t.equal(retainedBytes([v]), 1024 * 8, 'the view keeps its whole buffer')
  const c = compactVector(v)
  t.equal(retainedBytes([c]), 20 * 8, 'the copy keeps its own 20 values')
  t.equal(c.length, 20)
  t.same(Array.from({ length: 20 }, (_, i) => getScalar(c, i)), Array.from({ length: 20 }, (_, i) => (40 + i) * 1.5))
  if (typeof SharedArrayBuffer === 'function') t.ok((c.data as Float64Array).buffer instanceof SharedArrayBuffer, 'on shared memory, as column memory is')
})

t.test('symbols keep their dictionary; right-sized, constant and text vectors are returned as they are', async (t) => {
  const b = new ColumnBuffer('SYMBOL', 64)
  b.append(vectorOf('SYMBOL', Int32Array.of(0, 1, 0), 3, b.dict))
  b.dict!.intern('a'); b.dict!.intern('b')
  const s = compactVector(b.view(1, 3))
  t.equal(s.kind === 'sym' && s.dict, b.dict)
  t.same(Array.from(s.data as Int32Array), [1, 0])
  const own: Vector = vectorOf('LONG', new Float64Array(4), 4)
  t.equal(compactVector(own), own)
  const text: Vector = vectorOf('VARCHAR', ['x', null], 2)
  t.equal(compactVector(text), text)
  t.equal(retainedBytes([text]), 0, 'lists hold no array buffer')
})

t.test('an array column slice gets its elements rebased to 0 in right-sized buffers', async (t) => {
  const rows = [new DoubleArray([2], Float64Array.of(1, 2)), null, new DoubleArray([3], Float64Array.of(3, 4, 5)), new DoubleArray([1], Float64Array.of(6))]
  const b = new ColumnBuffer('DOUBLE[]', 64)
  b.append(arrOf('DOUBLE[]', rows))
  const v = b.view(1, 4) as ArrVector
  t.ok(v.offsets[0]! > 0, 'the slice starts inside the elements')
  const c = compactVector(v) as ArrVector
  t.equal(c.offsets[0], 0)
  t.equal(c.data.length, 4)
  t.equal(retainedBytes([c]), c.data.byteLength + c.offsets.byteLength + c.shapes.byteLength)
  t.same([0, 1, 2].map((i) => arrGet(c, i)?.values && Array.from(arrGet(c, i)!.values)), [null, [3, 4, 5], [6]])
})
