/**
 * Group commit: writes of a data-directory database are acknowledged only once a WAL sync covers
 * them, and the writes that arrive while a sync runs share the next one. A failed sync drops the
 * writes it covered (never applied, cut from the WAL) and the database goes on serving.
 */
import t from 'tap'
import { Database } from '../../../lib/index.js'
import { afterReopen, tmpDir } from './helpers.js'
import { io } from '../../../lib/storage/durable/io.js'

const tmp = (t: Parameters<typeof tmpDir>[0]): string => tmpDir(t, 'epochdb-group-')

/** Counts the WAL's group syncs while `f` runs. */
async function countingSyncs<T>(f: () => Promise<T>): Promise<{ result: T; syncs: number }> {
  const fsync = io.fsync
  let syncs = 0
  io.fsync = (fd) => { syncs++; return fsync(fd) }
  try {
    return { result: await f(), syncs }
  } finally {
    io.fsync = fsync
  }
}

const at = (i: number): string => new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString()

t.test('concurrent autocommit inserts share syncs, and every acknowledged row survives a reopen', async (t) => {
  const dir = tmp(t)
  const db = await Database.open({ path: dir })
  await db.query('create table g (ts timestamp, v long) timestamp(ts) partition by day')
  const n = 200
  const { syncs } = await countingSyncs(() => Promise.all(Array.from({ length: n }, (_, i) => db.query(`insert into g values ('${at(i)}', ${i})`, [], { session: db.session() }))))
  t.ok(syncs >= 1 && syncs < n / 4, `${n} concurrent inserts took ${syncs} syncs`)
  t.same((await db.query('select count(), sum(v) from g')).rows, [[n, (n * (n - 1)) / 2]])
  await db.close()
  t.same(await afterReopen(dir, 'select count(), sum(v) from g'), [[[n, (n * (n - 1)) / 2]]])
})

t.test('deferred writes are invisible until synced, then visible; a later statement syncs them first', async (t) => {
  const dir = tmp(t)
  const db = await Database.open({ path: dir })
  await db.query('create table d (ts timestamp, v long) timestamp(ts)')
  const s = db.session()
  for (let i = 0; i < 5; i++) await db.query(`insert into d values ('${at(i)}', ${i})`, [], { session: s, deferSync: true })
  t.equal(db.hasUnsyncedWrites, true, 'five writes wait for a sync')
  // another session's query does not wait for them: they are not acknowledged (committed) yet
  t.same((await db.query('select count() from d')).rows, [[0]])
  t.equal(db.hasUnsyncedWrites, true)
  // the session's own query runs after its writes are committed (read your writes)
  t.same((await db.query('select count() from d', [], { session: s })).rows, [[5]])
  t.equal(db.hasUnsyncedWrites, false)
  await db.query(`insert into d values ('${at(9)}', 9)`, [], { session: s, deferSync: true })
  await db.sync()
  t.equal(db.hasUnsyncedWrites, false)
  await db.close()
  t.same(await afterReopen(dir, 'select count(), sum(v) from d'), [[[6, 19]]])
})

t.test('a failed sync fails every write it covered, applies none of them, and the next writes commit', async (t) => {
  const dir = tmp(t)
  const db = await Database.open({ path: dir })
  await db.query('create table f (ts timestamp, v long) timestamp(ts)')
  await db.query(`insert into f values ('${at(0)}', 0)`)
  const fsync = io.fsync
  io.fsync = () => Promise.reject(Object.assign(new Error('io'), { code: 'EIO' }))
  const results = await Promise.allSettled([1, 2, 3].map((i) => db.query(`insert into f values ('${at(i)}', ${i})`, [], { session: db.session() })))
  io.fsync = fsync
  t.same(results.map((r) => r.status), ['rejected', 'rejected', 'rejected'])
  for (const r of results) if (r.status === 'rejected') t.match(r.reason, { code: '58030', message: /sync failed/ })
  t.same((await db.query('select v from f')).rows, [[0]], 'none of the failed writes is visible')
  await db.query(`insert into f values ('${at(4)}', 4)`)
  t.same((await db.query('select v from f')).rows, [[0], [4]])
  await db.close()
  t.same(await afterReopen(dir, 'select v from f'), [[[0], [4]]], 'the failed writes are not in the WAL either')
})

t.test('a write that fails (ENOSPC) when the group is written fails its statement and loses nothing else', async (t) => {
  const dir = tmp(t)
  const db = await Database.open({ path: dir })
  await db.query('create table e (ts timestamp, v long) timestamp(ts)')
  await db.query(`insert into e values ('${at(0)}', 0)`)
  // every write fails: plain and gathering (the WAL's) alike
  const { writeSync: write, writevSync: writev } = io
  io.writeSync = () => { throw Object.assign(new Error('no space'), { code: 'ENOSPC' }) }
  io.writevSync = () => { throw Object.assign(new Error('no space'), { code: 'ENOSPC' }) }
  await t.rejects(db.query(`insert into e values ('${at(1)}', 1)`), { code: '53100', message: /ENOSPC/ })
  io.writeSync = write
  io.writevSync = writev
  await db.query(`insert into e values ('${at(2)}', 2)`)
  await db.close()
  t.same(await afterReopen(dir, 'select v from e'), [[[0], [2]]])
})

t.test('a prepared INSERT picks up a changed table shape (cached parameter types are per schema version)', async (t) => {
  const db = await Database.open()
  await db.query('create table c (ts timestamp, v int) timestamp(ts)')
  const ins = db.prepare('insert into c values ($1, $2)')
  await ins.query([at(0), '7'])
  await db.query('drop table c')
  await db.query('create table c (ts timestamp, v double) timestamp(ts)')
  await ins.query([at(1), '2.5'])
  t.same((await db.query('select v from c')).rows, [[2.5]])
  await db.close()
})

t.test('a transaction commits its buffered INSERTs per table in order, as one append per run, and they survive a reopen', async (t) => {
  const dir = tmp(t)
  const db = await Database.open({ path: dir })
  await db.query('create table a (ts timestamp, k symbol, v long) timestamp(ts) partition by day wal dedup upsert keys(ts, k)')
  await db.query('create table b (ts timestamp, v long) timestamp(ts)')
  const s = db.session()
  const run = (sql: string): Promise<unknown> => db.query(sql, [], { session: s })
  await run('begin')
  for (let i = 0; i < 300; i++) await run(`insert into a values ('${at(299 - i)}', 'k${i % 3}', ${i})`)
  await run(`insert into b values ('${at(5)}', 5)`)
  for (let i = 0; i < 300; i++) await run(`insert into a values ('${at(i)}', 'k${(299 - i) % 3}', ${1000 + i})`)
  t.same((await db.query('select count() from a')).rows, [[0]], 'nothing is visible before COMMIT')
  await run('commit')
  const expect = [[300, 1000 * 300 + (299 * 300) / 2]]
  t.same((await db.query('select count(), sum(v) from a')).rows, expect, 'later rows replaced the earlier ones with the same key')
  t.same((await db.query('select v from b')).rows, [[5]])
  await db.close()
  t.same(await afterReopen(dir, 'select count(), sum(v) from a', 'select k, v from a limit 2'), [expect, [['k2', 1000], ['k1', 1001]]],
    'in timestamp order, the later value of each key')
})

t.test('an append staged while DDL waits for the previous group commits in the shape it was made for', async (t) => {
  const dir = tmp(t)
  const db = await Database.open({ path: dir })
  await db.query('create table r (ts timestamp, v long) timestamp(ts)')
  await db.query(`insert into r values ('${at(0)}', 0)`, [], { session: db.session(), deferSync: true })
  // ALTER first waits for the pending group; this INSERT is staged meanwhile, with two columns
  const alter = db.query('alter table r add column w double')
  const insert = db.query(`insert into r values ('${at(1)}', 1)`, [], { session: db.session(), deferSync: true })
  await alter
  await insert
  await db.sync()
  t.same((await db.query('select v, w from r')).rows, [[0n, null], [1n, null]])
  await db.close()
  t.same(await afterReopen(dir, 'select v, w from r'), [[[0n, null], [1n, null]]])
})
