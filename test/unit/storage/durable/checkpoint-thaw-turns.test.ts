/**
 * A background checkpoint that must rewrite the last checkpointed partition (its files cannot take
 * the new rows in place: here an array column's files are in layout 1, as a data directory written
 * before layout 2 holds them, array-codec.ts) reads that partition's
 * columns a column per turn of the event loop, not all of them in one step, so other queries are
 * answered meanwhile. Counted in turns and column loads, not timed.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { STORAGE_STATS } from '../../../../lib/storage/durable/part-cache.js'
import { afterReopen, checkpointed, tmpDir, toArrayLayout1 } from '../helpers.js'

const ROWS = 20_000
const COLUMNS = 7

t.test('the checkpoint reads the partition it rewrites a column per turn; a query on another table is answered meanwhile', async (t) => {
  const dir = tmpDir(t, 'epochdb-ckpt-thaw-')
  let db = await Database.open({ path: dir })
  await db.query(`CREATE TABLE t AS (SELECT x, rnd_double() d, rnd_symbol('a', 'b', 'c') s, rnd_long() l, rnd_int() i,
    timestamp_sequence('2024-01-01', ${Math.floor(43_200_000_000 / ROWS)}) ts FROM long_sequence(${ROWS}, 1, 2)) TIMESTAMP(ts) PARTITION BY DAY`)
  await db.query('CREATE TABLE u (a INT)')
  await db.query('INSERT INTO u VALUES (1), (2), (3)')
  // checkpointed; then the partition's files no longer match the columns: in-order rows make the checkpoint rewrite it
  await db.close()
  db = await Database.open({ path: dir })
  await db.query('ALTER TABLE t ADD COLUMN w DOUBLE[]')
  await db.query(`INSERT INTO t (x, ts, w) VALUES (0, '2024-01-01T22:00:00.000000Z', ARRAY[0.0])`)
  const expect = (await db.query('SELECT count(), sum(x), sum(d) FROM t')).rows[0]!
  await db.close()
  t.equal(toArrayLayout1(dir, 't', 'w'), 1, 'the array file rewritten in layout 1')
  // reopened, every commit starting a background checkpoint; no partition column in memory
  db = await Database.open({ path: dir, checkpointBytes: 1 })
  t.teardown(() => db.close())
  t.same((await db.query('SELECT count() FROM u')).rows, [[3n]], 'u is read once before (its columns in memory)')

  const loadsBefore = STORAGE_STATS.columnLoads
  const seen: number[] = []
  let asked = false
  let answeredMidway = false
  let done = false
  const watch = (): void => {
    if (done) return
    const n = STORAGE_STATS.columnLoads - loadsBefore
    if (seen[seen.length - 1] !== n) seen.push(n)
    if (!asked && n > 0 && n < COLUMNS) {
      asked = true
      void db.query('SELECT sum(a) FROM u').then((r) => { answeredMidway = STORAGE_STATS.columnLoads - loadsBefore < COLUMNS + 1 && r.rows[0]![0] === 6n })
    }
    setImmediate(watch)
  }
  // in order, inside the last partition: committed at once, the checkpoint follows in the background
  await db.query(`INSERT INTO t VALUES (-1, 0.5, 'z', 7, 8, '2024-01-01T23:00:00.000000Z', ARRAY[1.5])`)
  setImmediate(watch)
  await checkpointed(dir)
  done = true
  const total = STORAGE_STATS.columnLoads - loadsBefore
  t.ok(total >= COLUMNS, `every column of the partition loaded (${total})`)
  t.ok(seen.length >= COLUMNS, `column loads spread over turns (seen ${seen.join(', ')})`)
  t.ok(answeredMidway, 'a query on another table was answered while the partition was loading')
  const after = (await db.query('SELECT count(), sum(x), sum(array_sum(w)) FROM t')).rows[0]!
  t.same(after, [(expect[0] as bigint) + 1n, (expect[1] as bigint) - 1n, 1.5], 'every row kept, and the new one')
  await db.close()
  t.same(await afterReopen(dir, 'SELECT count(), sum(x), sum(array_sum(w)) FROM t', `SELECT x, s FROM t WHERE ts IN '2024-01-01T23:00:00.000000Z'`),
    [[after], [[-1n, 'z']]], 'the same after a reopen')
})
