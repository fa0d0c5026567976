import t from 'tap'
import { SymBuilder, F64Builder } from '../../../lib/ilp/column-builder.js'
import { SymbolTable } from '../../../lib/types/vector.js'

t.test('SymBuilder: values known by their bytes, by their text, across table growth', async (t) => {
  const b = new SymBuilder('SYMBOL')
  const rows = 20_000
  b.reserve(rows - 1)
  const expected: (string | null)[] = []
  const buf = Buffer.alloc(64)
  for (let r = 0; r < rows; r++) {
    // 3,000 distinct values (the hash table grows several times), some first seen as text
    const v = `v${(r * 7919) % 3000}é`
    if (r % 11 === 0) b.setText(r, v)
    else if (r % 13 === 0) { expected.push(null); continue }
    else { const n = buf.write(v, 5, 'utf8'); b.setBytes(r, buf, 5, 5 + n) }
    expected.push(v)
  }
  const dict = new SymbolTable()
  const vec = b.finish(rows, dict)
  const got: (string | null)[] = []
  for (let r = 0; r < rows; r++) { const k = (vec.data as Int32Array)[r]!; got.push(k < 0 ? null : dict.values[k]!) }
  t.same(got, expected)
  t.equal(b.values.length, 3000, 'one key per distinct value')
})

t.test('F64Builder: rows never set stay null after growth', async (t) => {
  const b = new F64Builder('DOUBLE')
  b.reserve(5000)
  b.data[4000] = 1.5
  b.reserve(70_000)
  t.equal(b.data[4000], 1.5)
  t.ok(Number.isNaN(b.data[4001]!) && Number.isNaN(b.data[69_999]!))
})
