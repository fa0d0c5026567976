/**
 * ALTER TABLE ADD / RENAME COLUMN on a durable table rewrite no partition (issue #16): the
 * checkpointed partitions keep their directories and files, their `_meta` entries name the files
 * (`PartitionEntry.files`), a column added later reads as null in them, and everything reads the
 * same after a restart. Not timed: what is checked is which files exist and what is read.
 */
import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { STORAGE_STATS } from '../../lib/storage/durable/part-cache.js'
import { packr } from '../../lib/storage/durable/wal-codec.js'
import { tmpDir } from '../unit/storage/helpers.js'
import { getScalar } from '../../lib/types/vector.js'

const tableDir = (root: string): string => join(root, readdirSync(root).find((e) => e.startsWith('t~'))!)
const partitionDirs = (root: string): string[] => readdirSync(tableDir(root)).filter((e) => /^\d{4}-/.test(e)).sort()
const metaOf = (root: string) => packr.unpack(readFileSync(join(tableDir(root), '_meta'))) as { partitions: { name: string; dir: string; files?: string[] }[] }

/** 10 DAY partitions of 100 rows: s SYMBOL (indexed), x LONG, v VARCHAR; checkpointed and reopened (every partition cold). */
async function make(dir: string): Promise<Database> {
  let db = await Database.open({ path: dir })
  await db.query(`CREATE TABLE t AS (SELECT rnd_symbol('a','b','c') s, x, 'v' || x v,
    timestamp_sequence('2024-01-01', 864000000) ts FROM long_sequence(1000)) TIMESTAMP(ts) PARTITION BY DAY`)
  await db.query('ALTER TABLE t ALTER COLUMN s ADD INDEX')
  await db.close()
  db = await Database.open({ path: dir })
  return db
}

const SUMMARY = `SELECT count(), sum(x), count(v), count(s), min(ts), max(ts) FROM t`

t.test('ADD COLUMN reads no partition and writes none; the new column is null in them, also after a restart', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  const before = partitionDirs(dir)
  const summary = (await db.query(SUMMARY)).rows
  const loads = STORAGE_STATS.columnLoads
  await db.query('ALTER TABLE t ADD COLUMN n INT, k SYMBOL, w VARCHAR')
  t.equal(STORAGE_STATS.columnLoads, loads, 'no column file was read')
  t.same(partitionDirs(dir), before, 'no partition directory was written')
  t.same(metaOf(dir).partitions.map((p) => p.files), before.map(() => ['s', 'x', 'v', 'ts']), "_meta names each partition's files")
  const nulls = `SELECT count(), count(n), count(k), count(w), sum(x) FROM t`
  t.same((await db.query(nulls)).rows, [[1000n, 0n, 0n, 0n, 500500n]])
  t.same((await db.query(SUMMARY)).rows, summary)
  // rows appended with the new columns, in order into the last partition and out of order into the first
  await db.query(`INSERT INTO t (s, x, v, ts, n, k, w) VALUES ('a', 2000, 'late', '2024-01-01T00:00:30Z', 7, 'kk', 'ww'), ('b', 3000, 'last', '2024-01-10T23:00:00Z', 8, 'kk', 'w2')`)
  const after = `SELECT count(), count(n), sum(n), count(k), count(w), sum(x) FROM t`
  const want = [[1002n, 2n, 15n, 2n, 2n, 505500n]]
  t.same((await db.query(after)).rows, want)
  t.same((await db.query(`SELECT x, n, k, w FROM t WHERE k = 'kk' ORDER BY ts`)).rows, [[2000n, 7, 'kk', 'ww'], [3000n, 8, 'kk', 'w2']])
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same((await db.query(after)).rows, want, 'the same after a restart')
  t.same((await db.query(`SELECT count() FROM t WHERE s = 'a' AND n IS NULL`)).rows, (await db.query(`SELECT count() - 1 FROM t WHERE s = 'a'`)).rows, 'the index of s answers with the new columns null')
  // the two partitions that took rows were written anew (every column), the others kept their files
  const parts = metaOf(dir).partitions
  t.same(parts.filter((p) => p.files === undefined).map((p) => p.name), ['2024-01-01', '2024-01-10'])
  // DROP COLUMN after ADD COLUMN: no partition written; the partitions without a file for k just list one column less
  const dirs = partitionDirs(dir)
  await db.query('ALTER TABLE t DROP COLUMN k')
  t.same((await db.query(`SELECT count(), count(n), sum(n), count(w), sum(x) FROM t`)).rows, [[1002n, 2n, 15n, 2n, 505500n]])
  t.same(partitionDirs(dir), dirs, 'no partition written')
  const m = metaOf(dir).partitions
  t.same(m.filter((p) => p.files !== undefined).map((p) => p.files), dirs.slice(1, -1).map(() => ['s', 'x', 'v', 'ts']), 'the older partitions still name their four files')
  t.same(m.filter((p) => p.files === undefined).map((p) => p.name), ['2024-01-01', '2024-01-10'], 'the two written with k lost its file')
  t.notOk(readdirSync(join(tableDir(dir), m[0]!.dir)).some((f) => f.startsWith('k.')), "k's files left the partition")
})

t.test('DROP COLUMN reads no partition and writes none; its files leave, a statement already reading still reads them; restart', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  const before = partitionDirs(dir)
  // a statement that started before the drop, one batch read
  const ex = await db.execute(db.parse('SELECT x, v, s FROM t')[0]!, [])
  const it = ex.batches[Symbol.asyncIterator]()
  const first = await it.next()
  t.notOk(first.done)
  const loads = STORAGE_STATS.columnLoads
  await db.query('ALTER TABLE t DROP COLUMN v')
  t.equal(STORAGE_STATS.columnLoads, loads, 'no column file was read')
  t.same(partitionDirs(dir), before, 'no partition directory was written')
  const parts = metaOf(dir).partitions as { dir: string; files?: string[]; dropped?: string[] }[]
  t.ok(parts.every((p) => p.files === undefined && p.dropped?.join() === 'v'), "_meta lists v as dropped, the others' files as the columns")
  t.ok(parts.every((p) => !readdirSync(join(tableDir(dir), p.dir)).some((f) => f.startsWith('v.'))), "v's files left every partition")
  let rows = first.value!.length
  let withV = 0
  const count = (b: { length: number; vectors: readonly { length: number }[] }) => {
    for (let i = 0; i < b.length; i++) if (getScalar(b.vectors[1] as never, i) !== null) withV++
  }
  count(first.value!)
  for (let r = await it.next(); r.done !== true; r = await it.next()) { rows += r.value.length; count(r.value) }
  t.equal(rows, 1000, 'the statement started before reads every row')
  t.equal(withV, 1000, 'and the dropped column, from where its files went')
  await t.rejects(db.query('SELECT v FROM t'), { code: '42703' })
  const summary = `SELECT count(), sum(x), count(s), min(ts), max(ts) FROM t`
  const want = [[1000n, 500500n, 1000n, (await db.query('SELECT min(ts) FROM t')).rows[0]![0], (await db.query('SELECT max(ts) FROM t')).rows[0]![0]]]
  t.same((await db.query(summary)).rows, want)
  // a column of the same name again: null in the old partitions, not the dropped values
  await db.query('ALTER TABLE t ADD COLUMN v VARCHAR')
  t.same((await db.query('SELECT count(v) FROM t')).rows, [[0n]])
  // in order into the last partition: appended in place (the dropped column's files are gone, v has none there)
  await db.query(`INSERT INTO t (s, x, v, ts) VALUES ('b', 5000, 'new', '2024-01-10T23:59:00Z')`)
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same((await db.query('SELECT count(), sum(x), count(v) FROM t')).rows, [[1001n, 505500n, 1n]], 'the same after a restart')
  t.same((await db.query(`SELECT s, count() FROM t WHERE s = 'b' GROUP BY s`)).rows, (await db.query(`SELECT s, count() FROM t WHERE s || '' = 'b' GROUP BY s`)).rows, 'the index of s answers')
  // an indexed SYMBOL column dropped: its index files go too, its dictionary is no longer named
  await db.query('ALTER TABLE t DROP COLUMN s')
  const m = metaOf(dir) as unknown as { symbols: Record<string, string>; partitions: { dir: string }[] }
  t.same(m.symbols, {}, 'no dictionary named')
  t.ok(m.partitions.every((p) => !readdirSync(join(tableDir(dir), p.dir)).some((f) => f.startsWith('s.'))), "s's data and index files left")
  t.same((await db.query('SELECT count(), sum(x) FROM t')).rows, [[1001n, 505500n]])
})

t.test("files a crash left of a dropped column are removed on open, never a live column's", async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  const part = metaOf(dir).partitions[3]!.dir
  const saved = readFileSync(join(tableDir(dir), part, 'v.d'))
  await db.query('ALTER TABLE t DROP COLUMN v')
  await db.query('ALTER TABLE t RENAME COLUMN x TO v')
  await db.close()
  // as if killed between the `_meta` replace and the files' leaving
  const { writeFileSync } = await import('node:fs')
  writeFileSync(join(tableDir(dir), part, 'v.d'), saved)
  writeFileSync(join(tableDir(dir), part, 'v.o'), saved)
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  const files = readdirSync(join(tableDir(dir), part)).sort()
  t.notOk(files.includes('v.d') || files.includes('v.o'), 'the leftovers are gone')
  t.ok(files.includes('x.d'), 'the renamed column keeps its file')
  t.same((await db.query('SELECT count(), sum(v) FROM t')).rows, [[1000n, 500500n]])
})

t.test('rows in order into the last partition after ADD and RENAME COLUMN are appended in place: the new columns get files of their own', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  const before = partitionDirs(dir)
  const last = before[before.length - 1]!
  const sizeOf = (f: string) => readFileSync(join(tableDir(dir), last, f)).length
  const x0 = sizeOf('x.d')
  await db.query('ALTER TABLE t RENAME COLUMN x TO id')
  await db.query('ALTER TABLE t ADD COLUMN n INT, x VARCHAR')
  await db.query(`INSERT INTO t (s, id, v, ts, n, x) VALUES ('a', 2000, 'late', '2024-01-10T23:50:00Z', 7, 'xx'), ('b', 3000, 'last', '2024-01-10T23:55:00Z', 8, null)`)
  await db.close()
  t.same(partitionDirs(dir), before, 'no partition directory written anew')
  const e = metaOf(dir).partitions.find((p) => p.dir === last)!
  const txn = (metaOf(dir) as unknown as { txn: number }).txn
  // x names the renamed column's file: the new column x gets a file of another name
  t.same(e.files, ['s', 'x', 'v', 'ts', 'n', `x.t${txn}`])
  t.equal(sizeOf('x.d'), x0 + 16, 'two rows appended to the renamed column')
  t.equal(sizeOf('n.d'), 2 * 4, 'the added column: the new rows only (the 100 rows before are its column top)')
  t.same((e as { tops?: Record<string, number> }).tops, { n: 100, [`x.t${txn}`]: 100 })
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same((await db.query(`SELECT count(), sum(id), count(n), sum(n), count(x) FROM t`)).rows, [[1002n, 505500n, 2n, 15n, 1n]])
  t.same((await db.query(`SELECT id, n, x FROM t WHERE ts > '2024-01-10T23:46:00Z' ORDER BY ts`)).rows.slice(-2), [[2000n, 7, 'xx'], [3000n, 8, null]])
  t.same((await db.query(`SELECT count() FROM t WHERE s = 'a' AND ts IN '2024-01-10'`)).rows, (await db.query(`SELECT count() FROM t WHERE s || '' = 'a' AND ts IN '2024-01-10'`)).rows, 'the index of s follows')
})

t.test('RENAME COLUMN keeps the files under the old name: values, symbol dictionary and index follow, also after a restart', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  const before = partitionDirs(dir)
  const byS = `SELECT s, count(), sum(x) FROM t GROUP BY s ORDER BY s`
  const want = (await db.query(byS)).rows
  const one = (await db.query(`SELECT count(), sum(x) FROM t WHERE s = 'b'`)).rows
  const loads = STORAGE_STATS.columnLoads
  await db.query('ALTER TABLE t RENAME COLUMN s TO sym')
  await db.query('ALTER TABLE t RENAME COLUMN x TO id')
  t.equal(STORAGE_STATS.columnLoads, loads, 'no column file was read')
  t.same(partitionDirs(dir), before, 'no partition directory was written')
  const renamed = `SELECT sym, count(), sum(id) FROM t GROUP BY sym ORDER BY sym`
  t.same((await db.query(renamed)).rows, want)
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same((await db.query(renamed)).rows, want, 'the same after a restart (dictionary found under the new name)')
  t.same((await db.query(`SELECT count(), sum(id) FROM t WHERE sym = 'b'`)).rows, one, 'the indexed column answers')
  t.same((await db.query(`SELECT count(), sum(id) FROM t WHERE ts IN '2024-01-03T01' AND sym = 'b'`)).rows, (await db.query(`SELECT count(), sum(x) FROM (SELECT sym, id x, ts FROM t) WHERE ts IN '2024-01-03T01' AND sym = 'b'`)).rows, 'a range read of part of a partition')
  // rename back and forth, then new rows: the names in _meta follow
  await db.query('ALTER TABLE t RENAME COLUMN sym TO s')
  t.ok(metaOf(dir).partitions.every((p) => p.files === undefined || p.files[0] === 's'))
  await db.query(`INSERT INTO t (s, id, v, ts) VALUES ('z', 1, 'one', '2024-01-10T23:59:00Z')`)
  await db.close()
  db = await Database.open({ path: dir })
  t.same((await db.query(`SELECT s, count(), sum(id) FROM t GROUP BY s ORDER BY s`)).rows, [...want, ['z', 1n, 1n]])
})

t.test('a damaged files list in _meta makes the table unreadable (XX001), not misread', async (t) => {
  const dir = tmpDir(t)
  const db = await make(dir)
  await db.query('ALTER TABLE t RENAME COLUMN x TO id')
  await db.close()
  const file = join(tableDir(dir), '_meta')
  const m = packr.unpack(readFileSync(file)) as { partitions: { files?: unknown }[] }
  m.partitions[0]!.files = ['s', '../../etc', 'v', 'ts']
  const { writeFileSync } = await import('node:fs')
  writeFileSync(file, packr.pack(m))
  const again = await Database.open({ path: dir })
  t.teardown(() => again.close())
  await t.rejects(again.query('SELECT count() FROM t'), { code: 'XX001' })
})
