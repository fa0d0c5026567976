/**
 * TIMESTAMP_NS through REST (`/exec` JSON and `/exp` CSV print nine fraction digits, column type
 * `TIMESTAMP_NS`, `/imp` into a nanosecond column) and on disk: WAL recovery, checkpointed
 * partitions and an out-of-order row keep every nanosecond.
 */
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../../lib/index.js'
import { exec, get, startServer } from './helpers.js'

t.test('REST JSON and CSV print nine fraction digits', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  await srv.db.query('create table n (ts timestamp_ns, v int) timestamp(ts) partition by day')
  await srv.db.query("insert into n values ('2024-01-01T00:00:00.123456789Z', 1), ('2024-01-01T00:00:00.000000001Z', 2)")
  const body = JSON.parse((await exec(srv.port, 'select ts, v, null::timestamp_ns z from n')).body)
  t.same(body.columns, [{ name: 'ts', type: 'TIMESTAMP_NS' }, { name: 'v', type: 'INT' }, { name: 'z', type: 'TIMESTAMP_NS' }])
  t.equal(body.timestamp, 0)
  t.same(body.dataset, [['2024-01-01T00:00:00.000000001Z', 2, null], ['2024-01-01T00:00:00.123456789Z', 1, null]])
  const csv = await get(srv.port, `/exp?query=${encodeURIComponent('select ts, v from n')}`)
  t.equal(csv.body.trim().split('\n').slice(1).join('|').replace(/\r/g, ''), '"2024-01-01T00:00:00.000000001Z",2|"2024-01-01T00:00:00.123456789Z",1')
})

t.test('/imp appends nanosecond cells to a TIMESTAMP_NS column', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  await srv.db.query('create table ni (ts timestamp_ns, v int) timestamp(ts) partition by day')
  const boundary = 'XyZ'
  const payload = `--${boundary}\r\nContent-Disposition: form-data; name="data"; filename="ni.csv"\r\n\r\nts,v\r\n2024-01-02T00:00:00.000000007Z,7\r\n2024-01-01T23:59:59.999999999Z,6\r\n--${boundary}--\r\n`
  const res = await fetch(`http://127.0.0.1:${srv.port}/imp?name=ni&fmt=json`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: payload })
  const out = await res.json() as { rowsImported: number }
  t.equal(out.rowsImported, 2)
  const rows = (await srv.db.query('select ts::string, v from ni')).rows
  t.same(rows, [['2024-01-01T23:59:59.999999999Z', 6], ['2024-01-02T00:00:00.000000007Z', 7]])
})

t.test('durable: WAL recovery, checkpoints and out-of-order rows keep every nanosecond', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-tsns-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  let db = await Database.open({ path: dir })
  await db.query('create table m (ts timestamp_ns, v int) timestamp(ts) partition by day wal')
  await db.query("insert into m values ('2024-01-02T00:00:00.000000002Z', 2), ('2024-01-01T00:00:00.000000009Z', 1)")
  await db.close()
  db = await Database.open({ path: dir })
  // after recovery, a row one nanosecond before the newest lands before it
  await db.query("insert into m values ('2024-01-02T00:00:00.000000001Z', 3)")
  await db.close()
  db = await Database.open({ path: dir })
  const rows = (await db.query('select ts::string, v from m')).rows
  t.same(rows, [['2024-01-01T00:00:00.000000009Z', 1], ['2024-01-02T00:00:00.000000001Z', 3], ['2024-01-02T00:00:00.000000002Z', 2]])
  t.same((await db.query('select name from table_partitions(\'m\')')).rows, [['2024-01-01'], ['2024-01-02']])
  t.same((await db.query("select v from m where ts in '2024-01-02T00:00:00.000000001'")).rows, [[3]])
  await db.close()
})
