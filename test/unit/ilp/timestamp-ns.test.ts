import t from 'tap'
import { Database } from '../../../lib/index.js'

t.test('ILP into an existing TIMESTAMP_NS designated timestamp and column: widened from microseconds', async (t) => {
  const db = await Database.open()
  await db.query('create table q (v double, at timestamp_ns, ts timestamp_ns) timestamp(ts) partition by day wal')
  const w = db.lineWriter({})
  w.write(Buffer.from('q v=1,at=1700000000000002t 1700000000000003999\nq v=2,at=1700000000000001t 1700000000000001000\n'))
  t.equal(await w.end(), 2)
  const rows = (await db.query('select v, at::string, ts::string from q')).rows
  t.same(rows, [
    [2, '2023-11-14T22:13:20.000001000Z', '2023-11-14T22:13:20.000001000Z'],
    [1, '2023-11-14T22:13:20.000002000Z', '2023-11-14T22:13:20.000003000Z'],
  ])
  await db.close()
})
