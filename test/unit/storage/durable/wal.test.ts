/**
 * The WAL frames a large append as a group of several records: a restart replays the group
 * whole, and a group cut short by a crash (its last record missing) is dropped whole and cut
 * from the log, so a batch is never there in part.
 */
import t from 'tap'
import { readFileSync, truncateSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../../../lib/index.js'
// a commit's WAL records are about this size (the store's step), not wal-codec's 16 MiB upper bound
import { STEP_BYTES } from '../../../../lib/storage/durable/store.js'
import { afterReopen, crashCopy, tmpDir } from '../helpers.js'

/** Frame offsets and "more follows" flags of a WAL file. */
function frames(file: string): { at: number; more: boolean; end: number }[] {
  const b = readFileSync(file)
  const out: { at: number; more: boolean; end: number }[] = []
  for (let p = 0; p + 8 <= b.length;) {
    const word = b.readUInt32LE(p)
    const len = word & 0x7fffffff
    out.push({ at: p, more: (word & 0x80000000) !== 0, end: p + 8 + len })
    p += 8 + len
  }
  return out
}

t.test('an append larger than one record is a group of records, replayed whole or not at all', async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ path: dir, checkpointBytes: 1 << 30 })
  await db.query('create table w (ts timestamp, a double, b double, c double) timestamp(ts) partition by day')
  await db.append('w', { ts: new Float64Array([Date.UTC(2023, 11, 31) * 1000]), a: new Float64Array([1]) })
  const n = Math.ceil((STEP_BYTES * 2.5) / 32)
  const ts = new Float64Array(n)
  const a = new Float64Array(n)
  for (let i = 0; i < n; i++) { ts[i] = Date.UTC(2024, 0, 1) * 1000 + i * 1000; a[i] = i }
  await db.append('w', { ts, a, b: a, c: a })
  const whole = crashCopy(t, dir)
  await db.close()
  const f = frames(join(whole, 'wal.log'))
  t.same(f.map((x) => x.more), [false, true, true, false], 'the small append is one record, the large one a group of three')
  t.equal(f.at(-1)!.end, statSync(join(whole, 'wal.log')).size)

  const torn = crashCopy(t, whole)
  truncateSync(join(torn, 'wal.log'), f[2]!.end) // a crash before the group's last record reached the disk
  t.same(await afterReopen(torn, 'select count(), sum(a) from w'), [[[1n, 1]]], 'the cut group is dropped whole')
  t.equal(statSync(join(torn, 'wal.log')).size, 0, 'and cut from the log (the open checkpointed the rest)')

  const sum = (n * (n - 1)) / 2 + 1
  t.same(await afterReopen(whole, 'select count(), sum(a), max(c) from w'), [[[BigInt(n + 1), sum, n - 1]]], 'the whole group is replayed')
})

t.test('an orphan group head left by a crash is not joined to the records written after it', async (t) => {
  const dir = tmpDir(t)
  let db = await Database.open({ path: dir, checkpointBytes: 1 << 30 })
  await db.query('create table w (ts timestamp, a double, b double, c double) timestamp(ts) partition by day')
  const n = Math.ceil((STEP_BYTES * 1.5) / 32)
  const ts = new Float64Array(n)
  const a = new Float64Array(n).fill(1)
  for (let i = 0; i < n; i++) ts[i] = Date.UTC(2024, 0, 1) * 1000 + i * 1000
  await db.append('w', { ts, a, b: a, c: a })
  const copy = crashCopy(t, dir)
  await db.close()
  const f = frames(join(copy, 'wal.log'))
  t.same(f.map((x) => x.more), [true, false])
  truncateSync(join(copy, 'wal.log'), f[0]!.end)
  // without a checkpoint on open the log would keep the orphan head: appends after it must stand alone
  db = await Database.open({ path: copy, checkpointBytes: 1 << 30 })
  t.equal((await db.query('select count() from w')).rows[0]![0], 0n)
  await db.append('w', { ts: new Float64Array([Date.UTC(2024, 0, 2) * 1000]), a: new Float64Array([5]) })
  const again = crashCopy(t, copy)
  await db.close()
  t.same(await afterReopen(again, 'select count(), sum(a) from w'), [[[1n, 5]]])
})
