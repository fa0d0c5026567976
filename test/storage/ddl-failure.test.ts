/**
 * A DDL statement that fails midway (an injected I/O failure) leaves the table exactly as before:
 * its checkpointed partitions are still the table's live partitions, not retired as a partition
 * leaving the table is (a retired partition reads whole columns outside the memory budget, is
 * never cut for a late row, and DROP COLUMN pinned it to the columns of before), so later
 * statements read them and change them again as if the failed statement had never run.
 */
import t from 'tap'
import { Database } from '../../lib/index.js'
import { injectFault } from '../../lib/storage/durable/io.js'
import { STORAGE_STATS } from '../../lib/storage/durable/part-cache.js'
import { FilePart } from '../../lib/storage/durable/file-part.js'
import type { ColdPart } from '../../lib/storage/table-parts.js'
import { tmpDir } from '../unit/storage/helpers.js'

/** 5 DAY partitions of 100 rows, checkpointed and reopened (every partition cold, nothing loaded). */
async function make(dir: string): Promise<Database> {
  let db = await Database.open({ path: dir })
  await db.query(`CREATE TABLE t AS (SELECT rnd_symbol('a','b','c') s, x, x * 2 v,
    timestamp_sequence('2024-01-01', 864000000) ts FROM long_sequence(500)) TIMESTAMP(ts) PARTITION BY DAY`)
  await db.close()
  db = await Database.open({ path: dir })
  return db
}

/** Table `t`'s checkpointed partitions (engine internals: the test looks at the parts themselves). */
const coldOf = (db: Database): readonly ColdPart[] =>
  (db as unknown as { catalog: { get(n: string): { coldParts(): readonly ColdPart[] } } }).catalog.get('t').coldParts()

const SUMMARY = 'SELECT count(), sum(x), sum(v), count(s), min(ts), max(ts) FROM t'

/** Runs `sql` with every file write failing (EIO); returns its error. */
async function failing(db: Database, sql: string): Promise<unknown> {
  const restore = injectFault(['writeSync', 'fsync', 'fsyncSync', 'renameSync'], 'EIO')
  try { return await db.query(sql).then(() => undefined, (e: unknown) => e) } finally { restore() }
}

/** The statements, and whether they read the partitions' columns before they fail (UPDATE does). */
const STATEMENTS: [string, boolean][] = [
  ['ALTER TABLE t DROP COLUMN v', false],
  ['ALTER TABLE t DROP COLUMN v, s', false],
  ['ALTER TABLE t ADD COLUMN n LONG', false],
  ['ALTER TABLE t RENAME COLUMN v TO w', false],
  ['TRUNCATE TABLE t', false],
  ["ALTER TABLE t DROP PARTITION LIST '2024-01-02', '2024-01-05'", false],
  ["ALTER TABLE t DROP PARTITION WHERE ts < '2024-01-04'", false],
  ['UPDATE t SET v = 0 WHERE x = 7', true],
]

for (const [sql, reads] of STATEMENTS) {
  t.test(`a failed ${sql} leaves the partitions live`, async (t) => {
    const dir = tmpDir(t)
    let db = await make(dir)
    const parts = coldOf(db)
    t.equal(parts.length, 5)
    t.match(await failing(db, sql), { code: '58030' }, 'the statement fails')
    t.same(coldOf(db), parts, 'the same partitions')
    t.same(coldOf(db).filter((p) => (p as FilePart).isRetired), [], 'none of them retired')
    if (!reads) {
      // a live partition not in memory reads an hour's rows alone (a retired one would load whole columns)
      const loads = STORAGE_STATS.columnLoads
      t.same((await db.query("SELECT count() FROM t WHERE ts IN '2024-01-03T10'")).rows, [[4n]])
      t.equal(STORAGE_STATS.columnLoads, loads, 'an interval read loaded no whole column')
    }
    const summary = (await db.query(SUMMARY)).rows
    t.same(summary, [[500n, 125250n, 250500n, 500n, 1704067200000000n, 1704498336000000n]], 'the rows are as before')
    // the same statement, or another, works afterwards on the same partitions
    await db.query('ALTER TABLE t ADD COLUMN k INT')
    await db.query("INSERT INTO t (s, x, v, ts, k) VALUES ('a', 1000, 1, '2024-01-05T12:00:00Z', 3)")
    await db.query('ALTER TABLE t DROP COLUMN v')
    const want = [[501n, 126250n, 1n, 3n]]
    t.same((await db.query('SELECT count(), sum(x), count(k), sum(k) FROM t')).rows, want)
    await db.close()
    db = await Database.open({ path: dir })
    t.teardown(() => db.close())
    t.same((await db.query('SELECT count(), sum(x), count(k), sum(k) FROM t')).rows, want, 'after a restart')
    t.same((await db.query('SELECT "column" FROM table_columns(\'t\')')).rows, [['s'], ['x'], ['ts'], ['k']])
  })
}

t.test('a DROP COLUMN refused midway (by the third partition) leaves every partition live', async (t) => {
  const dir = tmpDir(t)
  const db = await make(dir)
  t.teardown(() => db.close())
  const parts = coldOf(db)
  const real = FilePart.prototype.withoutColumns
  let calls = 0
  FilePart.prototype.withoutColumns = function (this: FilePart, gone, count) {
    if (++calls === 3) throw new RangeError('refused')
    return real.call(this, gone, count)
  }
  try {
    await t.rejects(db.query('ALTER TABLE t DROP COLUMN v'), /refused/)
  } finally {
    FilePart.prototype.withoutColumns = real
  }
  t.equal(calls, 3)
  t.same(coldOf(db), parts, 'the same partitions')
  t.same(coldOf(db).filter((p) => (p as FilePart).isRetired), [], 'none of them retired')
  t.same((await db.query('SELECT "column" FROM table_columns(\'t\')')).rows, [['s'], ['x'], ['v'], ['ts']])
  await db.query('ALTER TABLE t DROP COLUMN v')
  t.same((await db.query('SELECT count(), sum(x) FROM t')).rows, [[500n, 125250n]])
})

t.test('TRUNCATE TABLE t, u failing on u: both as before (all or none, ddl-undo.ts), in memory as on disk', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  await db.query('CREATE TABLE u AS (SELECT x, timestamp_sequence(\'2024-01-01\', 864000000) ts FROM long_sequence(100)) TIMESTAMP(ts) PARTITION BY DAY')
  // u's `_meta` cannot be replaced
  const restore = injectFault(['renameSync'], 'EIO', (p) => String(p).includes('/u~'))
  try {
    await t.rejects(db.query('TRUNCATE TABLE t, u'), { code: '58030' })
  } finally { restore() }
  const now = async (): Promise<unknown[]> => [(await db.query('SELECT count() FROM t')).rows, (await db.query('SELECT count(), sum(x) FROM u')).rows]
  const seen = await now()
  t.same(seen, [[[500n]], [[100n, 5050n]]], 't and u as before')
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same(await now(), seen, 'the same after a restart')
})
