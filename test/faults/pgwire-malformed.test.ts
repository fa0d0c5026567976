/**
 * Malformed frontend messages get an ErrorResponse with the right SQLSTATE before anything else
 * happens, then the connection closes where PostgreSQL 15 closes (broken framing, unknown type)
 * and goes on where it goes on (FunctionCall, COPY messages outside COPY, fields that do not
 * parse). A length prefix claiming a huge message is refused from the header, without buffering
 * it. Another client is served throughout.
 */
import t, { type Test } from 'tap'
import pg from 'pg'
import type { DatabaseError as ErrorMessage } from 'pg-protocol/dist/messages.js'
import { pgConfig, startServer } from '../adapters/pgwire/helpers.js'
import { WireClient, serialize } from '../adapters/pgwire/wire-client.js'

t.setTimeout(60_000)
const srv = await startServer({ maxMessageSize: 1024 * 1024, startupTimeoutMs: 2000 })
t.teardown(() => srv.close())

// a bystander keeps querying while the bad clients come and go
const bystander = new pg.Client(pgConfig(srv.port))
await bystander.connect()
t.teardown(() => bystander.end())

const int32 = (n: number): Buffer => { const b = Buffer.alloc(4); b.writeInt32BE(n); return b }
const msg = (type: string, body: Buffer = Buffer.alloc(0)): Buffer => Buffer.concat([Buffer.from(type), int32(body.length + 4), body])

/** Sends `bytes` on a logged-in connection, then a Sync; the messages it got, and whether the server closed it. */
async function fire(t: Test, bytes: Buffer): Promise<{ messages: { name: string; code?: string; severity?: string; message?: string }[]; closed: boolean; works: boolean }> {
  const c = await WireClient.login(srv.port)
  c.send(bytes)
  c.send(serialize.sync())
  await Promise.race([c.until('readyForQuery', 3000), c.closedByServer(3000)])
  const messages = c.messages.splice(0).map((m) => m as unknown as { name: string; code?: string; severity?: string; message?: string })
  let works = false
  if (!c.closed) {
    c.send(serialize.query('select 1'))
    works = (await c.take('readyForQuery')).some((m) => m.name === 'dataRow')
  } else {
    await c.closedByServer(3000)
  }
  const closed = c.closed
  c.end()
  const r = await bystander.query('select 1 as x')
  t.same(r.rows, [{ x: 1 }], 'the bystander is served')
  return { messages, closed, works }
}

const goesOn: [string, Buffer, string][] = [
  ['FunctionCall', msg('F', Buffer.concat([int32(1), Buffer.alloc(6)])), '0A000'],
  ['CopyData outside COPY', msg('d', Buffer.from('1\t2\n')), '08P01'],
  ['CopyDone outside COPY', msg('c'), '08P01'],
  ['CopyFail outside COPY', msg('f', Buffer.from('oops\0')), '08P01'],
  ['Query without its NUL', msg('Q', Buffer.from('select 1')), '08P01'],
  ['Bind cut short', msg('B', Buffer.from([0, 0, 0, 5])), '08P01'],
  ['Parse with a lying parameter count', msg('P', Buffer.concat([Buffer.from('\0select 1\0'), Buffer.from([0x7f, 0xff])])), '08P01'],
  ['Describe of an unknown target', msg('D', Buffer.from('Z\0')), '08P01'],
  ['Execute with trailing bytes', msg('E', Buffer.concat([Buffer.from('\0'), int32(0), Buffer.from([1, 2])])), '08P01'],
]
for (const [name, bytes, code] of goesOn) {
  t.test(`${name}: ERROR ${code}, and the connection goes on`, async (t) => {
    const r = await fire(t, bytes)
    t.equal(r.messages[0]?.name, 'error', 'an ErrorResponse comes first')
    t.equal(r.messages[0]?.code, code)
    t.equal(r.messages[0]?.severity, 'ERROR')
    t.notOk(r.closed)
    t.ok(r.works, 'the next query is answered')
  })
}

const closes: [string, Buffer, string][] = [
  ['an unknown message type', msg('z'), '08P01'],
  ['a password after login', msg('p', Buffer.from('quest\0')), '08P01'],
  ['a length below 4', Buffer.from([0x51, 0, 0, 0, 3]), '08P01'],
  ['a negative length', Buffer.from([0x51, 0xff, 0xff, 0xff, 0xff]), '08P01'],
  ['a Query claiming 1 GB', Buffer.concat([Buffer.from('Q'), int32(1 << 30), Buffer.from('select')]), '54000'],
  ['a Sync claiming 64 KiB', Buffer.concat([Buffer.from('S'), int32(65536)]), '08P01'],
]
for (const [name, bytes, code] of closes) {
  t.test(`${name}: FATAL ${code}, then the connection closes`, async (t) => {
    const r = await fire(t, bytes)
    t.equal(r.messages[0]?.name, 'error', 'an ErrorResponse comes first')
    t.equal(r.messages[0]?.code, code)
    t.equal(r.messages[0]?.severity, 'FATAL')
    t.ok(r.closed)
  })
}

t.test('a huge claimed message is not buffered: refused at its header, before the body arrives', async (t) => {
  const c = await WireClient.login(srv.port)
  c.send(Buffer.concat([Buffer.from('Q'), int32(512 * 1024 * 1024)]))
  const e = await c.until('error', 3000) as ErrorMessage
  t.equal(e.code, '54000')
  t.match(e.message, /exceeds the limit of 1048576 bytes/)
  t.ok(await c.closedByServer(3000))
})

/** A startup-phase packet: what the server answers, and that it closes. */
async function startup(bytes: Buffer): Promise<{ code: string | undefined; closed: boolean }> {
  const c = await WireClient.open(srv.port)
  c.send(bytes)
  const e = await c.until('error', 3000) as ErrorMessage | undefined
  const closed = await c.closedByServer(3000)
  c.end()
  return { code: e?.code, closed }
}

t.test('startup packets: an absurd length, a short one, an unknown protocol', async (t) => {
  t.same(await startup(Buffer.concat([int32(1 << 30), int32(196608)])), { code: '08P01', closed: true }, '1 GB startup packet')
  t.same(await startup(Buffer.concat([int32(20000), int32(196608)])), { code: '08P01', closed: true }, 'over the 10 000-byte limit')
  t.same(await startup(Buffer.concat([int32(4), int32(196608)])), { code: '08P01', closed: true }, 'too short')
  t.same(await startup(Buffer.concat([int32(8), int32(9 << 16)])), { code: '0A000', closed: true }, 'protocol 9.0')
})

t.test('before login only a password message is read', async (t) => {
  const c = await WireClient.open(srv.port)
  c.send(serialize.startup({ user: 'admin', database: 'qdb' }))
  await c.until('authenticationCleartextPassword')
  c.send(Buffer.concat([Buffer.from('Q'), int32(60 * 1024 * 1024)])) // an unauthenticated 60 MB query
  const e = await c.until('error', 3000) as ErrorMessage
  t.equal(e.code, '08P01')
  t.equal(e.message, 'expected password response, got message type 81')
  t.ok(await c.closedByServer(3000))
})

t.test('node pg still works after all of the above', async (t) => {
  // a real client after all of the above: parameters, an error, and again
  const client = new pg.Client(pgConfig(srv.port))
  await client.connect()
  t.same((await client.query('select $1::int as v', [7])).rows, [{ v: 7 }])
  await t.rejects(client.query('select * from no_such_table'), { code: '42P01' })
  t.same((await client.query('select 2 as v')).rows, [{ v: 2 }])
  await client.end()
})
