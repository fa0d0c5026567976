// The fast /exec JSON cell writers against the per-value reference encoders (json-values.ts):
// the same bytes over random values of every type, with and without quoteLargeNum.
import t from 'tap'
import { ByteWriter } from '../../../lib/internal.js'
import { jsonColumn } from '../../../adapters/http/json/json-rows.js'
import { jsonEncoder } from '../../../adapters/http/json/json-values.js'
import { Rng, randomColumns } from '../random-vectors.js'

const ROWS = 300

for (const quoteLargeNum of [false, true]) {
  t.test(`every type, byte for byte (quoteLargeNum ${quoteLargeNum})`, async (t) => {
    let cells = 0
    for (let seed = 1; seed <= 20; seed++) {
      const out = new ByteWriter(64)
      for (const c of randomColumns(new Rng(seed), ROWS)) {
        const ref = jsonEncoder(c.type, c.vector, quoteLargeNum)
        const cell = jsonColumn(c.type, out, quoteLargeNum)(c.vector)
        for (let i = 0; i < ROWS; i++) {
          cell(i)
          const got = Buffer.from(out.take())
          const want = Buffer.from(ref(i), 'utf8')
          if (!got.equals(want)) { t.fail(`seed ${seed}, ${c.label}, row ${i}: reference ${want.toString()} fast ${got.toString()}`); return }
          cells++
        }
      }
    }
    t.ok(cells > 100_000, `${cells} cells equal`)
  })
}
