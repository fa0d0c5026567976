/**
 * DECIMAL through REST (`/exec` JSON as quoted exact strings like QuestDB, `/exp` CSV as bare
 * text, column types `DECIMAL(p,s)`) and on disk: WAL recovery, checkpointed partitions and an
 * out-of-order insert keep every digit, BigInt-range values included.
 */
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../../lib/index.js'
import { exec, get, startServer } from './helpers.js'

t.test('REST JSON and CSV print exact decimals', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  await srv.db.query('create table p (ts timestamp, price decimal(18,4), big decimal(40,2)) timestamp(ts)')
  await srv.db.query("insert into p values ('2024-01-01', 12.5m, 123456789012345678901234567890.25m), ('2024-01-02', 99999999999999.9999m, null), ('2024-01-03', null, -0.5m)")
  const r = await exec(srv.port, 'select price, big from p')
  const body = JSON.parse(r.body)
  t.same(body.columns, [{ name: 'price', type: 'DECIMAL(18,4)' }, { name: 'big', type: 'DECIMAL(40,2)' }])
  t.same(body.dataset, [['12.5000', '123456789012345678901234567890.25'], ['99999999999999.9999', null], [null, '-0.50']])
  const bad = JSON.parse((await exec(srv.port, 'select cast(1000 as decimal(4,2))')).body)
  t.match(bad.error, /decimal overflow/)
  t.equal(bad.position, 7)
  const csv = await get(srv.port, `/exp?query=${encodeURIComponent('select price, big from p')}`)
  t.equal(csv.body.trim().split('\n').slice(1).join('|').replace(/\r/g, ''), '12.5000,123456789012345678901234567890.25|99999999999999.9999,|,-0.50')
})

t.test('durable: WAL recovery, checkpoints and out-of-order rows keep every digit', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-decimal-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  let db = await Database.open({ path: dir })
  await db.query('create table m (ts timestamp, v decimal(18,2), w decimal(30,5)) timestamp(ts) partition by day wal')
  await db.query("insert into m values ('2024-01-02', 9999999999999999.99m, 1.5m), ('2024-01-01', -0.01m, null)")
  await db.query("insert into m values ('2024-01-01T12:00', $1, $2)", ['12.34', '123456789012345678901234.5'])
  await db.close()
  db = await Database.open({ path: dir })
  const rows = (await db.query('select ts, v, w from m')).rows.map((r) => [r[1], r[2]])
  t.same(rows, [['-0.01', null], ['12.34', '123456789012345678901234.50000'], ['9999999999999999.99', '1.50000']])
  const s = (await db.query('select sum(v), typeOf(sum(v)) from m')).rows[0]
  t.same(s, ['10000000000000012.32', 'DECIMAL(38,2)'])
  await db.close()
})
