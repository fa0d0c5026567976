// Result rows converted a column at a time equal the per-value reference (toJsValue of
// getScalar) over random values of every type, constant and BigInt vectors included.
import t from 'tap'
import { batchRows } from '../../../lib/types/js-rows.js'
import { toJsValue } from '../../../lib/types/js-value.js'
import { getScalar } from '../../../lib/types/vector.js'
import { Rng, randomColumns } from '../../adapters/random-vectors.js'

t.test('every type, value for value', async (t) => {
  let cells = 0
  for (let seed = 1; seed <= 20; seed++) {
    const cols = randomColumns(new Rng(seed), 200)
    const rows = batchRows(cols.map((c) => c.type), { length: 200, vectors: cols.map((c) => c.vector) })
    for (let i = 0; i < 200; i++) {
      for (let k = 0; k < cols.length; k++) {
        const want = toJsValue(cols[k]!.type, getScalar(cols[k]!.vector, i))
        const got = rows[i]![k]
        if (!Object.is(got, want) && JSON.stringify(got, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) !== JSON.stringify(want, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))) {
          t.fail(`seed ${seed}, ${cols[k]!.label}, row ${i}: ${String(got)} vs ${String(want)}`)
          return
        }
        if (typeof want !== typeof got) { t.fail(`seed ${seed}, ${cols[k]!.label}: ${typeof got} vs ${typeof want}`); return }
        cells++
      }
    }
  }
  t.ok(cells > 100_000, `${cells} values equal`)
})
