/**
 * pgwire over a data-directory database: pipelined writes are acknowledged only after the group
 * commit that makes them durable (one WAL sync per pipelined batch, not per statement), a later
 * statement in the same pipeline reads them, and a failed sync closes the writing connection with
 * FATAL 58030 while every other client keeps being served.
 */
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { Database } from '../../../lib/index.js'
import { io } from '../../../lib/storage/durable/io.js'
import { pgConfig, startServer, type TestServer } from './helpers.js'
import { WireClient, serialize } from './wire-client.js'

const dir = mkdtempSync(join(tmpdir(), 'epochdb-pgwire-durable-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

let srv: TestServer
t.before(async () => {
  srv = await startServer({}, await Database.open({ path: dir }))
  await srv.db.query('create table p (ts timestamp, sym symbol, v double) timestamp(ts) partition by day')
})

const at = (i: number): Date => new Date(Date.UTC(2024, 0, 1) + i)

t.test('pipelined prepared inserts share WAL syncs, read their own writes, and survive a reopen', async (t) => {
  const client = new pg.Client({ ...pgConfig(srv.port), pipeline: true } as pg.ClientConfig)
  await client.connect()
  const fsync = io.fsync
  let syncs = 0
  io.fsync = (fd) => { syncs++; return fsync(fd) }
  const n = 2000
  const inserts: Promise<unknown>[] = []
  for (let i = 0; i < n; i++) inserts.push(client.query({ name: 'ins', text: 'insert into p values ($1, $2, $3)', values: [at(i), `s${i % 7}`, i / 2] }))
  const read = client.query('select count(*) n from p')
  await Promise.all(inserts)
  io.fsync = fsync
  t.same((await read).rows, [{ n: String(n) }], 'a query pipelined after the inserts sees all of them')
  t.ok(syncs >= 1 && syncs < n / 10, `${n} pipelined inserts took ${syncs} WAL syncs`)
  await client.end()
})

t.test('a failed sync closes the writing connection with 58030; others keep working', async (t) => {
  const writer = new pg.Client(pgConfig(srv.port))
  const reader = new pg.Client(pgConfig(srv.port))
  await writer.connect()
  await reader.connect()
  writer.on('error', () => undefined)
  const before = (await reader.query('select count(*) n from p')).rows[0].n
  const fsync = io.fsync
  io.fsync = () => Promise.reject(Object.assign(new Error('io'), { code: 'EIO' }))
  const err = await writer.query('insert into p values ($1, $2, $3)', [at(10_000), 'x', 1]).then(() => undefined, (e: unknown) => e)
  io.fsync = fsync
  t.match(err, { code: '58030', severity: 'FATAL', message: /sync failed/ })
  t.same((await reader.query('select count(*) n from p')).rows, [{ n: before }], 'the failed insert is not visible')
  await reader.query('insert into p values ($1, $2, $3)', [at(10_001), 'y', 2])
  t.same((await reader.query('select count(*) n from p')).rows, [{ n: String(Number(before) + 1) }])
  await reader.end()
  await writer.end().catch(() => undefined)
})

t.test('an INSERT whose connection closes before its answer still commits', async (t) => {
  const w = await WireClient.login(srv.port)
  const before = (await srv.db.query('select count() from p')).rows[0]![0] as bigint
  // the INSERT and a Terminate in one packet: the answer is held back, then the client is gone
  w.send(Buffer.concat([serialize.query("insert into p values ('2024-02-01', 'z', 3)"), serialize.end()]))
  t.equal(await w.closedByServer(), true)
  for (let n = 0; n < 100 && srv.db.hasUnsyncedWrites; n++) await new Promise((r) => setTimeout(r, 10))
  t.equal(srv.db.hasUnsyncedWrites, false, 'committed without waiting for another statement')
  const after = (await srv.db.query('select count() from p')).rows[0]![0] as bigint
  t.equal(after, before + 1n)
})

t.test('reopen: exactly the acknowledged rows are there', async (t) => {
  await srv.close()
  await srv.db.close()
  const db = await Database.open({ path: dir })
  t.same((await db.query('select count(), max(v) from p')).rows, [[2002, 999.5]])
  await db.close()
})
