import t from 'tap'
import { Database } from '../../../lib/index.js'

t.test('interval_start / interval_end of interval(lo, hi) keep every digit, in the bounds\' type', async (t) => {
  const db = await Database.open()
  try {
    const one = async (sql: string) => (await db.query(sql)).rows[0]!
    t.same(await one("SELECT interval_start(interval('1969-12-31T23:59:59.999999999Z'::timestamp_ns, '1970-01-01T00:00:00.000000001Z'::timestamp_ns)), interval_end(interval('1969-12-31T23:59:59.999999999Z'::timestamp_ns, '1970-01-01T00:00:00.000000001Z'::timestamp_ns))"), [-1n, 1n], 'nanoseconds either side of the epoch')
    t.same(await one("SELECT interval('1969-12-31T23:59:59.999999999Z'::timestamp_ns, '1970-01-01T00:00:00.000000001Z'::timestamp_ns)"), ["('1969-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z')"], 'the INTERVAL prints floored milliseconds')
    t.same(await one("SELECT interval_start(interval('2024-01-01T00:00:00.000001Z', '2024-01-01T00:00:00.000002Z'))"), [1704067200000001n], 'a microsecond interval keeps its microseconds')
    const r = await db.query("SELECT interval_end(interval('2024-01-01'::timestamp_ns, '2024-01-02T00:00:00.000000009Z'::timestamp_ns)) e")
    t.equal(r.columns[0]!.type, 'TIMESTAMP_NS')
    t.same(r.rows[0], [1704153600000000009n])
    await t.rejects(db.query("SELECT interval_end(interval('2024-01-01T00:00:00.000000002Z'::timestamp_ns, '2024-01-01T00:00:00.000000001Z'::timestamp_ns))"), { code: '22023', position: 20 }, 'a reversed interval fails at interval(...)')
  } finally {
    await db.close()
  }
})
