import t from 'tap'
import { I64Ids } from '../../../../lib/exec/keys/i64-ids.js'
import { KeyIndex } from '../../../../lib/exec/keys/key-index.js'
import type { I64Vector } from '../../../../lib/types/vector.js'

const LONG_NULL = -9223372036854775808

function big(values: bigint[], type: I64Vector['type'] = 'TIMESTAMP_NS'): I64Vector {
  return { kind: 'i64', type, length: values.length, data: BigInt64Array.from(values), isConst: false }
}
function num(values: number[], type: I64Vector['type'] = 'TIMESTAMP_NS'): I64Vector {
  return { kind: 'i64', type, length: values.length, data: Float64Array.from(values), isConst: false }
}

t.test('equal values get one id, in order of first sight, across both representations', async (t) => {
  const ids = new I64Ids()
  const out = new Int32Array(6)
  ids.assign(big([1704067200000000001n, -5n, 1704067200000000001n, -9223372036854775808n, 7n, -5n]), 6, out)
  t.same([...out], [0, 1, 0, 2, 3, 1])
  ids.assign(num([7, -5, LONG_NULL, NaN, 4294967296, -4294967297]), 6, out)
  t.same([...out], [3, 1, 2, 2, 4, 5], 'safe numbers and nulls (NaN too) find the bigint ids')
  t.same([...ids.vector('TIMESTAMP_NS').data as BigInt64Array], [1704067200000000001n, -5n, -9223372036854775808n, 7n, 4294967296n, -4294967297n])
})

t.test('a million distinct values survive the table growing', async (t) => {
  const ids = new I64Ids()
  const n = 1_000_000
  const data = new BigInt64Array(n)
  for (let i = 0; i < n; i++) data[i] = 1704067200000000000n + BigInt(i) * 7n
  const out = new Int32Array(n)
  ids.assign(big([...data]), n, out)
  t.equal(ids.count, n)
  let ok = true
  for (let i = 0; i < n; i++) if (out[i] !== i) { ok = false; break }
  t.ok(ok, 'ids 0..n-1 in order')
  ids.assign(big([data[n - 1]!, data[0]!]), 2, out)
  t.same([out[0], out[1]], [n - 1, 0], 'found again')
  t.same((ids.vector('TIMESTAMP_NS').data as BigInt64Array)[123456], data[123456])
})

t.test('KeyIndex: a TIMESTAMP_NS key goes through the halves table and gives its values back', async (t) => {
  const index = new KeyIndex(1)
  const out = new Int32Array(4)
  index.assign([num([1, 2, 1, LONG_NULL])], 4, out)
  t.same([...out], [0, 1, 0, 2])
  index.assign([big([1704067200000000001n, 2n])], 2, out)
  t.same([out[0], out[1]], [3, 1])
  t.equal(index.count, 4)
  const v = index.vector(0, { type: 'TIMESTAMP_NS' }) as I64Vector
  t.same([...v.data as BigInt64Array], [1n, 2n, -9223372036854775808n, 1704067200000000001n])
})
