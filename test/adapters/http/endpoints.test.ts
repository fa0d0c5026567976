import t from 'tap'
import { ADMIN } from '../../../lib/index.js'
import { createHttpHandler } from '../../../adapters/http/index.js'
import { get, raw, startServer } from './helpers.js'

t.test('ping, settings, chk, validate, 404', async (t) => {
  const srv = await startServer({ releaseVersion: '9.9.9' })
  t.teardown(() => srv.close())
  await srv.db.query('create table trades (ts timestamp, p double) timestamp(ts)')
  const ping = await get(srv.port, '/ping')
  t.equal(ping.status, 204)
  t.ok(ping.headers['x-influxdb-version'])
  t.equal((await get(srv.port, '/settings')).body,
    '{"config":{"release.type":"OSS","release.version":"9.9.9","http.settings.readonly":true,"accepting.writes":["http", "pgwire"],' +
    '"line.proto.support.versions":[1,2,3],"ilp.proto.transports":["http"],"posthog.enabled":false,"posthog.api.key":null,"cairo.max.file.name.length":127},' +
    '"preferences.version":0,"preferences":{}}')
  t.equal((await get(srv.port, '/chk?j=trades')).body, 'Exists\r\n')
  t.equal((await get(srv.port, '/chk?j=TRADES&f=json')).body, '{"status":"Exists"}')
  t.equal((await get(srv.port, '/chk?j=nope&f=json')).body, '{"status":"Does not exist"}')
  t.equal((await get(srv.port, '/chk')).body, 'table name missing\r\n')
  t.equal((await get(srv.port, '/api/v1/sql/validate?query=drop+table+trades')).body, '{"queryType":"DROP"}')
  t.equal((await get(srv.port, '/api/v1/sql/validate?query=create+table+x(a+int)')).body, '{"queryType":"CREATE TABLE"}')
  t.equal((await get(srv.port, '/api/v1/sql/validate?query=select+ts,p+from+trades')).body,
    '{"query":"select ts,p from trades","columns":[{"name":"ts","type":"TIMESTAMP"},{"name":"p","type":"DOUBLE"}],"timestamp":0}')
  t.equal((await get(srv.port, '/api/v1/sql/validate?query=select+z+from+trades')).body,
    '{"query":"select z from trades","error":"Invalid column: z","position":7}')
  t.equal((await get(srv.port, '/chk?j=trades')).status, 200, 'table still there after validate drop')
  t.equal((await get(srv.port, '/chk?j=x')).body, 'Does not exist\r\n', 'validate did not create')
  const nf = await get(srv.port, '/nothing-here')
  t.equal(nf.status, 404)
  t.equal((await get(srv.port, '/imp')).body, 'Method GET not supported\r\n')
})

t.test('basic auth as QuestDB: 401 text, /ping and /settings stay open', async (t) => {
  const srv = await startServer({ user: 'joe', password: 's3cret' })
  t.teardown(() => srv.close())
  const no = await get(srv.port, '/exec?query=select+1')
  t.equal(no.status, 401)
  t.equal(no.headers['content-type'], 'text/plain; charset=utf-8')
  t.notOk(no.headers['www-authenticate'])
  t.equal(no.body, 'Unauthorized\r\n')
  const wrong = await get(srv.port, '/exec?query=select+1', { Authorization: 'Basic ' + Buffer.from('joe:nope').toString('base64') })
  t.equal(wrong.status, 401)
  const ok = await get(srv.port, '/exec?query=select+current_user()', { Authorization: 'Basic ' + Buffer.from('joe:s3cret').toString('base64') })
  t.equal(ok.status, 200)
  t.match(ok.body, '"dataset":[["joe"]]')
  t.equal((await get(srv.port, '/ping')).status, 204)
  t.match((await get(srv.port, '/settings')).body, '"acl.enabled":true')
  t.throws(() => createHttpHandler(srv.db, { user: 'joe' }), /must be set together/)
})

t.test('authenticate hook resolves the principal', async (t) => {
  const srv = await startServer({
    authenticate: (req) => (req.headers.authorization === 'Bearer good' ? { ...ADMIN, name: 'alice' } : null),
  })
  t.teardown(() => srv.close())
  t.equal((await get(srv.port, '/exec?query=select+1')).status, 401)
  t.match((await get(srv.port, '/exec?query=select+current_user()', { Authorization: 'Bearer good' })).body, '[["alice"]]')
})

t.test('size limits and malformed heads get JSON errors', async (t) => {
  const srv = await startServer({ maxQueryLength: 1000 })
  t.teardown(() => srv.close())
  const long = await get(srv.port, '/exec?query=' + encodeURIComponent('select ' + '1+'.repeat(600) + '1'))
  t.equal(long.status, 414)
  t.match(long.body, '"error":"request target is too long')
  const huge = await raw(srv.port, `GET /exec?query=${'x'.repeat(40000)} HTTP/1.1\r\nHost: a\r\n\r\n`)
  t.match(huge, /^HTTP\/1.1 431 /)
  t.match(huge, '"error":"request head is too large"')
  const garbage = await raw(srv.port, 'NONSENSE\r\n\r\n')
  t.match(garbage, /^HTTP\/1.1 400 /)
  t.equal((await get(srv.port, '/exec?query=select+1')).status, 200)
})
