import t from 'tap'
import { KeyIndex } from '../../../../lib/exec/keys/key-index.js'
import { rowKey } from '../../../../lib/exec/keys/row-key.js'
import { SymbolTable, type Vector } from '../../../../lib/types/vector.js'

const sym = (values: (string | null)[]): Vector => {
  const dict = new SymbolTable()
  return { kind: 'sym', type: 'SYMBOL', length: values.length, data: Int32Array.from(values, (v) => (v === null ? -1 : dict.intern(v))), dict }
}
const str = (values: (string | null)[]): Vector => ({ kind: 'str', type: 'STRING', length: values.length, data: values })
const longs = (values: number[]): Vector => ({ kind: 'i64', type: 'LONG', length: values.length, data: Float64Array.from(values) })
const bigLongs = (values: bigint[]): Vector => ({ kind: 'i64', type: 'LONG', length: values.length, data: BigInt64Array.from(values) })
const ids = (index: KeyIndex, keys: Vector[]): number[] => { const out = new Int32Array(keys[0]?.length ?? 3); index.assign(keys, out.length, out); return [...out] }

t.test('one text key: SYMBOL and STRING values share ids (both sides of a join)', async (t) => {
  const index = new KeyIndex(1)
  t.same(ids(index, [sym(['a', null, 'b', 'a'])]), [0, 1, 2, 0])
  t.same(ids(index, [str(['b', 'c', null, 'a'])]), [2, 3, 1, 0])
  t.same(ids(index, [sym(['c', 'd'])]), [3, 4], 'another dictionary')
  t.equal(index.count, 5)
  const v = index.vector(0, { type: 'STRING' })
  t.same(v.data, ['a', null, 'b', 'c', 'd'], 'the values by id, in order of first appearance')
})

t.test('one LONG key: a bigint-backed batch and a number-backed one agree', async (t) => {
  const index = new KeyIndex(1)
  t.same(ids(index, [longs([5, 7, 5])]), [0, 1, 0])
  t.same(ids(index, [bigLongs([7n, 2n ** 60n, 5n])]), [1, 2, 0])
})

t.test('composite keys: values compare by value whatever vector carries them', async (t) => {
  const index = new KeyIndex(2)
  t.same(ids(index, [sym(['a', 'a', 'b']), longs([1, 2, 1])]), [0, 1, 2])
  t.same(ids(index, [str(['b', 'a', 'a']), bigLongs([1n, 2n, 2n ** 60n])]), [2, 1, 3], 'a LONG as a bigint keys like the number')
  t.equal(rowKey([longs([3])], 0), rowKey([bigLongs([3n])], 0))
})

t.test('no keys: one id, 0, from the start', async (t) => {
  const index = new KeyIndex(0, false)
  t.equal(index.count, 1)
  t.same(ids(index, [] as Vector[]), [0, 0, 0])
})
