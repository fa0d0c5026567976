import t from 'tap'
import { Database } from '../../../lib/index.js'

const types = async (db: Database, table: string): Promise<unknown[][]> =>
  (await db.query(`select "column", type, designated from table_columns('${table}') order by "column"`)).rows

t.test('a created table takes its designated timestamp type from the first line: n is TIMESTAMP_NS, t and m TIMESTAMP, bare the default', async (t) => {
  const db = await Database.open()
  const w = db.lineWriter({})
  w.write(Buffer.from([
    'ns_tab v=1 1700000000000003999n',
    'ns_tab v=2 1700000000000004t', // later lines convert into the type the first line chose
    'us_tab v=1 1700000000000003t',
    'us_tab v=2 1700000000000004001n',
    'ms_tab v=1 1700000000000m',
    'bare_tab v=1 1700000000000003999',
    'none_tab v=1',
    '',
  ].join('\n')))
  t.equal(await w.end(), 7)
  t.same(await types(db, 'ns_tab'), [['timestamp', 'TIMESTAMP_NS', true], ['v', 'DOUBLE', false]])
  t.same(await types(db, 'us_tab'), [['timestamp', 'TIMESTAMP', true], ['v', 'DOUBLE', false]])
  t.same(await types(db, 'ms_tab'), [['timestamp', 'TIMESTAMP', true], ['v', 'DOUBLE', false]])
  t.same(await types(db, 'bare_tab'), [['timestamp', 'TIMESTAMP', true], ['v', 'DOUBLE', false]], 'a bare number (protocol 1) stays TIMESTAMP by default')
  t.same(await types(db, 'none_tab'), [['timestamp', 'TIMESTAMP', true], ['v', 'DOUBLE', false]])
  t.same((await db.query('select v, timestamp::string from ns_tab')).rows, [[1, '2023-11-14T22:13:20.000003999Z'], [2, '2023-11-14T22:13:20.000004000Z']])
  t.same((await db.query('select v, timestamp::string from us_tab')).rows, [[1, '2023-11-14T22:13:20.000003Z'], [2, '2023-11-14T22:13:20.000004Z']])
  await db.close()
})

t.test('timestamp fields create TIMESTAMP_NS columns from n values, TIMESTAMP from t and m; existing columns keep their type', async (t) => {
  const db = await Database.open()
  await db.query('create table old (keep timestamp, ts timestamp) timestamp(ts) partition by day wal')
  const w = db.lineWriter({})
  w.write(Buffer.from([
    'f a=1700000000000002123n,b=1700000000000002t,c=1700000000000m 1700000000000005t',
    'f a=1700000000000003t,b=1700000000000003456n 1700000000000006t',
    'old keep=1700000000000002123n,added=1700000000000002123n 1700000000000007t',
    '',
  ].join('\n')))
  t.equal(await w.end(), 3)
  t.same(await types(db, 'f'), [['a', 'TIMESTAMP_NS', false], ['b', 'TIMESTAMP', false], ['c', 'TIMESTAMP', false], ['timestamp', 'TIMESTAMP', true]])
  t.same((await db.query('select a::string, b::string from f')).rows, [
    ['2023-11-14T22:13:20.000002123Z', '2023-11-14T22:13:20.000002Z'],
    ['2023-11-14T22:13:20.000003000Z', '2023-11-14T22:13:20.000003Z'],
  ])
  t.same(await types(db, 'old'), [['added', 'TIMESTAMP_NS', false], ['keep', 'TIMESTAMP', false], ['ts', 'TIMESTAMP', true]])
  t.same((await db.query('select keep::string, added::string from old')).rows, [['2023-11-14T22:13:20.000002Z', '2023-11-14T22:13:20.000002123Z']])
  await db.close()
})

t.test('a designated timestamp given as a field decides the type too; a timestamp of another type is refused as before', async (t) => {
  const db = await Database.open()
  const w = db.lineWriter({})
  w.write(Buffer.from('g v=1,timestamp=1700000000000002123n\n'))
  t.equal(await w.end(), 1)
  t.same(await types(db, 'g'), [['timestamp', 'TIMESTAMP_NS', true], ['v', 'DOUBLE', false]])
  t.same((await db.query('select timestamp::string from g')).rows, [['2023-11-14T22:13:20.000002123Z']])
  const bad = db.lineWriter({})
  t.throws(() => { bad.write(Buffer.from('h v=1,timestamp=1.5\n')); }, /cast error from protocol type: FLOAT to column type: TIMESTAMP/)
  await db.close()
})

t.test('line.timestamp.default.column.type = TIMESTAMP_NS: bare and absent designated timestamps create TIMESTAMP_NS, suffixes still decide', async (t) => {
  const db = await Database.open()
  const w = db.lineWriter({ defaultTimestampType: 'TIMESTAMP_NS' })
  w.write(Buffer.from('bare v=1 1700000000000003999\nus v=1 1700000000000003t\nnone v=1\n'))
  t.equal(await w.end(), 3)
  t.same(await types(db, 'bare'), [['timestamp', 'TIMESTAMP_NS', true], ['v', 'DOUBLE', false]])
  t.same((await db.query('select timestamp::string from bare')).rows, [['2023-11-14T22:13:20.000003999Z']], 'all nine digits kept')
  t.same(await types(db, 'us'), [['timestamp', 'TIMESTAMP', true], ['v', 'DOUBLE', false]])
  t.same(await types(db, 'none'), [['timestamp', 'TIMESTAMP_NS', true], ['v', 'DOUBLE', false]])
  // TCP's line.tcp.timestamp=u: a bare number is microseconds, still the default type
  const u = db.lineWriter({ defaultTimestampType: 'TIMESTAMP_NS', precision: 'u' })
  u.write(Buffer.from('baru v=1 1700000000000003\n'))
  t.equal(await u.end(), 1)
  t.same((await db.query('select timestamp::string from baru')).rows, [['2023-11-14T22:13:20.000003000Z']])
  await db.close()
})
