/**
 * `http.security.readonly`: every HTTP path that can write is refused, and nothing changes.
 * Audited paths: /exec (and /api/v1/sql/execute) with each DDL and DML statement, /imp, /exp
 * and /api/v1/sql/validate (which never execute a non-query); reads keep working.
 */
import t from 'tap'
import { get, startServer } from '../adapters/http/helpers.js'

function snapshot(r: { columns: readonly { name: string; type: string }[]; rows: unknown[][] }): string {
  return r.columns.map((c) => `${c.name} ${c.type}`).join(',') + ' | ' + r.rows.map((row) => row.map(String).join(',')).join(';')
}

const WRITES = [
  'create table n (x long)',
  'create table n as (select 1 x)',
  'create table n (like t)',
  'drop table t',
  'drop all tables',
  'truncate table t',
  'rename table t to n',
  'alter table t add column y int',
  'alter table t drop column x',
  'alter table t rename column x to y',
  'alter table t alter column x type int',
  "alter table t drop partition list '2024-01-01'",
  'alter table t dedup disable',
  'insert into t values (2)',
  'insert into t select x from long_sequence(3)',
  'with s as (select 5 x) insert into t select x from s',
  'update t set x = 9',
]

t.test('read-only: every write over /exec is refused with 403 and changes nothing', async (t) => {
  const s = await startServer({ readOnly: true })
  t.teardown(() => s.close())
  await s.db.query('create table t (x long)')
  await s.db.query('insert into t values (1)')
  const before = snapshot(await s.db.query('select * from t'))
  for (const sql of WRITES) {
    for (const path of ['/exec', '/api/v1/sql/execute']) {
      const r = await get(s.port, `${path}?query=${encodeURIComponent(sql)}`)
      t.equal(r.status, 403, `${path}: ${sql}`)
      t.match(r.body, '"error":"Write permission denied"')
    }
  }
  const imp = await get(s.port, '/imp?name=n', { 'content-type': 'multipart/form-data; boundary=b' }, 'POST',
    '--b\r\nContent-Disposition: form-data; name="data"; filename="n.csv"\r\n\r\nx\r\n1\r\n--b--\r\n')
  t.equal(imp.status, 403, '/imp')
  t.equal((await get(s.port, `/exp?query=${encodeURIComponent('drop table t')}`)).status, 400, '/exp runs only queries')
  t.equal((await get(s.port, `/api/v1/sql/validate?query=${encodeURIComponent('drop table t')}`)).body, '{"queryType":"DROP"}', 'validate does not execute')
  t.equal((await get(s.port, '/exec?query=select+count()+from+t')).status, 200, 'reads work')
  t.equal((await get(s.port, '/exec?query=begin')).status, 200, 'a transaction statement is not a write')
  t.same((await s.db.query('select table_name from tables()')).rows, [['t']], 'no table created, dropped or renamed')
  t.equal(snapshot(await s.db.query('select * from t')), before, 'rows and columns unchanged')
})
