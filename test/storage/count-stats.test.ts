/**
 * Unkeyed `count()` / `count(x)` from the non-null counts a checkpoint records per partition
 * (`PartitionEntry.nonNull`, lib/exec/operators/count-from-stats.ts): after every kind of change
 * to the partitions (appends in place, out-of-order rows, UPDATE, ADD / DROP / RENAME COLUMN,
 * Parquet partitions, rows not yet checkpointed, in-memory tables) the counts equal those of the
 * same query over a scan that cannot use them (an interval over every row reads the columns).
 */
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pack, unpack } from 'msgpackr'
import { Database } from '../../lib/index.js'
import { COUNT_STATS } from '../../lib/exec/operators/count-from-stats.js'
import { tmpDir } from '../unit/storage/helpers.js'
import { type PartitionEntry, nonNullOf } from '../../lib/storage/durable/table-files.js'

const HOUR = 3_600_000_000
const T0 = Date.UTC(2024, 0, 1) * 1000

/** `n` rows an hour apart from hour `from`, each column null on its own rhythm. */
function rows(from: number, n: number, seed = 0): Record<string, unknown[]> {
  const h = Array.from({ length: n }, (_, i) => from + i)
  return {
    ts: h.map((x) => T0 + x * HOUR),
    v: h.map((x) => ((x + seed) % 3 === 0 ? null : x)),
    d: h.map((x) => ((x + seed) % 4 === 1 ? null : x / 8)),
    s: h.map((x) => ((x + seed) % 5 === 2 ? null : `s${x}`)),
    y: h.map((x) => ((x + seed) % 7 === 3 ? null : `k${x % 4}`)),
    b: h.map((x) => x % 2 === 0),
  }
}

const DDL = 'CREATE TABLE t (ts TIMESTAMP, v LONG, d DOUBLE, s STRING, y SYMBOL, b BOOLEAN) TIMESTAMP(ts) PARTITION BY DAY'

/** The counts by the statistics path and by a scan that reads the columns, and what the statistics path did. */
async function counts(db: Database, cols: string[]): Promise<{ fast: unknown[]; read: unknown[]; known: number; readParts: number }> {
  const list = ['count()', ...cols.map((c) => `count(${c})`)].join(', ')
  const k0 = COUNT_STATS.partsKnown, r0 = COUNT_STATS.partsRead
  const fast = (await db.query(`SELECT ${list} FROM t`)).rows[0]!
  const known = COUNT_STATS.partsKnown - k0, readParts = COUNT_STATS.partsRead - r0
  const read = (await db.query(`SELECT ${list} FROM t WHERE ts >= '1970-01-01'`)).rows[0]!
  return { fast, read, known, readParts }
}

/** The `_meta` file of table `name` under data directory `dir`. */
function metaFile(dir: string, name: string): string {
  return join(dir, readdirSync(dir).find((e) => e.startsWith(`${name}~`))!, '_meta')
}

t.test('checkpointed partitions answer count(x) from their recorded counts, through every change to them', async (t) => {
  const dir = tmpDir(t, 'epochdb-count-stats-')
  const cols = ['v', 'd', 's', 'y', 'b']
  let db = await Database.open({ path: dir })
  await db.query(DDL)
  await db.append('t', rows(0, 72))
  await db.close()
  db = await Database.open({ path: dir })
  let c = await counts(db, cols)
  t.same(c.fast, c.read, 'three written days')
  t.same(c.fast, [72, 48, 54, 58, 62, 72])
  t.same([c.known, c.readParts], [3, 0], 'every day known, none read')

  // rows not yet checkpointed: the in-memory rows are counted from their buffers (few: at once), the days known
  await db.append('t', rows(72, 10))
  c = await counts(db, cols)
  t.same(c.fast, c.read, 'with rows not checkpointed')
  t.same([c.known, c.readParts], [4, 0], 'three days and the in-memory rows known')
  // more rows appended to the same buffers: only those are counted; a count that changed shows
  await db.append('t', rows(82, 5, 2))
  c = await counts(db, cols)
  t.same(c.fast, c.read, 'after a second append in memory')
  t.same(c.fast[0], 87)
  await db.close()

  // the last day's rows appended in place: its counts are the old ones plus the appended rows'
  db = await Database.open({ path: dir })
  c = await counts(db, cols)
  t.same(c.fast, c.read, 'after an append in place')
  t.same(c.readParts, 0, 'the appended day still known')

  // late rows into a checkpointed day: its first rows stay as a part of their own (fewer rows than counted: read)
  const late = rows(30, 3, 1)
  await db.append('t', { ...late, ts: late['ts']!.map((x) => (x as number) + 1) })
  c = await counts(db, cols)
  t.same(c.fast, c.read, 'late rows in memory')
  await db.close()
  db = await Database.open({ path: dir })
  c = await counts(db, cols)
  t.same(c.fast, c.read, 'late rows checkpointed')

  // UPDATE writes v anew (a file with no count): v is read where it changed, the rest known
  await db.query(`UPDATE t SET v = NULL WHERE ts < '2024-01-01T12:00:00Z'`)
  c = await counts(db, cols)
  t.same(c.fast, c.read, 'after UPDATE')
  await db.close()
  db = await Database.open({ path: dir })
  c = await counts(db, cols)
  t.same(c.fast, c.read, 'after UPDATE, reopened')

  // columns added later: null in every older row (BOOLEAN has no null: false counts)
  await db.query('ALTER TABLE t ADD COLUMN z INT')
  await db.query('ALTER TABLE t ADD COLUMN f BOOLEAN')
  c = await counts(db, [...cols, 'z', 'f'])
  t.same(c.fast, c.read, 'after ADD COLUMN')
  t.same(c.fast.slice(-2), [0, c.fast[0]], 'an added INT counts 0, an added BOOLEAN every row')
  await db.query(`INSERT INTO t (ts, v, z, f) VALUES ('2024-01-04T05:00:00Z', 1, 7, true), ('2024-01-04T06:00:00Z', 2, NULL, false)`)
  await db.close()
  db = await Database.open({ path: dir })
  c = await counts(db, [...cols, 'z', 'f'])
  t.same(c.fast, c.read, 'added columns with values, checkpointed')
  t.same(c.fast[6], 1, 'one z')

  // a dropped column added again under its name: no old value counts; a renamed column keeps its counts
  await db.query('ALTER TABLE t DROP COLUMN d')
  await db.query('ALTER TABLE t ADD COLUMN d DOUBLE')
  await db.query('ALTER TABLE t RENAME COLUMN s TO s2')
  c = await counts(db, ['v', 'd', 's2', 'y', 'z'])
  t.same(c.fast, c.read, 'after DROP, ADD and RENAME COLUMN')
  t.same(c.fast[2], 0, 'the new d has no value')
  await db.close()
  db = await Database.open({ path: dir })
  c = await counts(db, ['v', 'd', 's2', 'y', 'z'])
  t.same(c.fast, c.read, 'reopened')

  // a Parquet partition answers from its file's row-group statistics, the others from _meta
  await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2024-01-02'`)
  c = await counts(db, ['v', 'd', 's2', 'y', 'z'])
  t.same(c.fast, c.read, 'with a Parquet partition')
  t.same(c.readParts, 0, 'the Parquet partition known from its footer')
  await db.query('ALTER TABLE t ADD COLUMN w LONG')
  c = await counts(db, ['v', 'd', 's2', 'y', 'z', 'w'])
  t.same(c.fast, c.read, 'a column added after the Parquet file was written')
  t.same(c.readParts, 0)
  await db.query('ALTER TABLE t DROP COLUMN w')
  await db.query(`ALTER TABLE t CONVERT PARTITION TO NATIVE LIST '2024-01-02'`)
  c = await counts(db, ['v', 'd', 's2', 'y', 'z'])
  t.same(c.fast, c.read, 'converted back')
  await db.close()
})

t.test('the counts come from _meta, and only while its entry still holds the rows they were counted over', async (t) => {
  const dir = tmpDir(t, 'epochdb-count-stats-meta-')
  let db = await Database.open({ path: dir })
  await db.query(DDL)
  await db.append('t', rows(0, 48))
  await db.close()
  const file = metaFile(dir, 't')
  const m = unpack(readFileSync(file)) as { partitions: { dir: string; rows: number; nonNull?: { dir: string; rows: number; counts: Record<string, number> } }[] }
  t.same(m.partitions.map((p) => p.nonNull?.counts['v']), [16, 16], 'v counted per day')
  m.partitions[0]!.nonNull!.counts['v'] = 20
  m.partitions[1]!.nonNull = { ...m.partitions[1]!.nonNull!, dir: 'elsewhere', counts: { ...m.partitions[1]!.nonNull!.counts, v: 0 } }
  writeFileSync(file, pack(m))
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same((await db.query('SELECT count(v) FROM t')).rows, [[36]], 'the first day\'s recorded count is used; the second\'s, for another directory, is not')
  t.same((await db.query(`SELECT count(v) FROM t WHERE ts >= '1970-01-01'`)).rows, [[32]], 'a scan reads the values')
})

t.test('an in-memory table counts its buffers; a DEDUP table counts what its merges wrote', async (t) => {
  const mem = await Database.open()
  t.teardown(() => mem.close())
  await mem.query(DDL)
  await mem.append('t', rows(0, 100))
  const c = await counts(mem, ['v', 'd', 's', 'y'])
  t.same(c.fast, c.read)
  t.same([c.known, c.readParts], [1, 0], 'a few in-memory rows are counted at once')

  const dir = tmpDir(t, 'epochdb-count-stats-dedup-')
  let db = await Database.open({ path: dir })
  await db.query(`${DDL} DEDUP UPSERT KEYS(ts)`)
  await db.append('t', rows(0, 48))
  await db.close()
  db = await Database.open({ path: dir })
  // the same timestamps again with other nulls: they replace the rows, the row count stays
  await db.append('t', rows(10, 20, 1))
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  const d = await counts(db, ['v', 'd', 's', 'y'])
  t.same(d.fast, d.read, 'after rows replaced by DEDUP')
  t.same(d.fast[0], 48)
})

t.test('a partition an out-of-order merge cut: its first rows, fewer than were counted, are read', async (t) => {
  const dir = tmpDir(t, 'epochdb-count-stats-cut-')
  const mk = (from: number, n: number, off = 0): Record<string, unknown[]> => {
    const h = Array.from({ length: n }, (_, i) => from + i)
    return { ts: h.map((x) => T0 + x * HOUR + off), v: h.map((x) => (x % 3 === 0 ? null : x)), d: h.map((x) => (x % 4 === 1 ? null : x / 8)) }
  }
  let db = await Database.open({ path: dir })
  await db.query('CREATE TABLE t (ts TIMESTAMP, v LONG, d DOUBLE) TIMESTAMP(ts) PARTITION BY DAY')
  await db.append('t', mk(0, 72))
  await db.close()
  db = await Database.open({ path: dir })
  await db.append('t', mk(30, 3, 1))
  await db.close()
  const m = unpack(readFileSync(metaFile(dir, 't'))) as { partitions: { name: string; rows: number }[] }
  t.same(m.partitions.map((p) => [p.name, p.rows]), [['2024-01-01', 24], ['2024-01-02', 7], ['2024-01-02', 20], ['2024-01-03', 24]], 'the late day is in two parts')
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  const c = await counts(db, ['v', 'd'])
  t.same(c.fast, c.read)
  t.same(c.fast, [75, 50, 57])
  t.same([c.known, c.readParts], [3, 1], 'the cut part is read')
})

t.test('nonNullOf: a recorded count holds only for the directory and row count it was taken over', async (t) => {
  const e: PartitionEntry = { name: '2024-01-02', dir: '2024-01-02.2', lo: 0, hi: 1, rows: 24, minTs: 0, maxTs: 0, bytes: 0, nonNull: { dir: '2024-01-02.2', rows: 24, counts: { v: 16, d: 0 } } }
  t.equal(nonNullOf(e, 'v'), 16)
  t.equal(nonNullOf(e, 'd'), 0)
  t.equal(nonNullOf(e, 'w'), undefined, 'a file it did not count')
  t.equal(nonNullOf(e, 'toString'), undefined, 'not a name inherited by the record')
  t.equal(nonNullOf({ ...e, rows: 7 }, 'v'), undefined, 'a cut: fewer rows')
  t.equal(nonNullOf({ ...e, rows: 30 }, 'v'), undefined, 'an append that did not count')
  t.equal(nonNullOf({ ...e, dir: '2024-01-02.3' }, 'v'), undefined, 'rewritten elsewhere')
  t.equal(nonNullOf({ ...e, format: 'parquet' }, 'v'), undefined, 'a Parquet partition')
  t.equal(nonNullOf({ ...e, nonNull: { dir: e.dir, rows: 24, counts: { v: 25 } } }, 'v'), undefined, 'more than its rows: damaged')
  t.equal(nonNullOf({ ...e, nonNull: { dir: e.dir, rows: 24, counts: { v: 1.5 } } }, 'v'), undefined)
  t.equal(nonNullOf({ ...e, nonNull: undefined }, 'v'), undefined, 'an entry from before counts were recorded')
})

t.test('every column type counts its own nulls the same from the recorded counts as by reading', async (t) => {
  const dir = tmpDir(t, 'epochdb-count-stats-types-')
  const types = ['BOOLEAN', 'BYTE', 'SHORT', 'CHAR', 'INT', 'IPV4', 'LONG', 'DATE', 'TIMESTAMP_NS', 'FLOAT', 'DOUBLE', 'SYMBOL', 'STRING', 'VARCHAR', 'UUID', 'LONG256', 'BINARY', 'DECIMAL(30,4)', 'DOUBLE[]']
  const cols = types.map((_, i) => `c${i}`)
  let db = await Database.open({ path: dir })
  await db.query(`CREATE TABLE t (ts TIMESTAMP, ${types.map((ty, i) => `c${i} ${ty}`).join(', ')}) TIMESTAMP(ts) PARTITION BY DAY`)
  const values = ['true', '1', '2', "'x'", '3', "'1.2.3.4'", '4', "'2024-01-01'", "'2024-01-01T00:00:00.000000001Z'", '1.5', '2.5', "'s'", "'a'", "'b'",
    "'11111111-1111-1111-1111-111111111111'", "'0x01'", 'NULL', '1.25', 'ARRAY[1.0, 2.0]']
  const inserts: string[] = []
  for (let h = 0; h < 60; h++) inserts.push(`('${new Date(T0 / 1000 + h * 3_600_000).toISOString()}', ${values.map((v, i) => ((h + i) % 3 === 0 ? 'NULL' : v)).join(', ')})`)
  await db.query(`INSERT INTO t VALUES ${inserts.join(', ')}`)
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  let c = await counts(db, cols)
  t.same(c.fast, c.read)
  t.ok(c.known >= 2, `known ${c.known}`)
  // the same rows as Parquet partitions: every flat column from the files' null counts (the array column is read)
  await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET WHERE ts >= 0`)
  c = await counts(db, cols)
  t.same(c.fast, c.read, 'Parquet partitions count as the column files did')
  const flat = cols.filter((_, i) => types[i] !== 'DOUBLE[]')
  c = await counts(db, flat)
  t.same(c.fast, c.read)
  t.same(c.readParts, 0, 'no Parquet partition read for its flat columns')
  await db.query(`ALTER TABLE t CONVERT PARTITION TO NATIVE WHERE ts >= 0`)
  c = await counts(db, cols)
  t.same(c.fast, c.read, 'converted back')
})

t.test('in-memory rows keep the count a statement took: appends, out-of-order rows, UPDATE, more rows than are counted at once', async (t) => {
  const dir = tmpDir(t, 'epochdb-count-stats-memory-')
  let db = await Database.open({ path: dir })
  await db.query('CREATE TABLE t (ts TIMESTAMP, v LONG, d DOUBLE) TIMESTAMP(ts) PARTITION BY DAY')
  const mk = (from: number, n: number, off = 0, seed = 0): Record<string, unknown[]> => {
    const h = Array.from({ length: n }, (_, i) => from + i)
    return { ts: h.map((x) => T0 + x * 1_000_000 + off), v: h.map((x) => ((x + seed) % 3 === 0 ? null : x)), d: h.map((x) => ((x + seed) % 5 === 1 ? null : x / 8)) }
  }
  // 400k rows a second apart (five days) checkpointed, then 150k in memory: more than are counted at once
  await db.append('t', mk(0, 400_000))
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  await db.append('t', mk(400_000, 150_000))
  let c = await counts(db, ['v', 'd'])
  t.same(c.fast, c.read, 'first count: the in-memory rows read')
  t.same(c.fast, [550_000, 366_666, 440_000])
  t.ok(c.readParts >= 1, `read ${c.readParts}`)
  // appended since: only those are counted, at once
  await db.append('t', mk(550_000, 1000, 0, 1))
  c = await counts(db, ['v', 'd'])
  t.same(c.fast, c.read, 'after an append')
  t.same(c.readParts, 0, 'the in-memory rows known from their buffers')
  // rows older than the newest: merged into new buffers, counted anew
  await db.append('t', mk(545_000, 100, 500, 2))
  c = await counts(db, ['v', 'd'])
  t.same(c.fast, c.read, 'after out-of-order rows')
  await db.append('t', mk(551_000, 10))
  c = await counts(db, ['v', 'd'])
  t.same(c.fast, c.read, 'then in order again')
  // UPDATE of in-memory rows
  await db.query(`UPDATE t SET v = NULL, d = 1.5 WHERE ts > '2024-01-07T08:00:00Z'`)
  c = await counts(db, ['v', 'd'])
  t.same(c.fast, c.read, 'after UPDATE')
  await db.append('t', mk(551_010, 10, 0, 1))
  c = await counts(db, ['v', 'd'])
  t.same(c.fast, c.read, 'after UPDATE and an append')
})

t.test('an in-memory table answers count(x) from its buffers every time: the first statement counts, the next ones read nothing', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('CREATE TABLE t (ts TIMESTAMP, v LONG, d DOUBLE, y SYMBOL) TIMESTAMP(ts)')
  const mk = (from: number, n: number, off = 0, seed = 0): Record<string, unknown[]> => {
    const h = Array.from({ length: n }, (_, i) => from + i)
    return {
      ts: h.map((x) => T0 + x * 1_000_000 + off),
      v: h.map((x) => ((x + seed) % 3 === 0 ? null : x)),
      d: h.map((x) => ((x + seed) % 5 === 1 ? null : x / 8)),
      y: h.map((x) => ((x + seed) % 7 === 2 ? null : `k${x % 5}`)),
    }
  }
  // more rows than a part counts at once (cheapNonNullRows): before, such a table took the ordinary path
  await db.append('t', mk(0, 300_000))
  await db.append('t', mk(300_000, 300_000))
  const cols = ['v', 'd', 'y']
  let c = await counts(db, cols)
  t.same(c.fast, c.read, 'first count')
  t.same(c.fast.map(Number), [600_000, 400_000, 480_000, 514_286])
  t.ok(c.known + c.readParts > 0, 'answered from the buffers, not by the ordinary aggregation')
  for (let i = 0; i < 3; i++) {
    c = await counts(db, cols)
    t.same(c.fast, c.read, `count again (${i})`)
    t.same(c.readParts, 0, 'nothing read: the counts were kept')
    t.ok(c.known > 0)
  }
  await db.append('t', mk(600_000, 5000, 0, 1))
  c = await counts(db, cols)
  t.same(c.fast, c.read, 'after an append')
  t.same(c.readParts, 0, 'only the appended rows counted, at once')
  // out-of-order rows: the merge builds new buffers, counted anew by the next statement, kept after
  await db.append('t', mk(100_000, 2000, 500, 2))
  c = await counts(db, cols)
  t.same(c.fast, c.read, 'after out-of-order rows')
  t.same(Number(c.fast[0]), 607_000)
  t.ok(c.known + c.readParts > 0, 'still from the buffers')
  c = await counts(db, cols)
  t.same(c.fast, c.read)
  t.same(c.readParts, 0, 'the merged buffers keep their count')
  await db.query(`UPDATE t SET v = NULL, y = 'z' WHERE ts < '2024-01-02'`)
  c = await counts(db, cols)
  t.same(c.fast, c.read, 'after UPDATE')
  t.ok(c.known + c.readParts > 0)
  c = await counts(db, cols)
  t.same(c.fast, c.read)
  t.same(c.readParts, 0, 'the updated buffers keep their count')
})
