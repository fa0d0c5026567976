/**
 * A full disk, injected through the storage file-system layer (`injectFault` in io.ts): opening
 * a data directory whose WAL needs a checkpoint succeeds (reads work, writes answer 53100),
 * closing is clean, and once space is back the rows are all there and writes work. Over REST a
 * disk-full write is HTTP 507 and other server-side faults are 5xx.
 */
import t from 'tap'
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { Database, SqlError } from '../../lib/index.js'
import { injectFault } from '../../lib/storage/durable/io.js'
import { statusOf } from '../../adapters/http/http-error.js'
import { tmpDir } from '../unit/storage/helpers.js'
import { exec, startServer } from '../adapters/http/helpers.js'

/** Every write that needs space fails with ENOSPC, as on a full disk (`mkdir -p` of an existing directory needs none). */
const fillDisk = (): (() => void) => injectFault(['writeSync', 'mkdirSync', 'fsync', 'fsyncSync'], 'ENOSPC', (arg) => typeof arg !== 'string' || !existsSync(arg))

/** A data directory as a crash leaves it: rows acknowledged in the WAL, no checkpoint. */
async function crashedDir(t: Parameters<typeof tmpDir>[0]): Promise<string> {
  const dir = tmpDir(t, 'epochdb-full-')
  const db = await Database.open({ path: dir })
  await db.query('create table t (ts timestamp, v long) timestamp(ts) partition by day')
  await db.query("insert into t values ('2024-01-01', 1), ('2024-01-02', 2)")
  await db.query("insert into t values ('2024-01-03', 3)")
  const copy = tmpDir(t, 'epochdb-full-copy-')
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true })
  for (const e of readdirSync(copy)) if (e.startsWith('_lock')) rmSync(join(copy, e))
  await db.close()
  return copy
}

t.test('opening on a full disk succeeds: reads work, writes answer 53100, close is clean', async (t) => {
  const dir = await crashedDir(t)
  const restore = fillDisk()
  let db: Database
  try {
    db = await Database.open({ path: dir })
    t.same((await db.query('select v from t')).rows, [[1n], [2n], [3n]], 'the WAL is replayed: reads see every acknowledged row')
    const err = await db.query("insert into t values ('2024-01-04', 4)").catch((e: unknown) => e)
    t.match(err, { code: '53100', message: /disk is full \[ENOSPC\]/ })
    t.ok(err instanceof SqlError)
    await t.rejects(db.append('t', { ts: new Float64Array([Date.UTC(2024, 0, 5) * 1000]), v: [5] }), { code: '53100' })
    t.same((await db.query('select count() from t')).rows, [[3n]], 'a failed write changed nothing')
    await t.resolves(db.close(), 'close on a full disk is clean (the WAL keeps the rows)')
  } finally {
    restore()
  }
  // space is back
  db = await Database.open({ path: dir })
  t.same((await db.query('select v from t')).rows, [[1n], [2n], [3n]])
  await db.query("insert into t values ('2024-01-04', 4)")
  await db.close()
  db = await Database.open({ path: dir })
  t.same((await db.query('select count() from t')).rows, [[4n]])
  await db.close()
})

t.test('space freed while open: writes work again without a restart', async (t) => {
  const dir = await crashedDir(t)
  const restore = fillDisk()
  const db = await Database.open({ path: dir })
  await t.rejects(db.query("insert into t values ('2024-01-04', 4)"), { code: '53100' })
  restore()
  await db.query("insert into t values ('2024-01-04', 4)")
  t.same((await db.query('select count() from t')).rows, [[4n]])
  await db.close()
})

t.test('REST: a disk-full write is 507 with QuestDB error JSON; reads stay 200', async (t) => {
  const dir = await crashedDir(t)
  const restore = fillDisk()
  t.teardown(restore)
  const db = await Database.open({ path: dir })
  const srv = await startServer({}, db)
  t.teardown(async () => { await srv.close(); await db.close() })
  const w = await exec(srv.port, "insert into t values ('2024-01-04', 4)")
  t.equal(w.status, 507)
  t.match(JSON.parse(w.body), { query: "insert into t values ('2024-01-04', 4)", error: /disk is full/, position: 0 })
  const r = await exec(srv.port, 'select count() from t')
  t.equal(r.status, 200)
  t.equal((await exec(srv.port, 'selec 1')).status, 400, 'a user error stays 400')
})

t.test('HTTP status of server-side faults', async (t) => {
  const e = (code: string): SqlError => new SqlError(code as SqlError['code'], 'x')
  t.equal(statusOf(e('53100')), 507, 'disk full')
  t.equal(statusOf(e('57P01')), 503, 'shutting down')
  t.equal(statusOf(e('53200')), 503, 'out of memory')
  t.equal(statusOf(e('58030')), 500, 'I/O error')
  t.equal(statusOf(e('XX000')), 500, 'internal')
  t.equal(statusOf(e('XX001')), 500, 'corruption')
  t.equal(statusOf(e('42601')), 400, 'syntax error')
  t.equal(statusOf(e('22P02')), 400, 'bad value')
  t.equal(statusOf(e('42501')), 403, 'permission')
})
