import t from 'tap'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { Sender } from '@questdb/nodejs-client'
import { Database } from '../../../lib/index.js'
import { basicAuth, get, startServer } from './helpers.js'
import { setup } from '../oidc/helpers.js'

const rows = async (db: Database, sql: string): Promise<unknown[][]> => (await db.query(sql)).rows

t.test('@questdb/nodejs-client over HTTP: protocol 1, 2 and auto (negotiated through /settings), undici and node:http', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  for (const conf of ['protocol_version=1', 'protocol_version=2', 'protocol_version=auto', 'protocol_version=2;stdlib_http=on']) {
    const table = `t_${conf.replace(/[^a-z0-9]/g, '_')}`
    const sender = await Sender.fromConfig(`http::addr=127.0.0.1:${srv.port};${conf}`)
    for (let i = 0; i < 10; i++) {
      await sender.table(table).symbol('sym', i % 2 === 0 ? 'even' : 'odd').floatColumn('price', i + 0.25).intColumn('qty', i)
        .stringColumn('note', `n "${i}"\n,=`).booleanColumn('ok', i % 3 === 0).timestampColumn('seen', 1_700_000_000_000_000n + BigInt(i))
        .at(1_700_000_000_000_000n + BigInt(i) * 1000n, 'us')
    }
    await sender.flush()
    await sender.close()
    t.same(await rows(srv.db, `select count(), sum(price), sum(qty), count_distinct(sym), sum(ok::int) from ${table}`), [[10n, 47.5, 45n, 2n, 4]], conf)
    t.same(await rows(srv.db, `select note, seen, timestamp from ${table} limit 1`), [['n "0"\n,=', 1_700_000_000_000_000n, 1_700_000_000_000_000n]], conf)
  }
  const s = await get(srv.port, '/settings')
  t.match(s.body, /"line.proto.support.versions":\[1,2,3\],"ilp.proto.transports":\["http"\]/)
})

t.test('protocol 3 decimals through the client (binary and text, auto-negotiated): into DECIMAL columns only, rescaled, never created', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  await srv.db.query('create table px (sym symbol, p decimal(10,2), w decimal(30,4), ts timestamp) timestamp(ts) partition by day wal')
  const sender = await Sender.fromConfig(`http::addr=127.0.0.1:${srv.port}`) // auto: /settings lists 3
  await sender.table('px').symbol('sym', 'a').decimalColumn('p', 12345n, 2).decimalColumnText('w', '-1.5').at(1000n, 'us')
  await sender.table('px').symbol('sym', 'b').decimalColumn('p', -7n, 0).decimalColumn('w', 123456789012345678901234n, 4).at(2000n, 'us')
  await sender.table('px').symbol('sym', 'c').decimalColumnText('p', '0.10').decimalColumn('w', new Int8Array(0), 0).at(3000n, 'us')
  await sender.flush()
  t.same(await rows(srv.db, "select sym, p::string, w::string from px order by ts"), [['a', '123.45', '-1.5000'], ['b', '-7.00', '12345678901234567890.1234'], ['c', '0.10', null]])
  // integers, floats and strings go into a DECIMAL column too
  const more = await get(srv.port, '/write', {}, 'POST', 'px p=3i,w="2.25" 4000000\npx p=0.5 5000000\n')
  t.equal(more.status, 204, more.body)
  t.same(await rows(srv.db, 'select p::string, w::string from px where sym is null order by ts'), [['3.00', '2.2500'], ['0.50', null]])
  const bad = async (body: string): Promise<{ status: number; message: string }> => { const r = await get(srv.port, '/write', {}, 'POST', body); return { status: r.status, message: String(JSON.parse(r.body || '{}').message) } }
  t.match(await bad('px p=1.005d\n'), { status: 400, message: /column: p; decimal value would lose precision in column type: DECIMAL\(10,2\)/ })
  t.match(await bad('px p=123456789.5d\n'), { status: 400, message: /decimal value does not fit column type: DECIMAL\(10,2\)/ })
  t.match(await bad('px sym=1.5d\n'), { status: 400, message: /cast error from protocol type: DECIMAL to column type: SYMBOL/ })
  t.match(await bad('px q=1.5d\n'), { status: 500, message: /decimal columns cannot be created automatically \[table=px, columnName=q\]/ })
  t.match(await bad('newdec,k=v q=1.5d\n'), { status: 400, message: /table: newdec; decimal columns must be created manually: q/ })
  t.match(await bad('px p=1.2.3d\n'), { status: 400, message: /field value is invalid/ })
  t.same(await rows(srv.db, 'select count() from px'), [[5n]], 'nothing of the failed requests')
  t.same(await rows(srv.db, "select count() from tables() where table_name = 'newdec'"), [[0n]])
  await sender.close()
})

t.test('protocol 2 double arrays through the client: DOUBLE[] columns by dimension count, nulls, a clash', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  const sender = await Sender.fromConfig(`http::addr=127.0.0.1:${srv.port};protocol_version=2`)
  await sender.table('arr').symbol('s', 'x').arrayColumn('v', [1.5, 2.5]).arrayColumn('m', [[1, 2], [3, 4]]).at(1000n, 'us')
  await sender.table('arr').symbol('s', 'y').arrayColumn('v', null as unknown as unknown[]).arrayColumn('m', [[5, 6]]).at(2000n, 'us')
  await sender.flush()
  t.match(String((await rows(srv.db, 'show create table arr'))[0]![0]), /v DOUBLE\[\],\s+m DOUBLE\[\]\[\]/)
  t.same(await rows(srv.db, 'select s, v, m from arr'), [['x', [1.5, 2.5], [[1, 2], [3, 4]]], ['y', null, [[5, 6]]]])
  await sender.table('arr').arrayColumn('v', [[1]]).at(3000n, 'us')
  await t.rejects(sender.flush(), /statusCode=400.*cast error from protocol type: DOUBLE\[\]\[\] to column type: DOUBLE\[\]/)
  await sender.close().catch(() => undefined)
  t.same(await rows(srv.db, 'select count() from arr'), [[2n]])
})

t.test('raw curl --data-binary @file.ilp, precision, gzip, /ping', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  const file = join(t.testdir(), 'data.ilp')
  writeFileSync(file, 'weather,city=Paris temp=12.5,hum=80i 1700000000\nweather,city=Oslo temp=-3.0,hum=90i 1700000060')
  // curl runs in a child process, asynchronously: the server answers from this process
  const { stdout: out } = await promisify(execFile)('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '--data-binary', `@${file}`, `http://127.0.0.1:${srv.port}/write?precision=s`], { encoding: 'utf8', timeout: 30_000 })
  t.equal(out, '204')
  t.same(await rows(srv.db, 'select city, temp, hum, timestamp from weather'), [['Paris', 12.5, 80n, 1_700_000_000_000_000n], ['Oslo', -3, 90n, 1_700_000_060_000_000n]])
  const v2 = await get(srv.port, '/api/v2/write?precision=ms&org=x&bucket=y', { 'Content-Type': 'text/plain' }, 'POST', 'weather,city=Rome temp=20.0 1700000120000\n')
  t.equal(v2.status, 204)
  t.equal(v2.body, '')
  const gz = await get(srv.port, '/write', { 'Content-Encoding': 'gzip' }, 'POST', gzipSync('weather,city=Lima temp=18.0 1700000180000000000\n'))
  t.equal(gz.status, 204)
  const badGz = await get(srv.port, '/write', { 'Content-Encoding': 'gzip' }, 'POST', Buffer.from('not gzip at all'))
  t.equal(badGz.status, 415)
  t.match(JSON.parse(badGz.body), { code: 'not supported', message: 'gzip decompression error' })
  t.same(await rows(srv.db, 'select city from weather'), [['Paris'], ['Oslo'], ['Rome'], ['Lima']])
  const prec = await get(srv.port, '/write?precision=weeks', {}, 'POST', 'weather temp=1.0\n')
  t.equal(prec.status, 400)
  t.match(JSON.parse(prec.body), { code: 'not supported', message: 'unsupported precision' })
  const ping = await get(srv.port, '/ping')
  t.equal(ping.status, 204)
  t.equal(ping.headers['x-influxdb-version'], 'v2.7.4')
  // HEAD as health checks send it (QuestDB's docs: `curl -I /ping` answers 204)
  const head = await get(srv.port, '/ping', {}, 'HEAD')
  t.equal(head.status, 204, 'HEAD /ping')
  t.equal(head.headers['x-influxdb-version'], 'v2.7.4')
  t.equal(head.body, '')
  const { stdout: curlHead } = await promisify(execFile)('curl', ['-s', '-I', `http://127.0.0.1:${srv.port}/ping`], { encoding: 'utf8', timeout: 30_000 })
  t.match(curlHead, /^HTTP\/1\.1 204[^]*X-Influxdb-Version: v2\.7\.4/i, 'curl -I /ping')
  t.equal((await get(srv.port, '/write')).status, 405, 'GET /write')
})

t.test('line.http.enabled=false: /write is not served; read-only answers 421', async (t) => {
  const off = await startServer({ lineProtocol: { enabled: false } })
  t.teardown(() => off.close())
  t.equal((await get(off.port, '/write', {}, 'POST', 'x v=1.0\n')).status, 404)
  t.match((await get(off.port, '/settings')).body, /"line.proto.support.versions":\[\],"ilp.proto.transports":\[\]/)
  const ro = await startServer({ readOnly: true })
  t.teardown(() => ro.close())
  const r = await get(ro.port, '/write', {}, 'POST', 'x v=1.0\n')
  t.equal(r.status, 421)
  t.match(JSON.parse(r.body), { code: 'not accepting writes' })
})

t.test('ACL: Basic and REST tokens through the client, the HTTP endpoint permission, grants', async (t) => {
  const db = await Database.open({ acl: { enabled: true, admin: { user: 'admin', password: 'quest' } } })
  const srv = await startServer({ loginThrottle: false }, db)
  t.teardown(() => srv.close())
  await db.query("create user ingest with password 'pw'")
  await db.query('grant create table to ingest')
  const noAuth = await get(srv.port, '/write', {}, 'POST', 'a v=1.0\n')
  t.equal(noAuth.status, 401)
  const denied = await get(srv.port, '/write', { Authorization: basicAuth('ingest', 'pw') }, 'POST', 'a v=1.0\n')
  t.equal(denied.status, 403, 'no HTTP endpoint permission')
  await db.query('grant http to ingest')
  const basic = await Sender.fromConfig(`http::addr=127.0.0.1:${srv.port};username=ingest;password=pw;protocol_version=2`)
  await basic.table('a').floatColumn('v', 1).atNow()
  await basic.flush()
  await basic.close()
  const token = String((await rows(db, 'alter user ingest create token type rest with ttl \'1h\''))[0]![1])
  t.match(token, /^qt1/)
  const bearer = await Sender.fromConfig(`http::addr=127.0.0.1:${srv.port};token=${token};protocol_version=1`)
  await bearer.table('a').floatColumn('v', 2).atNow()
  await bearer.flush()
  await bearer.close()
  t.same(await rows(db, 'select v from a'), [[1], [2]])
  await db.query("create user reader with password 'pw'")
  await db.query('grant http to reader')
  const r = await get(srv.port, '/write', { Authorization: basicAuth('reader', 'pw') }, 'POST', 'a v=3.0\n')
  t.equal(r.status, 403)
  t.match(JSON.parse(r.body), { code: 'unauthorised', message: /Access denied for reader/ })
  t.same(await rows(db, 'select count() from a'), [[2n]])
})

t.test('ACL: an OIDC Bearer token as on /exec', async (t) => {
  const db = await Database.open({ acl: { enabled: true } })
  await db.query('create group analysts with external alias analysts')
  await db.query('grant http, create table to analysts')
  // an external user's tables are not its own (it is never stored): INSERT comes from its groups
  await db.query('grant insert on all tables to analysts')
  const s = await setup({}, {}, {}, db)
  t.teardown(() => s.close())
  const token = await s.token('alice')
  const r = await get(s.port, '/write', { Authorization: `Bearer ${token}` }, 'POST', 'oidc_t,k=v x=1i\n')
  t.equal(r.status, 204, r.body)
  t.equal((await get(s.port, '/write', { Authorization: 'Bearer nope' }, 'POST', 'oidc_t x=2i\n')).status, 401)
  t.same(await rows(db, 'select k, x from oidc_t'), [['v', 1n]])
  // a new column: ALTER TABLE ... ADD COLUMN by an external user asks for OWNED BY too (the
  // adder would get the column's owner grants); auto-adding names the built-in admin
  await db.query('grant add column on all tables to analysts')
  const added = await get(s.port, '/write', { Authorization: `Bearer ${token}` }, 'POST', 'oidc_t,k=w x=3i,y=1.5\n')
  t.equal(added.status, 204, added.body)
  t.same(await rows(db, "select x, y from oidc_t where k = 'w'"), [[3n, 1.5]])
})

t.test('a durable table through the client', async (t) => {
  const dir = t.testdir()
  let db = await Database.open({ path: dir })
  const srv = await startServer({}, db)
  const sender = await Sender.fromConfig(`http::addr=127.0.0.1:${srv.port};auto_flush_rows=1000`)
  for (let i = 0; i < 5000; i++) await sender.table('dur').symbol('s', `s${i % 10}`).floatColumn('v', i).at(BigInt(1_700_000_000_000_000 + i), 'us')
  await sender.flush() // close() does not flush what auto-flush left
  await sender.close()
  await srv.close()
  await db.close()
  db = await Database.open({ path: dir })
  t.same(await rows(db, 'select count(), sum(v) from dur'), [[5000n, 12497500]])
  await db.close()
})
