/**
 * The per-row LATERAL join streams (the first rows arrive before the left side is read to its
 * end) and stops when the statement is cancelled.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'

const db = await Database.open()
const SQL = 'select a.x, t.n from long_sequence(1000000) a join lateral (select count(*) n from long_sequence(10) b where b.x <= a.x) t'

t.test('streams: the first batch comes without running the subquery a million times', async (t) => {
  const t0 = Date.now()
  let rows = 0
  for await (const b of db.stream(SQL)) { rows += b.length; if (rows >= 10) break }
  t.ok(rows >= 10, 'got rows')
  t.ok(Date.now() - t0 < 30_000, `did not run to the end first (${Date.now() - t0} ms)`)
})

t.test('a cancelled LATERAL join stops with 57014', async (t) => {
  const signal = { cancelled: false }
  const ex = await db.execute(db.parse(SQL)[0]!, [], { signal })
  let rows = 0
  const t0 = Date.now()
  await t.rejects((async () => {
    for await (const b of ex.batches) { rows += b.length; if (rows >= 5) signal.cancelled = true }
  })(), { code: '57014' })
  t.ok(Date.now() - t0 < 30_000, 'stopped soon after the cancel')
})
