import t from 'tap'
import { nsIntervalsOf } from '../../../lib/types/timestamp-ns-interval.js'
import { Database } from '../../../lib/index.js'

const US = 1704067200000000 // 2024-01-01T00:00:00Z in microseconds

t.test('interval strings read to the nanosecond', async (t) => {
  t.same([...nsIntervalsOf('2024-01-01T00:00:00.000000300', 0)], [US, 300, US, 300], 'one nanosecond')
  t.same([...nsIntervalsOf('2024-01-01', 0)], [US, 0, US + 86_400_000_000 - 1, 999], 'the whole day')
  t.same([...nsIntervalsOf('2024-01-01T00:00:00.000000300;1s', 0)], [US, 300, US + 1_000_000, 300], 'a duration keeps the start nanosecond')
  t.same([...nsIntervalsOf('2024-01-01T00:00:01;1s', 0)], [US + 1_000_000, 0, US + 2_999_999, 999], 'whole microseconds without one')
  t.throws(() => nsIntervalsOf('nope', 7), { code: '22007' })
})

t.test('ts IN $1 on a TIMESTAMP_NS column reads the bound string to the nanosecond', async (t) => {
  const db = await Database.open()
  try {
    await db.query('CREATE TABLE a (ts TIMESTAMP_NS, x INT) TIMESTAMP(ts)')
    await db.query("INSERT INTO a VALUES ('2024-01-01T00:00:00.000000100Z', 1), ('2024-01-01T00:00:00.000000300Z', 2), ('2024-01-01T00:00:00.000000500Z', 3), ('2024-01-02T00:00:00.000000500Z', 4)")
    const xs = async (p: string | null, not = false) => (await db.query(`SELECT x FROM a WHERE ts ${not ? 'NOT ' : ''}IN $1`, [p])).rows.map((r) => r[0])
    t.same(await xs('2024-01-01'), [1, 2, 3], 'a day')
    t.same(await xs('2024-01-02'), [4])
    t.same(await xs('2024-01-01T00:00:00.000000300'), [2], 'one nanosecond')
    t.same(await xs('2024-01-01T00:00:00.000000300;1s'), [2, 3], 'a duration from a nanosecond')
    t.same(await xs('2024-01-01', true), [4], 'NOT IN')
    t.same(await xs(null), [], 'NULL matches nothing')
    await t.rejects(xs('not an interval'), { code: '22007' })
  } finally {
    await db.close()
  }
})
