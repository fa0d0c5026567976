import t from 'tap'
import { Database } from '../../../lib/index.js'

t.test('ILP into an existing TIMESTAMP_NS designated timestamp and column: µs values widened, ns values kept', async (t) => {
  const db = await Database.open()
  await db.query('create table q (v double, at timestamp_ns, ts timestamp_ns) timestamp(ts) partition by day wal')
  const w = db.lineWriter({})
  w.write(Buffer.from('q v=1,at=1700000000000002t 1700000000000003999\nq v=2,at=1700000000000001t 1700000000000001000\n'))
  t.equal(await w.end(), 2)
  const rows = (await db.query('select v, at::string, ts::string from q')).rows
  t.same(rows, [
    [2, '2023-11-14T22:13:20.000001000Z', '2023-11-14T22:13:20.000001000Z'],
    [1, '2023-11-14T22:13:20.000002000Z', '2023-11-14T22:13:20.000003999Z'],
  ])
  await db.close()
})

t.test('ILP n-suffixed fields and designated timestamps keep their nanoseconds in TIMESTAMP_NS columns', async (t) => {
  const db = await Database.open()
  await db.query('create table q (v double, at timestamp_ns, us timestamp, ts timestamp_ns) timestamp(ts) partition by day wal')
  const w = db.lineWriter({})
  w.write(Buffer.from([
    'q v=1,at=1700000000000002123n,us=1700000000000002123n 1700000000000003999',
    'q v=2,at=1700000000000001001n 1700000000000001000n',
    'q v=3,at=1700000000000005t 1700000000000005t',
    'q v=4 1700000000000006007',
    '',
  ].join('\n')))
  t.equal(await w.end(), 4)
  const rows = (await db.query('select v, at::string, us::string, ts::string from q')).rows
  t.same(rows, [
    [2, '2023-11-14T22:13:20.000001001Z', null, '2023-11-14T22:13:20.000001000Z'],
    [1, '2023-11-14T22:13:20.000002123Z', '2023-11-14T22:13:20.000002Z', '2023-11-14T22:13:20.000003999Z'],
    [3, '2023-11-14T22:13:20.000005000Z', null, '2023-11-14T22:13:20.000005000Z'],
    [4, null, null, '2023-11-14T22:13:20.000006007Z'],
  ])
  await db.close()
})
