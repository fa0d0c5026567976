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

t.test('lists, zones, repeats and ranges keep each bound\'s nanoseconds', async (t) => {
  t.same([...nsIntervalsOf('[2024-01-01T00:00:00.000000005, 2024-01-01T00:00:00.000000007]', 0)], [US, 5, US, 5, US, 7, US, 7], 'a date list of nanosecond literals')
  t.same([...nsIntervalsOf('2024-01-01T00:00:00.0000001', 0)], [US, 100, US, 199], 'seven digits: a hundred nanoseconds')
  t.same([...nsIntervalsOf('2024-01-01T02:00:00.000000005@+02:00;1s', 0)], [US, 5, US + 1_000_000, 5], 'a zone shifts whole seconds and keeps the nanoseconds')
  t.same([...nsIntervalsOf('2024-01-01T00:00:00.000000005;1s;2s;2', 0)], [US, 5, US + 1_000_000, 5, US + 2_000_000, 5, US + 3_000_000, 5], 'repeats start and end at the nanosecond')
  t.same([...nsIntervalsOf('2024-01-01T00:00:00.000000005;1s;1s;2', 0)], [US, 5, US + 2_000_000, 5], 'touching repeats merge')
  t.same([...nsIntervalsOf('[2024-01-01T00:00:00.000000005, 2024-01-01T00:00:00.000000006]', 0)], [US, 5, US, 6], 'adjacent nanoseconds merge')
  const now = US + 3_600_000_000
  t.same([...nsIntervalsOf('$now - 1h..$now', 0, now, 250)], [US, 250, now, 250], '$now to the nanosecond')
  t.same([...nsIntervalsOf('$today', 0, now, 250)], [US, 0, US + 86_400_000_000 - 1, 999], '$today is whole days')
})

t.test('$now on a TIMESTAMP_NS column is the statement start to the nanosecond, read at each run', async (t) => {
  let clock = US + 1_000_000 + 0.5 // 2024-01-01T00:00:01.000000500Z
  const db = await Database.open({ clock: () => clock })
  try {
    await db.query('CREATE TABLE a (ts TIMESTAMP_NS, x INT) TIMESTAMP(ts)')
    await db.query("INSERT INTO a VALUES ('2024-01-01T00:00:00.000000499Z', 1), ('2024-01-01T00:00:00.000000500Z', 2), ('2024-01-01T00:00:01.000000500Z', 3), ('2024-01-01T00:00:01.000000501Z', 4)")
    const q = db.prepare("SELECT x FROM a WHERE ts IN '$now - 1s..$now'")
    t.same((await q.query()).rows.map((r) => r[0]), [2, 3], 'from $now - 1s to $now, both to the nanosecond')
    clock = US + 1_000_000 + 0.75 // 00:00:01.000000750: the cached plan reads the new $now
    t.same((await q.query()).rows.map((r) => r[0]), [3, 4])
    t.same((await db.query("SELECT x FROM a WHERE ts NOT IN '$now - 1s..$now'")).rows.map((r) => r[0]), [1, 2])
    await t.rejects(db.query("SELECT x FROM a WHERE ts IN '$nope'"), { code: '22007' })
  } finally {
    await db.close()
  }
})
