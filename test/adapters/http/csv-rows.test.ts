// The fast /exp CSV field writers against the per-value reference encoders (csv-values.ts):
// the same bytes over random values of every type.
import t from 'tap'
import { ByteWriter } from '../../../lib/internal.js'
import { csvColumn } from '../../../adapters/http/csv/csv-rows.js'
import { csvEncoder } from '../../../adapters/http/csv/csv-values.js'
import { Rng, randomColumns } from '../random-vectors.js'

const ROWS = 300

t.test('every type, byte for byte', async (t) => {
  let cells = 0
  for (let seed = 1; seed <= 20; seed++) {
    const out = new ByteWriter(64)
    for (const c of randomColumns(new Rng(seed), ROWS)) {
      const ref = csvEncoder(c.type, c.vector)
      const cell = csvColumn(c.type, out)(c.vector)
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
