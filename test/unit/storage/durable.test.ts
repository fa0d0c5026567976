import t from 'tap'
import { rmSync, readdirSync, truncateSync, appendFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../../lib/index.js'
import { tmpDir } from './helpers.js'
import { io } from '../../../lib/storage/durable/io.js'

const tmp = (t: Parameters<typeof tmpDir>[0]): string => tmpDir(t, 'epochdb-unit-')

const DDL = 'create table t (ts timestamp, s symbol, v double, n long, i int, str string, vc varchar, b boolean, u uuid) timestamp(ts) partition by day'
const ROWS = "insert into t values ('2024-01-01T00:00:00Z', 'a', 1.5, 9007199254740993, 7, 'héllo', 'v', true, '11111111-1111-1111-1111-111111111111'), " +
  "('2024-01-02T01:00:00Z', null, null, null, null, null, null, false, null), ('2024-01-01T05:00:00Z', 'b', -2.25, -1, -3, '', '', true, null)"

t.test('rows of every type survive close and reopen, and a crash without close', async (t) => {
  const dir = tmp(t)
  let db = await Database.open({ path: dir })
  await db.query(DDL)
  await db.query(ROWS)
  const before = (await db.query('select * from t')).rows
  await db.close()
  db = await Database.open({ path: dir })
  t.same((await db.query('select * from t')).rows, before)
  await db.query("insert into t values ('2024-01-03T00:00:00Z', 'c', 3, 3, 3, 'x', 'y', false, null)")
  // no close: the lock is ours, so release it the way a dead process would leave it (reopen in-process must fail)
  await t.rejects(Database.open({ path: dir }), { code: '55006' })
  await db.close()
  db = await Database.open({ path: dir })
  t.equal((await db.query('select count() from t')).rows[0]![0], 4n)
  t.same((await db.query("select name, numRows from table_partitions('t')")).rows, [['2024-01-01', 2n], ['2024-01-02', 1n], ['2024-01-03', 1n]])
  await db.close()
})

t.test('DDL persists: add/drop/rename column, rename and drop table, truncate', async (t) => {
  const dir = tmp(t)
  let db = await Database.open({ path: dir })
  await db.query(DDL)
  await db.query(ROWS)
  await db.query('alter table t add column z int')
  await db.query("update t set z = 5 where s = 'a'")
  await db.query('alter table t drop column vc')
  await db.query('alter table t rename column v to price')
  await db.query('rename table t to t2')
  await db.query('create table gone as (select * from t2)')
  await db.query('create table empty (x int)')
  await db.query('truncate table empty')
  await db.query('drop table gone')
  const before = (await db.query('select * from t2')).rows
  await db.close()
  db = await Database.open({ path: dir })
  t.same((await db.query('select * from t2')).rows, before)
  t.same((await db.query('select table_name from tables() order by table_name')).rows, [['empty'], ['t2']])
  t.equal(readdirSync(dir).filter((e) => e.includes('~')).length, 2)
  await db.query('create table t3 (x int)')
  const ids = (await db.query('select id from tables() order by id')).rows.map((r) => r[0])
  t.equal(new Set(ids).size, 3, 'table ids are not reused')
  await db.close()
})

t.test('DROP PARTITION, SHOW PARTITIONS and TTL', async (t) => {
  const dir = tmp(t)
  const db = await Database.open({ path: dir })
  await db.query('create table p (ts timestamp, v int) timestamp(ts) partition by day')
  await db.query("insert into p select timestamp_sequence('2024-01-01T06:00:00Z', 21600000000L), x::int from long_sequence(20)")
  t.same((await db.query('show partitions from p')).rows.map((r) => r[2]), ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05', '2024-01-06'])
  await db.query("alter table p drop partition list '2024-01-02'")
  await db.query("alter table p drop partition where ts < '2024-01-04'")
  t.same((await db.query('show partitions from p')).rows.map((r) => [r[2], r[5]]), [['2024-01-04', 4n], ['2024-01-05', 4n], ['2024-01-06', 1n]])
  await t.rejects(db.query("alter table p drop partition list '2023-01-01'"), { code: '22023' })
  await db.query('create table q (ts timestamp, v int) timestamp(ts) partition by day ttl 2 days')
  await db.query("insert into q values ('2024-01-01T10:00:00Z', 1), ('2024-01-02T10:00:00Z', 2)")
  await db.query("insert into q values ('2024-01-04T12:00:00Z', 3)")
  t.same((await db.query('select v from q')).rows, [[2], [3]], 'the partition older than 2 days before the newest row is dropped')
  const disk = (await db.query("select diskSize from table_partitions('p')")).rows
  t.ok(disk.every((r) => Number(r[0]) > 0))
  await db.close()
})

t.test('a corrupted column file gives XX001 naming table and partition; other tables still work', async (t) => {
  const dir = tmp(t)
  let db = await Database.open({ path: dir })
  await db.query(DDL)
  await db.query(ROWS)
  await db.query('create table ok (x int)')
  await db.query('insert into ok values (1)')
  await db.close()
  const tdir = join(dir, readdirSync(dir).find((e) => e.startsWith('t~'))!)
  const part = readdirSync(tdir).find((e) => e.startsWith('2024-01-02'))!
  truncateSync(join(tdir, part, 'v.d'), 3)
  db = await Database.open({ path: dir })
  const err = await db.query('select * from t').catch((e) => e)
  t.equal(err.code, 'XX001')
  t.match(err.message, /table=t, partition=2024-01-02/)
  t.same((await db.query('select x from ok')).rows, [[1]])
  await db.close()
})

t.test('a torn WAL tail is dropped; acknowledged rows stay', async (t) => {
  const dir = tmp(t)
  const db = await Database.open({ path: dir })
  await db.query('create table w (ts timestamp, v int) timestamp(ts) partition by day')
  await db.query("insert into w values ('2024-01-01', 1)")
  // simulate a crash: copy the directory while open (WAL not checkpointed), then add garbage
  const copy = join(dir, '..', `${dir.split('/').pop()}-copy`)
  t.teardown(() => rmSync(copy, { recursive: true, force: true }))
  const { cpSync } = await import('node:fs')
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true })
  for (const e of readdirSync(copy)) if (e.startsWith('_lock')) rmSync(join(copy, e))
  const walSize = statSync(join(copy, 'wal.log')).size
  t.ok(walSize > 0, 'the insert is in the WAL')
  appendFileSync(join(copy, 'wal.log'), Buffer.from([200, 0, 0, 0, 1, 2, 3, 4, 5, 6]))
  const db2 = await Database.open({ path: copy })
  t.same((await db2.query('select v from w')).rows, [[1]])
  await db2.close()
  await db.close()
})

t.test('a failed write (ENOSPC, fsync error) fails the statement and leaves the table as it was', async (t) => {
  const dir = tmp(t)
  const db = await Database.open({ path: dir })
  await db.query('create table f (ts timestamp, v int) timestamp(ts) partition by day')
  await db.query("insert into f values ('2024-01-01', 1)")
  // every write fails: plain and gathering (the WAL's) alike
  const { writeSync: write, writevSync: writev } = io
  io.writeSync = () => { throw Object.assign(new Error('no space'), { code: 'ENOSPC' }) }
  io.writevSync = () => { throw Object.assign(new Error('no space'), { code: 'ENOSPC' }) }
  await t.rejects(db.query("insert into f values ('2024-01-02', 2)"), { code: '53100' })
  await t.rejects(db.query("update f set v = 9"), { code: '53100' })
  io.writeSync = write
  io.writevSync = writev
  const fsync = io.fsync
  io.fsync = () => Promise.reject(Object.assign(new Error('io'), { code: 'EIO' }))
  await t.rejects(db.append('f', { ts: new Float64Array([Date.UTC(2024, 0, 3) * 1000]), v: [3] }), { code: '58030' })
  io.fsync = fsync
  t.same((await db.query('select v from f')).rows, [[1]])
  await db.query("insert into f values ('2024-01-04', 4)")
  await db.close()
  const again = await Database.open({ path: dir })
  t.same((await again.query('select v from f')).rows, [[1], [4]])
  await again.close()
})
