/**
 * DROP COLUMN on a table of many partitions moves the dropped files out of the partition
 * directories a few partitions per turn of the event loop, after the new `_meta` is in force, and
 * asks the file system for no size of a fixed-width dropped file (its bytes are its recorded
 * rows). Counted in turns and calls, not timed (test/bench/alter-loop.ts has the figures).
 */
import t from 'tap'
import { Database } from '../../lib/index.js'
import { io } from '../../lib/storage/durable/io.js'
import { tmpDir } from '../unit/storage/helpers.js'

const DAYS = 40

t.test('DROP COLUMN of 40 partitions: the dropped files leave over several turns; no stat of a fixed-width file; SHOW PARTITIONS\' sizes drop', async (t) => {
  const dir = tmpDir(t, 'epochdb-drop-turns-')
  let db = await Database.open({ path: dir })
  await db.query('create table t (a double, b long, s varchar, ts timestamp) timestamp(ts) partition by day')
  await db.query(`insert into t select rnd_double(), x, 'v' || x, cast((x - 1) * 21600000000 as timestamp) from long_sequence(${DAYS * 4})`)
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  const sizes = async (): Promise<number[]> => (await db.query('select diskSize from table_partitions(\'t\')')).rows.map((r) => Number(r[0]))
  const before = await sizes()
  let turn = 0
  let ticking = true
  const tick = (): void => { turn++; if (ticking) setImmediate(tick) }
  setImmediate(tick)
  const turns = new Set<number>()
  let renames = 0
  let stats = 0
  const realRename = io.renameSync
  const realStat = io.statSize
  io.renameSync = (from, to) => { if (/\/b\.d$/.test(from)) { renames++; turns.add(turn) } realRename(from, to) }
  io.statSize = (p) => { if (/\/b\.[do]$/.test(p)) stats++; return realStat(p) }
  try {
    await db.query('alter table t drop column b')
  } finally {
    io.renameSync = realRename
    io.statSize = realStat
    ticking = false
  }
  t.equal(renames, DAYS, 'every partition\'s dropped file moved')
  t.ok(turns.size >= DAYS / 8, `over ${turns.size} turns of the event loop (at most 8 partitions a turn)`)
  t.equal(stats, 0, 'no size asked of the dropped LONG files')
  const after = await sizes()
  t.ok(after.every((x, i) => x === before[i]! - 4 * 8), 'each partition\'s size lost its 4 rows of 8 bytes')
  t.same((await db.query('select count(), sum(a) > 0 from t')).rows, [[BigInt(DAYS * 4), true]])
})
