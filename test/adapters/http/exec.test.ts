import t from 'tap'
import { exec, get, startServer } from './helpers.js'

const srv = await startServer()
t.teardown(() => srv.close())
await srv.db.query(`create table t (ts timestamp, sym symbol, v double, l long, f float, d date, c char, b boolean,
  u uuid, ip ipv4, l2 long256, s string, i int, sh short, bt byte, vc varchar) timestamp(ts) partition by day`)
await srv.db.query(`insert into t values ('2024-01-01T00:00:00.000001Z', 'a', 1500, 9223372036854775807, 0.1, '2024-01-01', 'x', true,
  '6a10f5a3-5fa4-76fd-c125-0f6e6e2992d6', '1.2.3.4', 0x01, 'he"llo\\n', 5, 7, 3, 'µ')`)
await srv.db.query(`insert into t values ('2024-01-01T00:00:01Z', null, 1e7, null, null, null, null, false, null, null, null, null, null, 0, 0, null)`)

t.test('every type renders as QuestDB does', async (t) => {
  const r = await exec(srv.port, 'select * from t')
  t.equal(r.status, 200)
  t.equal(r.headers['content-type'], 'application/json; charset=utf-8')
  t.equal(r.body,
    '{"query":"select * from t","columns":[{"name":"ts","type":"TIMESTAMP"},{"name":"sym","type":"SYMBOL"},{"name":"v","type":"DOUBLE"},' +
    '{"name":"l","type":"LONG"},{"name":"f","type":"FLOAT"},{"name":"d","type":"DATE"},{"name":"c","type":"CHAR"},{"name":"b","type":"BOOLEAN"},' +
    '{"name":"u","type":"UUID"},{"name":"ip","type":"IPv4"},{"name":"l2","type":"LONG256"},{"name":"s","type":"STRING"},{"name":"i","type":"INT"},' +
    '{"name":"sh","type":"SHORT"},{"name":"bt","type":"BYTE"},{"name":"vc","type":"VARCHAR"}],"timestamp":0,"dataset":[' +
    '["2024-01-01T00:00:00.000001Z","a",1500.0,9223372036854775807,0.1,"2024-01-01T00:00:00.000Z","x",true,"6a10f5a3-5fa4-76fd-c125-0f6e6e2992d6","1.2.3.4","0x01","he\\"llo\\\\n",5,7,3,"µ"],' +
    '["2024-01-01T00:00:01.000000Z",null,1.0E7,null,null,null,"",false,null,null,"",null,null,0,0,null]],"count":2}')
})

t.test('doubles, NaN/Infinity, LONG past 2^53, quoteLargeNum, select null', async (t) => {
  t.equal((await exec(srv.port, 'select 1400055037509505337 as l')).body,
    '{"query":"select 1400055037509505337 as l","columns":[{"name":"l","type":"LONG"}],"timestamp":-1,"dataset":[[1400055037509505337]],"count":1}')
  t.equal((await exec(srv.port, 'select 1400055037509505337 as l, null::long n', '&quoteLargeNum=true')).body,
    '{"query":"select 1400055037509505337 as l, null::long n","columns":[{"name":"l","type":"LONG"},{"name":"n","type":"LONG"}],"timestamp":-1,"dataset":[["1400055037509505337",null]],"count":1}')
  const r = await exec(srv.port, 'select 0.0001 a, 123456789.0 b, -0.0 c, cast(1.0/0.0 as double) d, 1.5 e')
  t.match(r.body, '"dataset":[[1.0E-4,1.23456789E8,-0.0,null,1.5]]')
  t.match((await exec(srv.port, 'select null')).body, '"columns":[{"name":"null","type":"STRING"}],"timestamp":-1,"dataset":[[null]],"count":1}')
  t.match((await exec(srv.port, "select 'a\u0000b\tc' s")).body, '"dataset":[["a\\u0000b\\tc"]]')
})

t.test('limit and count as QuestDB computes them', async (t) => {
  const q = 'select x from long_sequence(20)'
  const data = (from: number, to: number): string => Array.from({ length: to - from + 1 }, (_, k) => `[${from + k}]`).join(',')
  t.equal((await exec(srv.port, q, '&limit=10')).body, `{"query":"${q}","columns":[{"name":"x","type":"LONG"}],"timestamp":-1,"dataset":[${data(1, 10)}],"count":10}`)
  t.match((await exec(srv.port, q, '&limit=10&count=true')).body, `"dataset":[${data(1, 10)}],"count":20}`)
  t.match((await exec(srv.port, q, '&limit=10,14')).body, `"dataset":[${data(10, 14)}],"count":14}`)
  t.match((await exec(srv.port, q, '&limit=10,25')).body, `"dataset":[${data(10, 20)}],"count":20}`)
  t.match((await exec(srv.port, q, '&limit=30,40')).body, '"dataset":[],"count":0}')
  t.match((await exec(srv.port, q, '&limit=0,3')).body, `"dataset":[${data(1, 3)}],"count":3}`)
  t.match((await exec(srv.port, q, '&limit=abc')).body, '"count":20}')
  t.equal((await exec(srv.port, q, '&limit=10,14&nm=true')).body, `{"dataset":[${data(10, 14)}],"count":14}`)
  t.equal((await exec(srv.port, 'select x from long_sequence(0)')).body, '{"query":"select x from long_sequence(0)","columns":[{"name":"x","type":"LONG"}],"timestamp":-1,"dataset":[],"count":0}')
})

t.test('timings, explain, cols', async (t) => {
  const r = await exec(srv.port, 'select 1 a', '&timings=true&explain=true')
  t.match(r.body, /^\{"query":"select 1 a","columns":\[\{"name":"a","type":"INT"\}\],"timestamp":-1,"dataset":\[\[1\]\],"count":1,"timings":\{"authentication":\d+,"compiler":\d+,"execute":\d+,"count":\d+\},"explain":\{"jitCompiled":false\}\}$/)
  t.equal((await exec(srv.port, 't', '&cols=v,ts&limit=1')).body,
    '{"query":"t","columns":[{"name":"v","type":"DOUBLE"},{"name":"ts","type":"TIMESTAMP"}],"timestamp":0,"dataset":[[1500.0,"2024-01-01T00:00:00.000001Z"]],"count":1}')
  t.equal((await exec(srv.port, 't', '&cols=%22sym%22')).status, 200)
  const z = await exec(srv.port, 't', '&cols=v,z')
  t.equal(z.status, 400)
  t.equal(z.body, '{"query":"t","error":"column not found: \'z\'"}')
  t.equal((await exec(srv.port, 't', '&cols=v,,ts')).body, '{"query":"t","error":"empty column in query parameter"}')
})

t.test('statements without rows', async (t) => {
  t.equal((await exec(srv.port, 'create table w (a int)')).body, '{"ddl":"OK"}')
  t.equal((await exec(srv.port, 'insert into w values (1), (2)')).body, '{"dml":"OK"}')
  t.equal((await exec(srv.port, 'update w set a = 3 where a = 1')).body, '{"dml":"OK","updated":1}')
  t.equal((await exec(srv.port, 'update w set a = 3 where a = 9;')).body, '{"dml":"OK","updated":0}')
  t.equal((await exec(srv.port, 'drop table w')).body, '{"ddl":"OK"}')
  t.match((await exec(srv.port, 'explain select * from t')).body, '"columns":[{"name":"QUERY PLAN","type":"STRING"}]')
})

t.test('views through /exec: DDL OK, read like a table, QuestDB\'s error for a write', async (t) => {
  t.equal((await exec(srv.port, 'create view tv as (select * from t)')).body, '{"ddl":"OK"}')
  const all = await exec(srv.port, 'select count() from t')
  t.equal((await exec(srv.port, 'select count() from tv')).body.replace('tv', 't'), all.body.replace('tv', 't'))
  const bad = await exec(srv.port, 'update tv set v = 1')
  t.equal(bad.status, 400)
  t.match(bad.body, 'cannot modify view [view=tv]')
  t.equal((await exec(srv.port, 'drop view tv')).body, '{"ddl":"OK"}')
})

t.test('errors: status, message, 0-based position', async (t) => {
  const e1 = await exec(srv.port, 'select * from nope')
  t.equal(e1.status, 400)
  t.equal(e1.body, '{"query":"select * from nope","error":"table does not exist [table=nope]","position":14}')
  const e2 = await exec(srv.port, 'select a, z from t')
  t.equal(e2.status, 400)
  t.match(e2.body, /"position":7\}$/)
  const e3 = await exec(srv.port, 'select x from t; select x from t')
  t.equal(e3.body, '{"query":"select x from t; select x from t","error":"unexpected token [select]","position":17}')
  t.equal((await exec(srv.port, 'select 1;')).status, 200)
  const empty = await get(srv.port, '/exec?query=')
  t.equal(empty.status, 200)
  t.equal(empty.body, '{"error":"empty query","query":"","position":"0"}')
  t.equal((await get(srv.port, '/exec')).body, '{"error":"empty query","query":"","position":"0"}')
  t.equal((await get(srv.port, '/exec?query=&version=2')).body, '{"notice":"empty query","query":"","position":"0"}')
  const bad = await get(srv.port, '/exec?query=select%C3%28')
  t.equal(bad.status, 400)
  t.equal(bad.body, '{"query":"select\uFFFD(","error":"Bad UTF8 encoding in query text","position":0}')
  const unknown = await get(srv.port, '/exec?query=select+1&foo=bar')
  t.equal(unknown.status, 400)
  t.equal(unknown.body, '{"query":"select 1","error":"unknown parameter [name=foo]","position":0}')
  const post = await get(srv.port, '/exec?query=select+1', {}, 'POST')
  t.equal(post.status, 405)
  t.equal(post.body, 'Method POST not supported\r\n')
  const withBody = await get(srv.port, '/exec?query=select+1', { 'Content-Type': 'text/plain', 'Content-Length': '1' }, 'GET', 'x')
  t.equal(withBody.status, 400)
  t.match(withBody.body, '"error":"GET request method cannot have content"')
  const pct = await get(srv.port, '/exec?query=select%2')
  t.equal(pct.status, 400)
  t.match(pct.body, '"error":"invalid query encoding"')
})

t.test('read-only server answers 403 to writes', async (t) => {
  const ro = await startServer({ readOnly: true }, srv.db)
  t.teardown(() => ro.close())
  const w = await exec(ro.port, 'create table ro (a int)')
  t.equal(w.status, 403)
  t.equal(w.body, '{"query":"create table ro (a int)","error":"Write permission denied","position":0}')
  t.equal((await exec(ro.port, 'select 1')).status, 200)
})

t.test('the alias /api/v1/sql/execute', async (t) => {
  const r = await get(srv.port, '/api/v1/sql/execute?query=select+1+x')
  t.equal(r.body, '{"query":"select 1 x","columns":[{"name":"x","type":"INT"}],"timestamp":-1,"dataset":[[1]],"count":1}')
})
