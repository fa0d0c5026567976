import t from 'tap'
import { Database } from '../../../lib/index.js'

// QuestDB's default Rnd seeds (0xdeadbeef, 0xdee4c0ed as sign-extended ints): a fresh database
// with them reproduces QuestDB's test harness.
const QUESTDB_SEEDS = [BigInt.asIntN(32, 0xdeadbeefn), BigInt.asIntN(32, 0xdee4c0edn)] as const

t.test("several rnd_* columns draw row by row, left to right (QuestDB's testFilterOnNull)", async (t) => {
  const db = await Database.open({ randomSeed: QUESTDB_SEEDS })
  const r = await db.query('select rnd_double(0)*100 a, rnd_symbol(5,4,4,1) b from long_sequence(3)')
  t.same(r.rows, [[11.427984775756228, null], [42.17768841969397, 'VTJW'], [23.90529010846525, 'RXGZ']])
})

t.test('a rnd_symbol nested in another call keeps the dictionary it made when the cursor opened', async (t) => {
  const db = await Database.open({ randomSeed: QUESTDB_SEEDS })
  const r = await db.query("select rnd_double() d, concat(rnd_symbol(5,4,4,0), '') s from long_sequence(200)")
  t.equal(new Set(r.rows.map((x) => x[1])).size, 5, 'five symbols, as rnd_symbol(5, ...) makes')
  t.ok(r.rows.every((x) => typeof x[0] === 'number'))
})
