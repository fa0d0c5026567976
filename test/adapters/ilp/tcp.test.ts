import t from 'tap'
import net from 'node:net'
import { generateKeyPairSync } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { Sender } from '@questdb/nodejs-client'
import { Database } from '../../../lib/index.js'
import { createIlpTcpServer, parseAuthDb, type IlpTcpLog, type IlpTcpOptions } from '../../../adapters/ilp/index.js'

const rows = async (db: Database, sql: string): Promise<unknown[][]> => (await db.query(sql)).rows
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

async function start(db: Database, options: IlpTcpOptions = {}): Promise<{ port: number; logs: IlpTcpLog[]; close(): Promise<void> }> {
  const logs: IlpTcpLog[] = []
  const server = createIlpTcpServer(db, { commitInterval: 50, onLog: (e) => logs.push(e), ...options })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { port: (server.address() as AddressInfo).port, logs, close: () => new Promise((r) => server.close(() => r())) }
}

/** Waits until `sql`'s first value is `want` (commits are asynchronous), at most 10 s. */
async function until(db: Database, sql: string, want: unknown): Promise<unknown> {
  let got: unknown
  for (let i = 0; i < 200; i++) {
    got = await rows(db, sql).then((r) => r[0]?.[0]).catch(() => undefined)
    if (got === want) return got
    await sleep(50)
  }
  return got
}

/** A raw connection sending `text`, resolved when the server closes it (or after `ms`). */
function raw(port: number, data: string | Buffer, end = true, ms = 5000): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => { s.write(data); if (end) s.end() })
    const timer = setTimeout(() => { s.destroy(); resolve(false) }, ms)
    s.on('close', () => { clearTimeout(timer); resolve(true) })
    s.on('error', () => undefined)
    s.resume() // read (and drop) what the server sends: the challenge
  })
}

t.test('@questdb/nodejs-client over TCP, protocol 1 and 2', async (t) => {
  const db = await Database.open()
  const srv = await start(db)
  t.teardown(() => srv.close())
  for (const pv of ['1', '2']) {
    const sender = await Sender.fromConfig(`tcp::addr=127.0.0.1:${srv.port};protocol_version=${pv}`)
    await sender.connect()
    for (let i = 0; i < 2000; i++) {
      await sender.table(`tcp${pv}`).symbol('sym', `s${i % 4}`).floatColumn('v', i / 4).intColumn('n', i).stringColumn('txt', 'a b').booleanColumn('b', true)
        .at(1_700_000_000_000_000_000n + BigInt(i) * 1000n, 'ns')
    }
    await sender.flush()
    await sender.close()
    t.equal(await until(db, `select count() from tcp${pv}`, 2000n), 2000n, `protocol ${pv}`)
    t.same(await rows(db, `select sum(v), sum(n), count_distinct(sym), min(timestamp) from tcp${pv}`), [[499750, 1999000n, 4n, 1_700_000_000_000_000n]])
  }
})

t.test('a bad line closes the connection, is logged, the lines before it are kept; a partial last line is dropped', async (t) => {
  const db = await Database.open()
  const srv = await start(db)
  t.teardown(() => srv.close())
  t.ok(await raw(srv.port, 'e v=1i 1t\ne v=2i 2t\ne v=x 3t\ne v=4i 4t\n', false), 'closed by the server')
  t.equal(await until(db, 'select count() from e', 2n), 2n)
  t.match(srv.logs, [{ msg: 'ilp line rejected, disconnecting', line: 3, error: /field value is invalid. Field: v; value: x/ }])
  t.ok(await raw(srv.port, 'e v=5i 5t\ne v=6i'))
  t.equal(await until(db, 'select count() from e', 3n), 3n)
  t.match(srv.logs[1], { msg: 'peer disconnected with partial measurement' })
  t.ok(await raw(srv.port, 'e v=1.5 7t\n', false), 'type clash closes too')
  t.ok(await raw(srv.port, '../../x v=1.5\n', false), 'a name escaping the data directory closes too')
  t.equal(await until(db, 'select count() from e', 3n), 3n)
})

t.test('JWK challenge: the client with the right key writes; a wrong key or unknown id is disconnected', async (t) => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const pub = publicKey.export({ format: 'jwk' })
  const d = privateKey.export({ format: 'jwk' }).d!
  const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }).d!
  const authKeys = parseAuthDb(`# comment\n\ntestUser1 ec-p-256-sha256 ${pub.x} ${pub.y}\n`)
  t.throws(() => parseAuthDb(`a ec-p-256-sha256 ${pub.x} ${pub.y}\na ec-p-256-sha256 ${pub.x} ${pub.y}\n`), /duplicate key id/)
  t.throws(() => parseAuthDb('a rsa x y\n'), /expected/)
  const db = await Database.open()
  const srv = await start(db, { authKeys })
  t.teardown(() => srv.close())
  const ok = await Sender.fromConfig(`tcp::addr=127.0.0.1:${srv.port};username=testUser1;token=${d}`)
  await ok.connect()
  await ok.table('auth_t').floatColumn('v', 1).atNow()
  await ok.flush()
  await ok.close()
  t.equal(await until(db, 'select count() from auth_t', 1n), 1n)
  for (const [user, token] of [['testUser1', other], ['nobody', d]] as const) {
    const bad = await Sender.fromConfig(`tcp::addr=127.0.0.1:${srv.port};username=${user};token=${token}`)
    await bad.connect().catch(() => undefined)
    await bad.table('auth_t').floatColumn('v', 2).atNow()
    await bad.flush().catch(() => undefined)
    await bad.close().catch(() => undefined)
  }
  t.ok(await raw(srv.port, 'auth_t v=3.0\n', true), 'no key id line: never authenticated')
  await sleep(300)
  t.same(await rows(db, 'select count() from auth_t'), [[1n]])
  t.match(srv.logs.map((l) => l.why), ['bad signature', 'unknown key id'])
})

t.test('ACL: no keys, no TCP; with keys, the key id\'s user needs the ILP permission and its grants apply', async (t) => {
  const db = await Database.open({ acl: { enabled: true } })
  t.throws(() => createIlpTcpServer(db), /needs line.tcp.auth.db.path/)
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const pub = publicKey.export({ format: 'jwk' })
  const d = privateKey.export({ format: 'jwk' }).d!
  await db.query("create user feeder with password 'pw'")
  await db.query('grant create table to feeder')
  const srv = await start(db, { authKeys: parseAuthDb(`feeder ec-p-256-sha256 ${pub.x} ${pub.y}\n`) })
  t.teardown(() => srv.close())
  const send = async (v: number): Promise<void> => {
    const s = await Sender.fromConfig(`tcp::addr=127.0.0.1:${srv.port};username=feeder;token=${d}`)
    await s.connect().catch(() => undefined)
    await s.table('acl_t').floatColumn('v', v).atNow()
    await s.flush().catch(() => undefined)
    await s.close().catch(() => undefined)
  }
  await send(1)
  await sleep(300)
  t.match(srv.logs.at(-1), { msg: 'ilp authentication failed', why: /ILP permission/ })
  await db.query('grant ilp to feeder')
  await send(2)
  t.equal(await until(db, 'select count() from acl_t', 1n), 1n)
  t.same(await rows(db, 'select v from acl_t'), [[2]])
})
