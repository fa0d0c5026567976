import t from 'tap'
import { get, startServer } from './helpers.js'

const srv = await startServer({ now: () => 1700000000000 })
t.teardown(() => srv.close())
await srv.db.query(`create table t (ts timestamp, sym symbol, v double, l long, f float, d date, c char, b boolean,
  u uuid, ip ipv4, l2 long256, s string, i int) timestamp(ts) partition by day`)
await srv.db.query(`insert into t values ('2024-01-01T00:00:00.000001Z', 'a', 1500, 9223372036854775807, 0.1, '2024-01-01', 'x', true,
  '6a10f5a3-5fa4-76fd-c125-0f6e6e2992d6', '1.2.3.4', 0x01, 'he"l\\lo\n', 5)`)
await srv.db.query(`insert into t values ('2024-01-01T00:00:01Z', null, 1e7, null, null, null, null, false, null, null, null, null, null)`)

const exp = (q: string, extra = ''): ReturnType<typeof get> => get(srv.port, `/exp?query=${encodeURIComponent(q)}${extra}`)

t.test('CSV bytes and headers', async (t) => {
  const r = await exp('select * from t')
  t.equal(r.status, 200)
  t.equal(r.headers['content-type'], 'text/csv; charset=utf-8')
  t.equal(r.headers['content-disposition'], 'attachment; filename="questdb-query-1700000000000.csv"')
  t.equal(r.body,
    '"ts","sym","v","l","f","d","c","b","u","ip","l2","s","i"\r\n' +
    '"2024-01-01T00:00:00.000001Z","a",1500.0,9223372036854775807,0.1,"2024-01-01T00:00:00.000Z",x,true,6a10f5a3-5fa4-76fd-c125-0f6e6e2992d6,1.2.3.4,0x01,"he""l\\\\lo\\n",5\r\n' +
    '"2024-01-01T00:00:01.000000Z",,1.0E7,,,,,false,,,,,\r\n')
  t.equal((await exp('select null')).body, '"null"\r\n\r\n')
})

t.test('limit, filename, delimiter, nm', async (t) => {
  const q = 'select x from long_sequence(10)'
  t.equal((await exp(q, '&limit=3')).body, '"x"\r\n1\r\n2\r\n3\r\n')
  t.equal((await exp(q, '&limit=2,4')).body, '"x"\r\n3\r\n4\r\n')
  t.equal((await exp(q, '&limit=20,30')).body, '"x"\r\n')
  const r = await exp('select 1 a, 2 b', '&filename=report&delimiter=%09&nm=true')
  t.equal(r.headers['content-disposition'], 'attachment; filename="report.csv"')
  t.equal(r.body, '1\t2\r\n')
})

t.test('errors are JSON', async (t) => {
  const ddl = await exp('create table balance (money float)')
  t.equal(ddl.status, 400)
  t.equal(ddl.headers['content-type'], 'application/json; charset=utf-8')
  t.equal(ddl.body, '{"query":"create table balance (money float)","error":"/exp endpoint only accepts SELECT","position":0}')
  t.equal((await exp('select * from nope')).body, '{"query":"select * from nope","error":"table does not exist [table=nope]","position":14}')
  t.equal((await get(srv.port, '/exp')).body, '{"query":"","error":"No query text","position":0}')
  t.equal((await exp('select 1', '&fmt=xyz')).body, '{"query":"select 1","error":"unrecognised format [format=xyz]","position":0}')
  t.equal((await srv.db.query('select count() from tables() where table_name = \'balance\'')).rows[0]![0], 0n)
})
