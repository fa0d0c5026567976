import t from 'tap'
import http from 'node:http'
import { readdirSync } from 'node:fs'
import { Database } from '../../lib/index.js'
import { get, startServer } from '../adapters/http/helpers.js'

// Bad ILP bodies get QuestDB's JSON error, nothing of the request is written, and the server
// keeps serving (the next request on the same server succeeds).

const count = async (db: Database, table: string): Promise<number> => {
  const r = await db.query(`select count() from tables() where table_name = '${table}'`)
  if (r.rows[0]![0] === 0n) return -1
  return Number((await db.query(`select count() from "${table}"`)).rows[0]![0])
}

t.test('malformed lines, type clash, invalid UTF-8, names escaping the data directory', async (t) => {
  const dir = t.testdir()
  const db = await Database.open({ path: dir })
  const srv = await startServer({}, db)
  t.teardown(async () => { await srv.close(); await db.close() })
  t.equal((await get(srv.port, '/write', {}, 'POST', 'good,s=a v=1.0,n=1i 1t\n')).status, 204)
  const bodies: [string | Buffer, RegExp, number][] = [
    ['good v=2.0 2t\ngood v=2.0 3t\ngood v=oops 4t\n', /error in line 3: Could not parse entire line, field value is invalid. Field: v; value: oops/, 3],
    ['good v=2.0\ngood n=1.5\n', /error in line 2: table: good, column: n; cast error from protocol type: FLOAT to column type: LONG/, 2],
    ['good,s=b v="str"\n', /cast error from protocol type: STRING to column type: DOUBLE/, 1],
    [Buffer.concat([Buffer.from('good,s=x'), Buffer.from([0xff, 0xfe]), Buffer.from(' v=1.0\n')]), /invalid UTF-8/, 1],
    [Buffer.concat([Buffer.from('bad'), Buffer.from([0xc0, 0xaf]), Buffer.from(' v=1.0\n')]), /INVALID_TABLE_NAME/, 1],
    ['good v=1.0\n../../../../tmp/pwn v=1.0\n', /error in line 2: table: \.\.\/\.\.\/\.\.\/\.\.\/tmp\/pwn; invalid table name/, 2],
    ['..\\/..\\/escape v=1.0\n', /invalid table name/, 1],
    ['good ../x=1.0\n', /invalid column name: \.\.\/x/, 1],
    ['good v=1.0 1t trailing\n', /INVALID_FIELD_SEPARATOR/, 1],
    ['good v\n', /Field value is missing: v/, 1],
    [',s=a v=1.0\n', /INVALID_TABLE_NAME/, 1],
    ['good v=1.0 99999999999999999999999\n', /designated timestamp overflow/, 1],
    ['good v==\x10\x00\x00', /Could not parse entire line/, 1],
  ]
  for (const [body, message, line] of bodies) {
    const r = await get(srv.port, '/write', {}, 'POST', body)
    t.equal(r.status, 400, JSON.stringify(String(body)))
    t.match(r.headers['content-type'], /application\/json/)
    const j = JSON.parse(r.body) as { code: string; message: string; line: number; errorId: string }
    t.equal(j.code, 'invalid')
    t.match(j.message, /^failed to parse line protocol:errors encountered on line\(s\):\nerror in line \d+: /)
    t.match(j.message, message)
    t.equal(j.line, line)
    t.match(j.errorId, /^[0-9a-f]{12}-\d+$/)
    t.same(Object.keys(j), ['code', 'message', 'line', 'errorId'])
  }
  t.equal(await count(db, 'good'), 1, 'no row of any failed request')
  t.equal(await count(db, 'bad'), -1)
  for (const name of readdirSync(dir)) t.notMatch(name, /pwn|escape/, 'no file outside a table directory')
  t.equal((await get(srv.port, '/write', {}, 'POST', 'good v=5.0 5t')).status, 204, 'a last line without its newline is taken')
  t.equal(await count(db, 'good'), 2)
})

t.test('a 100 MB body gets 413 before it is parsed to the end; nothing written; the server goes on', async (t) => {
  const db = await Database.open()
  const srv = await startServer({}, db)
  t.teardown(() => srv.close())
  const line = Buffer.from('big,s=abc v=1.5,w=2i\n')
  const chunk = Buffer.concat(Array.from({ length: Math.ceil((1 << 20) / line.length) }, () => line))
  const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: srv.port, method: 'POST', path: '/write', headers: { 'Transfer-Encoding': 'chunked' } }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (c: Buffer) => parts.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(parts).toString() }))
    })
    req.on('error', reject)
    let sent = 0
    const pump = (): void => {
      while (sent < 100) {
        sent++
        if (!req.write(chunk)) { req.once('drain', pump); return }
      }
      req.end()
    }
    pump()
  })
  t.equal(status.status, 413)
  t.match(JSON.parse(status.body), { code: 'request too large', message: /request body is too large/ })
  t.equal(await count(db, 'big'), -1)
  // the declared length is refused at once
  const declared = await get(srv.port, '/write', { 'Content-Length': String(200 * 1024 * 1024) }, 'POST').catch(() => ({ status: 413 }))
  t.equal(declared.status, 413)
  t.equal((await get(srv.port, '/write', {}, 'POST', 'big v=1.0\n')).status, 204)
  t.equal(await count(db, 'big'), 1)
})

t.test('a line longer than line.http.max.recv.buffer.size: 413', async (t) => {
  const db = await Database.open()
  const srv = await startServer({ lineProtocol: { maxLineBytes: 1024 } }, db)
  t.teardown(() => srv.close())
  const r = await get(srv.port, '/write', {}, 'POST', `long v="${'x'.repeat(4096)}"\n`)
  t.equal(r.status, 413)
  t.match(JSON.parse(r.body), { code: 'request too large' })
  t.equal((await get(srv.port, '/write', {}, 'POST', 'long v="short"\n')).status, 204)
})
