/**
 * GEOHASH through REST: `/exec` JSON as quoted text (base32, or bits when the precision is not a
 * multiple of 5) with null as `null` and column types `GEOHASH(4c)` / `GEOHASH(7b)`, as QuestDB
 * sends them; `/exp` CSV bare, its null the bare word `null` (QuestDB's quirk).
 */
import t from 'tap'
import { exec, get, startServer } from './helpers.js'

t.test('REST JSON and CSV print geohashes as QuestDB does', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  await srv.db.query('create table g (ts timestamp, c geohash(4c), b geohash(7b), l geohash(12c)) timestamp(ts)')
  await srv.db.query("insert into g values ('2024-01-01', #u33d, ##0101101, #u33d8b121234), ('2024-01-02', null, null, null)")
  const body = JSON.parse((await exec(srv.port, 'select c, b, l from g')).body)
  t.same(body.columns, [{ name: 'c', type: 'GEOHASH(4c)' }, { name: 'b', type: 'GEOHASH(7b)' }, { name: 'l', type: 'GEOHASH(12c)' }])
  t.same(body.dataset, [['u33d', '0101101', 'u33d8b121234'], [null, null, null]])
  const csv = await get(srv.port, `/exp?query=${encodeURIComponent('select c, b, l from g')}`)
  t.equal(csv.body.trim().split('\n').slice(1).join('|').replace(/\r/g, ''), 'u33d,0101101,u33d8b121234|null,null,null')
  const bad = JSON.parse((await exec(srv.port, "insert into g values ('2024-01-03', #u3, null, null)")).body)
  t.match(bad.error, /inconvertible types: GEOHASH\(2c\) -> GEOHASH\(4c\) \[from=#u3, to=c\]/)
  t.equal(bad.position, 36)
})

t.test('ILP strings into GEOHASH columns: truncated to the column bits; invalid, too short or empty is null', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  await srv.db.query('create table tracking (ts timestamp, geohash geohash(8c), g11 geohash(11b)) timestamp(ts) partition by day wal')
  const body = [
    'tracking geohash="46swgj10",g11="46swgj10" 1000000',
    'tracking geohash="46swgj10r88k" 2000000',
    'tracking geohash="46swgj1",g11="4a" 3000000',
    'tracking geohash="",g11="46" 4000000',
    'tracking geohash="46swgj1o" 5000000',
  ].join('\n') + '\n'
  const r = await get(srv.port, '/write', {}, 'POST', body)
  t.equal(r.status, 204, r.body)
  const rows = (await srv.db.query('select geohash, g11 from tracking order by ts')).rows
  t.same(rows, [['46swgj10', '00100001101'], ['46swgj10', null], [null, null], [null, null], [null, null]])
})

t.test('CSV import into an existing GEOHASH column: leading bits kept, bad text null and counted', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  await srv.db.query('create table gi (ts timestamp, g geohash(4c)) timestamp(ts)')
  const form = new FormData()
  form.append('data', new Blob(['ts,g\n2024-01-01T00:00:00Z,u33d8\n2024-01-02T00:00:00Z,\n2024-01-03T00:00:00Z,u3\n2024-01-04T00:00:00Z,u33a\n']), 'g.csv')
  const r = await fetch(`http://127.0.0.1:${srv.port}/imp?name=gi&fmt=json`, { method: 'POST', body: form })
  const body = JSON.parse(await r.text())
  // QuestDB's default atomicity (skipCol): a cell that does not parse is null and counted in its column's errors
  t.match(body, { rowsImported: 4, rowsRejected: 0, columns: [{ name: 'ts' }, { name: 'g', type: 'GEOHASH(4c)', size: 4, errors: 2 }] })
  t.same((await srv.db.query('select g from gi order by ts')).rows, [['u33d'], [null], [null], [null]])
})
