// An out-of-order append whose rows reach partitions stored as Parquet moves them to memory for the
// merge; their columns are read (a Parquet one decoded) a column per turn of the event loop, not all
// in the commit's one step, so other queries are answered meanwhile. Counted in turns and column
// loads, not timed.
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { Database } from '../../lib/index.js'
import { STORAGE_STATS } from '../../lib/storage/durable/part-cache.js'
import { tmpDir } from '../unit/parquet/helpers.js'

const PER_DAY = 20_000
const COLUMNS = 4
/** Columns read: whole, or (day 1, which the late row cuts: file-part.ts `cut`) from the cut on. */
const loads = (): number => STORAGE_STATS.columnLoads + STORAGE_STATS.tailLoads

t.test('a late row before two Parquet days: their columns load in separate turns, and other queries are answered meanwhile', async (t) => {
  const dir = tmpDir(t)
  let db = await Database.open({ path: dir })
  await db.query(`CREATE TABLE t AS (SELECT x, rnd_double() d, rnd_symbol('a', 'b', 'c') s, timestamp_sequence('2024-01-01', ${86_400_000_000 / PER_DAY}) ts
    FROM long_sequence(${4 * PER_DAY}, 1, 2)) TIMESTAMP(ts) PARTITION BY DAY`)
  await db.query(`ALTER TABLE t CONVERT PARTITION TO PARQUET LIST '2024-01-02', '2024-01-03'`)
  await db.query('CREATE TABLE u (a INT)')
  await db.query('INSERT INTO u VALUES (1), (2), (3)')
  const expect = (await db.query('SELECT count(), sum(x), sum(d) FROM t')).rows[0]!
  // reopened: no partition column is in memory
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same((await db.query('SELECT count() FROM u')).rows, [[3n]], 'u is read once before (its columns in memory)')

  const loadsBefore = loads()
  const seen: number[] = []
  let insertDone = false
  let answeredMidway = false
  let asked = false
  // every turn of the event loop while the insert runs: how many columns have loaded so far
  const watch = (): void => {
    if (insertDone) return
    const n = loads() - loadsBefore
    if (seen[seen.length - 1] !== n) seen.push(n)
    // a query asked once some partitions are loaded and not all: answered before the insert ends
    if (!asked && n > 0 && n < 2 * COLUMNS) {
      asked = true
      void db.query('SELECT sum(a) FROM u').then((r) => { answeredMidway = !insertDone && r.rows[0]![0] === 6n })
    }
    setImmediate(watch)
  }
  setImmediate(watch)
  // day 1 late row: days 1 to 4 (two of them Parquet) move to memory for the merge
  await db.query(`INSERT INTO t VALUES (-1, 0.5, 'z', '2024-01-01T12:00:00.000001Z')`)
  insertDone = true
  const total = loads() - loadsBefore
  t.ok(total >= 4 * COLUMNS, `every column of the four partitions loaded, day 1's from the late row on (${total})`)
  // one column per turn: the counter is seen at many values, not jumping from 0 to all at once
  t.ok(seen.length >= 2 * COLUMNS, `column loads spread over turns (seen ${seen.join(', ')})`)
  t.ok(answeredMidway, 'a query on another table was answered while the partitions were loading')
  const after = (await db.query('SELECT count(), sum(x), sum(d) FROM t')).rows[0]!
  t.same(after.slice(0, 2), [expect[0] as bigint + 1n, expect[1] as bigint - 1n], 'every row kept, and the late one')
  t.ok(Math.abs((after[2] as number) - (expect[2] as number) - 0.5) < 1e-6, 'the doubles too')
  t.same((await db.query(`SELECT x, s FROM t WHERE ts IN '2024-01-01T12:00:00.000001Z'`)).rows, [[-1n, 'z']], 'the late row is in')
})
