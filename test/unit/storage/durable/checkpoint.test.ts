/**
 * Checkpoints append rows that continue the last partition in order to its column files in
 * place (the partition is not rewritten each checkpoint), never changing a byte `_meta` already
 * refers to: bytes past the recorded end (an interrupted append) are ignored and cut, and a
 * statement that started before the append, or before a later rewrite of the partition, reads
 * the rows it started with.
 */
import t from 'tap'
import { appendFileSync, readdirSync, statSync, truncateSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../../../lib/index.js'
import { afterReopen, checkpointed, tmpDir } from '../helpers.js'

const BASE = Date.UTC(2024, 0, 1) * 1000
const DDL = 'create table t (ts timestamp, s symbol, v double, n long, note string) timestamp(ts) partition by day'

/** Rows [from, from + n): one a minute from BASE. */
function batch(from: number, n: number) {
  const ts = new Float64Array(n)
  const v = new Float64Array(n)
  const nn = new Float64Array(n)
  const s: string[] = []
  const note: (string | null)[] = []
  for (let i = 0; i < n; i++) {
    const k = from + i
    ts[i] = BASE + k * 60_000_000
    v[i] = k / 2
    nn[i] = k * 1000
    s.push(`k${k % 5}`)
    note.push(k % 4 === 0 ? null : `note ${k}`)
  }
  return { ts, v, n: nn, s, note }
}

const partDirs = (dir: string) => {
  const tdir = join(dir, readdirSync(dir).find((e) => e.startsWith('t~'))!)
  return { tdir, parts: readdirSync(tdir).filter((e) => /^\d{4}-\d\d-\d\d\./.test(e)).sort() }
}

const SUMMARY = 'select count(), sum(v), sum(n), count(note), count_distinct(s), min(ts), max(ts) from t'

t.test('rows continuing the last partition are appended to its files across checkpoints, not rewritten', async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ path: dir, checkpointBytes: 1 })
  await db.query(DDL)
  await db.append('t', batch(0, 100))
  await checkpointed(dir) // the checkpoint the commit started (in the background) has ended
  const first = partDirs(dir).parts
  t.same(first.length, 1)
  const size0 = statSync(join(partDirs(dir).tdir, first[0]!, 'v.d')).size
  for (let k = 1; k < 6; k++) await db.append('t', batch(k * 100, 100))
  await checkpointed(dir)
  t.same(partDirs(dir).parts, first, 'the partition keeps its directory')
  t.equal(statSync(join(partDirs(dir).tdir, first[0]!, 'v.d')).size, size0 * 6, 'its files grew by the appended rows')
  const expect = (await db.query(SUMMARY)).rows
  t.equal(expect[0]![0], 600n)
  t.same((await db.query("select * from t where ts between '2024-01-01T05:00:00' and '2024-01-01T05:01:00'")).rows.map((r) => r[4]), [null, 'note 301'])
  await db.close()
  t.same(await afterReopen(dir, SUMMARY, 'select note from t limit 598, 600'), [expect, [['note 598'], ['note 599']]])
})

t.test('bytes past the recorded end of the files (an interrupted append) are ignored, then cut by the next append', async (t) => {
  const dir = tmpDir(t)
  let db = await Database.open({ path: dir })
  await db.query(DDL)
  await db.append('t', batch(0, 50))
  await db.close()
  // a crash between writing appended rows and replacing _meta leaves longer files
  const { tdir, parts } = partDirs(dir)
  for (const f of readdirSync(join(tdir, parts[0]!))) appendFileSync(join(tdir, parts[0]!, f), Buffer.alloc(37, 0xab))
  db = await Database.open({ path: dir })
  const before = (await db.query(SUMMARY)).rows
  t.equal(before[0]![0], 50n, 'the recorded rows read as before')
  t.same((await db.query('select note from t limit 48, 50')).rows, [[null], ['note 49']], 'var-size values end where the rows do')
  await db.append('t', batch(50, 50))
  await db.close()
  t.same(partDirs(dir).parts, parts, 'appended in place')
  t.equal(statSync(join(tdir, parts[0]!, 'v.d')).size, 100 * 8, 'the garbage was cut before the append')
  const [summary, notes] = await afterReopen(dir, SUMMARY, 'select note from t where ts >= \'2024-01-01T00:48:00\' limit 4')
  t.equal(summary![0]![0], 100n)
  t.equal(summary![0]![3], 75n, 'every fourth note is null')
  t.same(notes, [[null], ['note 49'], ['note 50'], ['note 51']])
})

t.test('a statement that started before an append in place and a rewrite of the partition reads the rows it started with', async (t) => {
  const dir = tmpDir(t)
  let db = await Database.open({ path: dir })
  await db.query(DDL)
  await db.append('t', batch(0, 3000)) // two days: 2024-01-01 (1440 rows) and 2024-01-02
  await db.close()
  db = await Database.open({ path: dir, checkpointBytes: 1 })
  const expected = (await db.query('select * from t')).rows
  await db.close()
  db = await Database.open({ path: dir, checkpointBytes: 1 })
  const it = db.stream('select * from t')[Symbol.asyncIterator]()
  const rows: unknown[][] = []
  const first = await it.next()
  t.notOk(first.done)
  for (let i = 0; i < first.value!.length; i++) rows.push(first.value!.row(i))
  // an in-order append to the last partition (in place), then an out-of-order one into it (a rewrite)
  await db.append('t', batch(3000, 10))
  await checkpointed(dir)
  const late = batch(2000, 1)
  late.ts[0]! += 30_000_000
  await db.append('t', late)
  await checkpointed(dir)
  for (let r = await it.next(); !r.done; r = await it.next()) for (let i = 0; i < r.value.length; i++) rows.push(r.value.row(i))
  t.same(rows, expected, 'the statement saw its snapshot')
  t.equal((await db.query('select count() from t')).rows[0]![0], 3011n)
  await db.close()
  t.same(await afterReopen(dir, 'select count(), sum(v) from t'), [[[3011n, expected.reduce((a, r) => a + (r[2] as number), 0) + (3000 + 3001 + 3002 + 3003 + 3004 + 3005 + 3006 + 3007 + 3008 + 3009) / 2 + 1000]]])
})

t.test('a column file shorter than its recorded rows is not extended by an append: the checkpoint fails, nothing is lost', async (t) => {
  const dir = tmpDir(t)
  let db = await Database.open({ path: dir })
  await db.query(DDL)
  await db.append('t', batch(0, 50))
  await db.close()
  const { tdir, parts } = partDirs(dir)
  truncateSync(join(tdir, parts[0]!, 'v.d'), 100)
  db = await Database.open({ path: dir })
  await db.query('create table ok (x int)')
  await db.query('insert into ok values (1)')
  await db.append('t', batch(50, 10)) // acknowledged: in the WAL
  await t.resolves(db.close(), 'the closing checkpoint marks the table damaged and goes on')
  t.equal(statSync(join(tdir, parts[0]!, 'v.d')).size, 100, 'the damaged file was not padded')
  t.ok(statSync(join(dir, 'wal.log')).size > 0, 'the appended rows stay in the WAL')
  db = await Database.open({ path: dir })
  await t.rejects(db.query('select sum(v) from t'), { code: 'XX001' }, 'the damaged partition reads as corrupted')
  t.same((await db.query('select x from ok')).rows, [[1]], 'other tables are intact')
  await db.close()
})
