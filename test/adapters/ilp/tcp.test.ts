import t from 'tap'
import net from 'node:net'
import { generateKeyPairSync } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { Sender } from '@questdb/nodejs-client'
import { Database } from '../../../lib/index.js'
import { createIlpTcpServer, parseAuthDb, type IlpTcpLog, type IlpTcpOptions } from '../../../adapters/ilp/index.js'

const rows = async (db: Database, sql: string): Promise<unknown[][]> => (await db.query(sql)).rows
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
/**
 * `p`, or `fallback` when it has not settled within `ms`; the guard's timer is cleared once the
 * race is decided (a pending timer would keep the test process alive after its last assertion).
 */
function within<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const guard = new Promise<T>((r) => { timer = setTimeout(() => r(fallback), ms) })
  return Promise.race([p, guard]).finally(() => clearTimeout(timer))
}

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
    // protocol 2 sends `at(..., 'ns')` with an n suffix: the table is created with TIMESTAMP_NS (QuestDB 9.1.1+)
    t.same(await rows(db, `select sum(v), sum(n), count_distinct(sym), min(timestamp) from tcp${pv}`), [[499750, 1999000n, 4n, pv === '1' ? 1_700_000_000_000_000n : 1_700_000_000_000_000_000n]])
    t.same(await rows(db, `select type from table_columns('tcp${pv}') where designated`), [[pv === '1' ? 'TIMESTAMP' : 'TIMESTAMP_NS']])
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

t.test('ACL on: the JWK token made by SQL logs in (needs ILP, an enabled account); no key file needed', async (t) => {
  const db = await Database.open({ acl: { enabled: true, passwordHashIterations: 1 } })
  t.teardown(() => db.close())
  await db.query("create user feeder with password 'pw'")
  await db.query('grant create table to feeder')
  const [, , , d] = (await db.query('alter user feeder create token type jwk')).rows[0] as string[]
  await db.query('create user nokey')
  await db.query('grant ilp to nokey')
  const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }).d!
  const srv = await start(db)
  t.teardown(() => srv.close())
  /** One connection of the real client writing one row; resolves when it is closed. */
  const send = async (user: string, token: string, v: number): Promise<void> => {
    const s = await Sender.fromConfig(`tcp::addr=127.0.0.1:${srv.port};username=${user};token=${token}`)
    await s.connect().catch(() => undefined)
    await s.table('acl_t').floatColumn('v', v).atNow()
    await s.flush().catch(() => undefined)
    await s.close().catch(() => undefined)
  }
  const why = (): unknown => srv.logs.filter((l) => l.msg === 'ilp authentication failed').at(-1)?.why
  await send('feeder', d!, 1)
  await sleep(300)
  t.equal(why(), 'no ILP permission', 'a user without ILP')
  await db.query('grant ilp to feeder')
  await send('feeder', d!, 2)
  t.equal(await until(db, 'select count() from acl_t', 1n), 1n, 'the token written by SQL writes')
  const failures = srv.logs.filter((l) => l.msg === 'ilp authentication failed').length
  await send('feeder', other, 3)
  await send('FEEDER', other, 4)
  await send('nobody', d!, 5)
  await send('nokey', d!, 6)
  t.ok(await raw(srv.port, 'acl_t v=7.0\n', true), 'no key id line: connection closed')
  await db.query('alter user feeder disable')
  await send('feeder', d!, 8)
  await sleep(300)
  // the raw connection never sent a signature line: closed when it ended, nothing to log
  t.same(srv.logs.filter((l) => l.msg === 'ilp authentication failed').slice(failures).map((l) => [l.keyId, l.why]),
    [['feeder', 'FEEDER', 'nobody', 'nokey', 'feeder'].map((k) => [k, 'unknown or disabled account, no JWK token or bad signature'])].flat(),
    'wrong key (any case of the name), unknown user, no token, disabled')
  t.same(await rows(db, 'select v from acl_t'), [[2]], 'nothing of a refused connection written')
  await db.query('alter user feeder enable')
  await send('feeder', d!, 9)
  t.equal(await until(db, 'select count() from acl_t', 2n), 2n, 'the server stays up')
  t.same(await rows(db, 'select v from acl_t order by v'), [[2], [9]])
})

t.test('ACL on and a key file: the ACL is used, the file ignored (logged); a service account writes', async (t) => {
  const db = await Database.open({ acl: { enabled: true, passwordHashIterations: 1 } })
  t.teardown(() => db.close())
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const pub = publicKey.export({ format: 'jwk' })
  const fileD = privateKey.export({ format: 'jwk' }).d!
  await db.query('create service account ingest')
  await db.query('grant ilp, create table to ingest')
  const [, , , d] = (await db.query('alter service account ingest create token type jwk')).rows[0] as string[]
  const srv = await start(db, { authKeys: parseAuthDb(`ingest ec-p-256-sha256 ${pub.x} ${pub.y}\n`) })
  t.teardown(() => srv.close())
  t.match(srv.logs[0], { msg: /line.tcp.auth.db.path ignored/ })
  for (const token of [fileD, d!]) {
    const s = await Sender.fromConfig(`tcp::addr=127.0.0.1:${srv.port};username=ingest;token=${token}`)
    await s.connect().catch(() => undefined)
    await s.table('sa_t').floatColumn('v', token === d ? 2 : 1).atNow()
    await s.flush().catch(() => undefined)
    await s.close().catch(() => undefined)
  }
  t.equal(await until(db, 'select count() from sa_t', 1n), 1n)
  await sleep(300)
  t.same(await rows(db, 'select v from sa_t'), [[2]], 'the key file\'s key is refused, the ACL token writes')
})

t.test('close() commits the complete lines open connections hold (commit interval not reached); a partial line is dropped', { timeout: 30_000 }, async (t) => {
  const db = await Database.open()
  const logs: IlpTcpLog[] = []
  const server = createIlpTcpServer(db, { commitInterval: 600_000, onLog: (e) => logs.push(e) })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as AddressInfo).port
  const lines = (table: string, n: number): string => Array.from({ length: n }, (_, i) => `${table},k=a v=${i}i ${1_700_000_000_000_000 + i}t\n`).join('')
  // two connections left open; the second ends mid-line
  const a = net.connect(port, '127.0.0.1')
  const b = net.connect(port, '127.0.0.1')
  for (const s of [a, b]) { s.on('error', () => undefined); await new Promise((r) => s.once('connect', r)) }
  const aClosed = new Promise((r) => a.once('close', r))
  a.write(lines('held_a', 1500))
  b.write(lines('held_b', 20) + 'held_b,k=a v=99')
  await sleep(300) // the server has read the bytes; nothing is committed before the interval
  t.same(await rows(db, "select count() from tables() where table_name = 'held_a'"), [[0n]], 'nothing committed yet')
  await new Promise<void>((resolve, reject) => server.close((e) => e === undefined ? resolve() : reject(e)))
  t.same(await rows(db, 'select count(), sum(v) from held_a'), [[1500n, 1_124_250n]], 'connection a: every line')
  t.same(await rows(db, 'select count(), sum(v) from held_b'), [[20n, 190n]], 'connection b: the complete lines')
  t.ok(logs.some((l) => /partial measurement dropped/.test(l.msg)), 'the partial line is logged')
  t.equal(await within(aClosed.then(() => true), 5000, false), true, 'the connections are ended')
  b.destroy()
})

t.test('a fast stream is committed every COMMIT_BATCH_ROWS rows, before the commit interval or maxUncommittedRows, on an open connection', { timeout: 60_000 }, async (t) => {
  const { COMMIT_BATCH_ROWS } = await import('../../../adapters/ilp/tcp-server.js')
  const db = await Database.open()
  // an interval that never comes during the test, and the default 500k rows
  const srv = await start(db, { commitInterval: 600_000 })
  t.teardown(() => srv.close())
  const n = COMMIT_BATCH_ROWS + 5000
  const body = Buffer.from(Array.from({ length: n }, (_, i) => `batch,s=a v=${i}i ${1_000_000 + i}t\n`).join(''))
  const socket = net.connect(srv.port, '127.0.0.1')
  t.teardown(() => socket.destroy())
  await new Promise((r) => socket.once('connect', r))
  socket.write(body)
  // the connection stays open: rows become visible only through a batch commit
  let seen = 0n
  for (let i = 0; i < 400 && seen < BigInt(COMMIT_BATCH_ROWS); i++) {
    seen = await rows(db, 'select count() from batch').then((r) => r[0]![0] as bigint).catch(() => 0n)
    if (seen < BigInt(COMMIT_BATCH_ROWS)) await sleep(50)
  }
  t.ok(seen >= BigInt(COMMIT_BATCH_ROWS), `at least one batch committed with the connection open (${seen} rows)`)
  socket.end()
  t.equal(await until(db, 'select count() from batch', BigInt(n)), BigInt(n), 'the rest at the disconnect')
  t.same(await rows(db, 'select min(v), max(v), count_distinct(v) from batch'), [[0n, BigInt(n - 1), BigInt(n)]], 'each row once, in order')
})

t.test('a fast stream behind slow commits: no batch holds more than COMMIT_BATCH_ROWS and one chunk of rows', { timeout: 60_000 }, async (t) => {
  const { COMMIT_BATCH_ROWS } = await import('../../../adapters/ilp/tcp-server.js')
  const db = await Database.open()
  // every commit the endpoint makes is recorded (the rows it takes), and ends 300 ms late: a slow
  // durable commit, while the client keeps writing
  const taken: number[] = []
  const lineWriter = db.lineWriter.bind(db)
  db.lineWriter = (options) => {
    const w = lineWriter(options)
    const commit = w.commit.bind(w)
    w.commit = async () => {
      taken.push(w.pendingRows)
      const done = await commit()
      await sleep(300)
      return done
    }
    return w
  }
  const srv = await start(db, { commitInterval: 600_000 })
  t.teardown(() => srv.close())
  const n = 5 * COMMIT_BATCH_ROWS
  const body = Buffer.from(Array.from({ length: n }, (_, i) => `slow,s=a v=${i}i ${1_000_000 + i}t\n`).join(''))
  t.ok(await raw(srv.port, body, true, 30_000), 'the server ended the connection after the last commit')
  t.equal(await until(db, 'select count() from slow', BigInt(n)), BigInt(n))
  t.same(await rows(db, 'select min(v), max(v), count_distinct(v) from slow'), [[0n, BigInt(n - 1), BigInt(n)]], 'each row once, in order')
  // a 64 KiB chunk holds about 2,300 of these lines
  const most = Math.max(...taken)
  t.ok(most <= COMMIT_BATCH_ROWS + 4000, `largest batch ${most} rows (batches: ${taken.join(', ')})`)
  t.ok(taken.length >= 5, 'the stream went in several batches')
})
