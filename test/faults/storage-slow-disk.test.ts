/**
 * A background checkpoint never blocks the event loop on the disk: every file it writes (column
 * files, dictionaries, `_meta`, `_db`, directories) is synced on the thread pool, and the WAL is
 * emptied by putting a new empty file in its place, not by a truncate (which frees the old
 * records' blocks on the calling thread: ~75 ms per 100 MB on this machine's disk). Checked by
 * counting the blocking calls (`fsyncSync`, `ftruncateSync`) made while it runs: none. The
 * WAL's replacement is crash safe (the name is synced before a record is acknowledged) and a
 * replacement a crash cut short is cleaned up at the next open. Bounded: a few thousand rows.
 */
import t from 'tap'
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { io, injectFault } from '../../lib/storage/durable/io.js'
import { afterReopen, checkpointed, tmpDir } from '../unit/storage/helpers.js'

const HOUR = 3_600_000_000
const T0 = Date.UTC(2024, 0, 1) * 1000
const ROWS = 6_000

function rowsFrom(from: number): Record<string, unknown[]> {
  const ts = Array.from({ length: ROWS }, (_, i) => T0 + Math.floor((from + i) * (12 * HOUR) / ROWS))
  const v = Array.from({ length: ROWS }, (_, i) => from + i)
  return { ts, v, s: v.map((i) => `s${i % 9}`) }
}

/** Counts the blocking `fsyncSync`/`ftruncateSync` calls made until the returned function is called (which restores them). */
function countBlocking(): () => { fsyncSync: number; ftruncateSync: number } {
  const counts = { fsyncSync: 0, ftruncateSync: 0 }
  const { fsyncSync, ftruncateSync } = io
  io.fsyncSync = (fd) => { counts.fsyncSync++; fsyncSync(fd) }
  io.ftruncateSync = (fd, len) => { counts.ftruncateSync++; ftruncateSync(fd, len) }
  return () => { io.fsyncSync = fsyncSync; io.ftruncateSync = ftruncateSync; return counts }
}

t.test('a background checkpoint (new partitions, an appended one, dictionaries, _meta, _db, the WAL emptied) makes no blocking sync or truncate', async (t) => {
  const dir = tmpDir(t, 'epochdb-slow-disk-')
  const db = await Database.open({ path: dir, checkpointBytes: 1 })
  await db.query('create table t (ts timestamp, v long, s symbol) timestamp(ts) partition by hour')
  await db.append('t', rowsFrom(0))
  await checkpointed(dir)
  const walIno = statSync(join(dir, 'wal.log')).ino
  // the next append continues the last partition (appended in place) and adds new ones
  const stop = countBlocking()
  let counts
  try {
    await db.append('t', rowsFrom(ROWS))
    await checkpointed(dir)
    // the job's last step (the directory's sync) ends on a later turn
    await new Promise((r) => setTimeout(r, 200))
  } finally {
    counts = stop()
  }
  t.same(counts, { fsyncSync: 0, ftruncateSync: 0 }, 'no blocking sync or truncate while the checkpoint ran')
  t.not(statSync(join(dir, 'wal.log')).ino, walIno, 'the WAL was replaced by a new file, not truncated')
  t.notOk(existsSync(join(dir, 'wal.log.new')), 'no replacement left behind')
  const all = BigInt(2 * ROWS)
  t.same((await db.query('select count(), sum(v), count_distinct(s) from t')).rows, [[all, all * (all - 1n) / 2n, 9n]])
  // the log goes on in the new file: a commit after it is durable
  await db.append('t', { ts: [T0 + 13 * HOUR], v: [1], s: ['z'] })
  t.ok(statSync(join(dir, 'wal.log')).size > 0, 'the next commit went to the new WAL file')
  await db.close()
  t.same(await afterReopen(dir, 'select count(), sum(v), count_distinct(s) from t'), [[[all + 1n, all * (all - 1n) / 2n + 1n, 10n]]])
})

t.test('a background checkpoint after out-of-order rows removes the partitions it replaced off the main thread', async (t) => {
  const dir = tmpDir(t, 'epochdb-slow-disk-o3-')
  const db = await Database.open({ path: dir, checkpointBytes: 1 })
  await db.query('create table t (ts timestamp, v long, s symbol) timestamp(ts) partition by hour')
  await db.append('t', rowsFrom(0))
  await checkpointed(dir)
  const tableDir = readdirSync(dir).find((e) => e.startsWith('t~'))!
  const before = readdirSync(join(dir, tableDir)).filter((e) => /^\d{4}-/.test(e))
  // rows older than the newest, in every partition, each a microsecond before an existing one (so none stays
  // where it is: a partition's rows up to the oldest new one would, file-part.ts `cut`): each is rewritten to a new directory
  const { rmSync } = io
  let blocking = 0
  // (a removal of a path that does not exist costs nothing: writing a partition clears its directory's name first)
  io.rmSync = (path) => { if (existsSync(path)) blocking++; rmSync(path) }
  try {
    await db.append('t', { ...rowsFrom(0), ts: (rowsFrom(0).ts as number[]).map((x) => x - 1), v: rowsFrom(0).v!.map(() => 1) })
    await checkpointed(dir)
    await new Promise((r) => setTimeout(r, 300))
  } finally {
    io.rmSync = rmSync
  }
  t.equal(blocking, 0, 'no blocking removal while the checkpoint ran')
  const after = readdirSync(join(dir, tableDir)).filter((e) => /^\d{4}-/.test(e))
  t.same(after.filter((e) => before.includes(e)), [], `the replaced partition directories are gone (${before.length} before, ${after.length} now)`)
  t.same((await db.query('select count() from t')).rows, [[BigInt(2 * ROWS)]])
  await db.close()
  t.same(await afterReopen(dir, 'select count(), sum(v) from t'), [[[BigInt(2 * ROWS), BigInt(ROWS * (ROWS - 1) / 2 + ROWS)]]])
})

t.test('a failed directory sync after the WAL was replaced is redone before the next commit is acknowledged', async (t) => {
  const dir = tmpDir(t, 'epochdb-slow-disk-dir-')
  const db = await Database.open({ path: dir, checkpointBytes: 1 })
  await db.query('create table t (ts timestamp, v long, s symbol) timestamp(ts) partition by hour')
  // from the WAL's replacement on, the data directory's descriptors are noted and their syncs fail
  const dirFds = new Set<number>()
  let replaced = false
  const { openSync, renameSync } = io
  io.renameSync = (from, to) => { renameSync(from, to); if (to === join(dir, 'wal.log')) replaced = true }
  io.openSync = (path, flags) => { const fd = openSync(path, flags); if (replaced && path === dir) dirFds.add(fd); return fd }
  const restore = injectFault(['fsync', 'fsyncSync'], 'EIO', (fd) => dirFds.has(fd as number))
  try {
    await db.append('t', rowsFrom(0))
    await checkpointed(dir)
    t.ok(replaced, 'the checkpoint replaced the WAL')
    await new Promise((r) => setTimeout(r, 200))
    const failed = await db.append('t', { ts: [T0], v: [-1], s: ['x'] }).then(() => undefined, (e: unknown) => e as { code?: string })
    t.equal(failed?.code, '58030', 'a commit is not acknowledged while the WAL file\'s name is not durable')
  } finally {
    restore()
    io.openSync = openSync
    io.renameSync = renameSync
  }
  // the directory can be synced again: the next commit syncs it, then its record
  const order: string[] = []
  const fsync = io.fsync
  io.fsync = (fd) => { order.push(dirFds.has(fd) ? 'dir' : 'wal'); return fsync(fd) }
  io.openSync = (path, flags) => { const fd = openSync(path, flags); if (path === dir) dirFds.add(fd); return fd }
  try {
    await db.append('t', { ts: [T0], v: [-2], s: ['y'] })
  } finally {
    io.fsync = fsync
    io.openSync = openSync
  }
  t.same(order, ['dir', 'wal'], 'the directory is synced before the record')
  await db.close()
  t.same(await afterReopen(dir, 'select count(), sum(v) from t where v < 0', 'select count() from t'), [[[1n, -2n]], [[BigInt(ROWS + 1)]]], 'the acknowledged row is there, the refused one is not')
})

t.test('a replacement of the WAL left behind (wal.log.new, a crash before its rename) is removed at open', async (t) => {
  const dir = tmpDir(t, 'epochdb-slow-disk-left-')
  const db = await Database.open({ path: dir })
  await db.query('create table t (ts timestamp, v long, s symbol) timestamp(ts) partition by hour')
  await db.append('t', rowsFrom(0))
  await db.close()
  writeFileSync(join(dir, 'wal.log.new'), '')
  t.same(await afterReopen(dir, 'select count() from t'), [[[BigInt(ROWS)]]])
  t.notOk(existsSync(join(dir, 'wal.log.new')), 'the leftover is removed')
})
