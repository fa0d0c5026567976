/**
 * Column tops (QuestDB's word): rows appended in place to a partition written before ADD COLUMN
 * write only their own values to the new column's file; the partition's rows before them are
 * recorded in its `_meta` entry as the column's top (`PartitionEntry.tops`) and read as null, with
 * no null bytes on disk. Every reader honours it: whole columns, interval (range) reads, an
 * out-of-order merge that cuts the partition, UPDATE, RENAME / DROP COLUMN, CONVERT PARTITION and
 * a restart. Checked in bytes on disk and answers, not time.
 */
import t from 'tap'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { packr } from '../../lib/storage/durable/wal-codec.js'
import { tmpDir } from '../unit/storage/helpers.js'

interface Entry { name: string; dir: string; rows: number; files?: string[]; tops?: Record<string, number> }
const tableDir = (root: string): string => join(root, readdirSync(root).find((e) => e.startsWith('t~'))!)
const entries = (root: string): Entry[] => (packr.unpack(readFileSync(join(tableDir(root), '_meta'))) as { partitions: Entry[] }).partitions
const size = (root: string, e: Entry, file: string): number => statSync(join(tableDir(root), e.dir, file)).size

/** 2 DAY partitions of 500 rows (x LONG), checkpointed and reopened; then ADD COLUMN n LONG, s VARCHAR, k SYMBOL (indexed). */
async function make(dir: string): Promise<Database> {
  let db = await Database.open({ path: dir })
  await db.query(`CREATE TABLE t AS (SELECT x, timestamp_sequence('2024-01-01', 172800000) ts FROM long_sequence(1000)) TIMESTAMP(ts) PARTITION BY DAY`)
  await db.close()
  db = await Database.open({ path: dir })
  await db.query('ALTER TABLE t ADD COLUMN n LONG, s VARCHAR, k SYMBOL INDEX')
  return db
}

const ROWS = `INSERT INTO t (x, ts, n, s, k) VALUES
  (2001, '2024-01-02T23:59:00Z', 1, 'one', 'a'), (2002, '2024-01-02T23:59:30Z', 2, 'two', 'b')`
const SUMMARY = 'SELECT count(), count(n), sum(n), count(s), count(k), sum(x) FROM t'
const WANT = [[1002n, 2n, 3n, 2n, 2n, 500500n + 4003n]]

/** Reopens the database (everything read from the files again). */
async function reopen(db: Database, dir: string): Promise<Database> {
  await db.close()
  return Database.open({ path: dir })
}

t.test('an in-order append after ADD COLUMN writes the new columns\' rows only and records the top', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  await db.query(ROWS)
  db = await reopen(db, dir)
  t.teardown(() => db.close())
  const last = entries(dir).at(-1)!
  t.equal(last.name, '2024-01-02')
  t.same(last.tops, { n: 500, s: 500, k: 500 }, 'the new columns start after the 500 rows before them')
  t.equal(size(dir, last, 'n.d'), 2 * 8, 'the LONG column file holds the 2 new rows, no nulls')
  t.equal(size(dir, last, 's.o'), 2 * 8, 'the VARCHAR offsets hold the 2 new rows')
  t.equal(size(dir, last, 'k.d'), 2 * 4, 'the SYMBOL keys hold the 2 new rows')
  t.equal(size(dir, last, 'x.d'), 502 * 8, 'an old column holds every row')
  t.equal(entries(dir)[0]!.tops, undefined, 'the partition with no new row is as it was')
  t.same((await db.query(SUMMARY)).rows, WANT)
  t.same((await db.query("SELECT x, n, s, k FROM t WHERE ts >= '2024-01-02T23:54' ORDER BY ts")).rows,
    [[999n, null, null, null], [1000n, null, null, null], [2001n, 1n, 'one', 'a'], [2002n, 2n, 'two', 'b']], 'rows either side of the top')
  // an interval read of an hour across the top, and one inside it (range reads fall back to whole columns on a top column)
  t.same((await db.query("SELECT count(), count(n), sum(x) FROM t WHERE ts IN '2024-01-02T23'")).rows, [[22n, 2n, 19810n + 4003n]])
  t.same((await db.query("SELECT count(), count(n) FROM t WHERE ts IN '2024-01-02T10'")).rows, [[21n, 0n]])
  t.same((await db.query("SELECT x FROM t WHERE k = 'b'")).rows, [[2002n]], 'the symbol index over the top')
  t.same((await db.query('SELECT count() FROM t WHERE k IS NULL')).rows, [[1000n]])
})

t.test('appends after a top, a late row that cuts the partition, UPDATE, RENAME and DROP COLUMN, restarts', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  await db.query(ROWS)
  db = await reopen(db, dir)
  // a second in-order append: after the rows the top column's file holds
  await db.query("INSERT INTO t (x, ts, n, s, k) VALUES (2003, '2024-01-02T23:59:50Z', 3, 'three', 'a')")
  db = await reopen(db, dir)
  let last = entries(dir).at(-1)!
  t.same(last.tops, { n: 500, s: 500, k: 500 })
  t.equal(size(dir, last, 'n.d'), 3 * 8)
  const want3 = [[1003n, 3n, 6n, 3n, 3n, 500500n + 6006n]]
  t.same((await db.query(SUMMARY)).rows, want3)
  // a late row before the top: the partition is cut there, its tail (nulls, then the file's rows) merged
  await db.query("INSERT INTO t (x, ts, n, s, k) VALUES (3000, '2024-01-02T12:00:00Z', 9, 'late', 'c')")
  const want4 = [[1004n, 4n, 15n, 4n, 4n, 500500n + 9006n]]
  t.same((await db.query(SUMMARY)).rows, want4)
  db = await reopen(db, dir)
  t.same((await db.query(SUMMARY)).rows, want4, 'after the merge\'s checkpoint')
  t.same((await db.query("SELECT x, n, s, k FROM t WHERE n IS NOT NULL ORDER BY ts")).rows,
    [[3000n, 9n, 'late', 'c'], [2001n, 1n, 'one', 'a'], [2002n, 2n, 'two', 'b'], [2003n, 3n, 'three', 'a']])
  // UPDATE a top column: its new file holds every row, the top goes with the file it replaced
  await db.query('UPDATE t SET n = n + 100 WHERE n IS NOT NULL')
  db = await reopen(db, dir)
  t.same((await db.query('SELECT count(n), sum(n) FROM t')).rows, [[4n, 415n]])
  for (const e of entries(dir)) for (const f of Object.keys(e.tops ?? {})) t.ok((e.files ?? ['x', 'ts', 'n', 's', 'k']).includes(f), `${e.dir}: top ${f} names one of its files`)
  // RENAME keeps the files (and their tops); DROP COLUMN leaves the rest readable
  await db.query('ALTER TABLE t RENAME COLUMN s TO s2')
  await db.query('ALTER TABLE t DROP COLUMN k')
  db = await reopen(db, dir)
  t.teardown(() => db.close())
  t.same((await db.query('SELECT count(), count(n), sum(n), count(s2), sum(x) FROM t')).rows, [[1004n, 4n, 415n, 4n, 500500n + 9006n]])
  last = entries(dir).find((e) => e.tops !== undefined)!
  t.notOk('k' in (last.tops ?? {}), 'the dropped column\'s top went with it')
  t.same((await db.query("SELECT s2 FROM t WHERE s2 IS NOT NULL ORDER BY ts")).rows, [['late'], ['one'], ['two'], ['three']])
})

t.test('CONVERT PARTITION TO PARQUET and back reads the top as nulls', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  await db.query(ROWS)
  db = await reopen(db, dir)
  t.teardown(() => db.close())
  await db.query("ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2024-01-02'")
  t.same((await db.query(SUMMARY)).rows, WANT)
  await db.query("ALTER TABLE t CONVERT PARTITION TO NATIVE LIST '2024-01-02'")
  t.same((await db.query(SUMMARY)).rows, WANT)
  t.equal(entries(dir).at(-1)!.tops, undefined, 'written anew: every row in the files')
})

t.test('UPDATE of a column added after others writes no nulls for the columns before it', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  await db.query('ALTER TABLE t ADD COLUMN a DOUBLE[], w INT')
  db = await reopen(db, dir)
  t.teardown(() => db.close())
  await db.query("UPDATE t SET w = 7 WHERE ts IN '2024-01-01'")
  const first = entries(dir)[0]!
  const byCol = new Map(['x', 'ts', 'n', 's', 'k', 'a', 'w'].map((c, i) => [c, first.files![i]!]))
  for (const c of ['n', 's', 'k', 'a']) {
    t.equal(first.tops?.[byCol.get(c)!], 500, `${c}: an empty file, its top every row`)
    t.equal(size(dir, first, `${byCol.get(c)!}.d`), 0, `${c}: no null written`)
  }
  t.equal(size(dir, first, `${byCol.get('w')!}.d`), 500 * 4, 'the updated column holds every row')
  const want = [[1000n, 0n, 0n, 0n, 0n, 500n, 3500n]]
  const q = 'SELECT count(), count(n), count(s), count(k), count(a), count(w), sum(w) FROM t'
  t.same((await db.query(q)).rows, want)
  db = await reopen(db, dir)
  t.same((await db.query(q)).rows, want, 'after a restart')
  // rows appended later in place, and another UPDATE of a topped column
  await db.query("UPDATE t SET n = 1 WHERE x = 3")
  t.same((await db.query('SELECT count(n), sum(n), count(s) FROM t')).rows, [[1n, 1n, 0n]])
})

t.test('rows still in memory at ADD COLUMN are written first: the new column starts after them', async (t) => {
  const dir = tmpDir(t)
  let db = await Database.open({ path: dir })
  await db.query(`CREATE TABLE t AS (SELECT x, timestamp_sequence('2024-01-01', 172800000) ts FROM long_sequence(1000)) TIMESTAMP(ts) PARTITION BY DAY`)
  db = await reopen(db, dir)
  // in memory, not yet in a partition's files
  await db.query("INSERT INTO t (x, ts) VALUES (2000, '2024-01-02T23:58:00Z')")
  await db.query('ALTER TABLE t ADD COLUMN n LONG')
  await db.query("INSERT INTO t (x, ts, n) VALUES (2001, '2024-01-02T23:59:00Z', 5)")
  db = await reopen(db, dir)
  t.teardown(() => db.close())
  const last = entries(dir).at(-1)!
  t.same(last.tops, { n: 501 }, 'the top covers the rows that were in memory too')
  t.equal(size(dir, last, 'n.d'), 8)
  t.same((await db.query('SELECT count(), count(n), sum(n), sum(x) FROM t')).rows, [[1002n, 1n, 5n, 500500n + 4001n]])
})

t.test('damaged column tops in _meta make the table unreadable (XX001), not misread', async (t) => {
  for (const bad of [{ n: -1 }, { n: 1.5 }, { n: 'x' }, 7]) {
    const dir = tmpDir(t)
    let db = await make(dir)
    await db.query(ROWS)
    await db.close()
    const file = join(tableDir(dir), '_meta')
    const m = packr.unpack(readFileSync(file)) as { partitions: { tops?: unknown }[] }
    m.partitions[m.partitions.length - 1]!.tops = bad
    writeFileSync(file, packr.pack(m))
    db = await Database.open({ path: dir })
    await t.rejects(db.query('SELECT count() FROM t'), { code: 'XX001' }, JSON.stringify(bad))
    await db.close()
  }
})
