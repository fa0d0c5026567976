/**
 * DDL statements sync their files off the main thread (`DurableStore.persistDdl`): while a DDL
 * statement's fsync is held (the test holds every `io.fsync` until it lets them go), the event
 * loop answers queries, and the statement is not answered until its files are synced. Counted in
 * answers and turns, not time.
 */
import t from 'tap'
import { Database } from '../../lib/index.js'
import { io } from '../../lib/storage/durable/io.js'
import { tmpDir } from '../unit/storage/helpers.js'

/** Holds every `io.fsync` until {@link Held.release}; afterwards they run at once. */
interface Held { pending(): number; release(): void; restore(): void }

function holdSyncs(): Held {
  const real = io.fsync
  let waiting: (() => void)[] | undefined = []
  io.fsync = (fd) => {
    if (waiting === undefined) return real(fd)
    return new Promise<void>((resolve, reject) => { waiting!.push(() => { real(fd).then(resolve, reject) }) })
  }
  return {
    pending: () => waiting?.length ?? 0,
    release: () => { const w = waiting ?? []; waiting = undefined; for (const f of w) f() },
    restore: () => { io.fsync = real },
  }
}

const turn = (): Promise<void> => new Promise((r) => setImmediate(r))

/** 10 DAY partitions, checkpointed and reopened, plus a table `u` to drop. */
async function make(dir: string): Promise<Database> {
  let db = await Database.open({ path: dir })
  await db.query(`CREATE TABLE t AS (SELECT rnd_symbol('a','b','c') s, x, x * 2 v,
    timestamp_sequence('2024-01-01', 864000000) ts FROM long_sequence(1000)) TIMESTAMP(ts) PARTITION BY DAY`)
  await db.query('CREATE TABLE u (a LONG)')
  await db.close()
  db = await Database.open({ path: dir })
  return db
}

const CASES: [string, string, unknown[][]][] = [
  ['ALTER TABLE t ADD COLUMN n LONG', 'SELECT count(), count(n) FROM t', [[1000n, 0n]]],
  ['ALTER TABLE t DROP COLUMN v', 'SELECT count() FROM table_columns(\'t\')', [[3n]]],
  ['ALTER TABLE t RENAME COLUMN v TO w', 'SELECT sum(w) FROM t', [[1001000n]]],
  ['TRUNCATE TABLE t', 'SELECT count() FROM t', [[0n]]],
  ["ALTER TABLE t DROP PARTITION LIST '2024-01-01'", 'SELECT count() FROM t', [[900n]]],
  ['DROP TABLE u', 'SELECT count() FROM tables()', [[1n]]],
  ['CREATE TABLE n (a LONG)', 'SELECT count() FROM tables()', [[3n]]],
]

for (const [ddl, check, want] of CASES) {
  t.test(`${ddl}: queries are answered while its files sync`, async (t) => {
    const dir = tmpDir(t)
    let db = await make(dir)
    const held = holdSyncs()
    t.teardown(() => held.restore())
    let settled = false
    const running = db.query(ddl).finally(() => { settled = true })
    // the statement writes, then waits for its first sync off the main thread
    let turns = 0
    while (held.pending() === 0 && !settled && turns < 1000) { await turn(); turns++ }
    t.ok(held.pending() > 0, `a sync is running off the main thread (after ${turns} turns)`)
    t.notOk(settled, 'the statement is not answered before its files are synced')
    let answers = 0
    for (let i = 0; i < 5; i++) {
      t.same((await db.query('SELECT count() FROM t WHERE x > 0')).rows.length, 1)
      answers++
    }
    t.equal(answers, 5, 'queries answered meanwhile')
    t.notOk(settled, 'still waiting for its syncs')
    held.release()
    await running
    t.same((await db.query(check)).rows, want)
    await db.close()
    db = await Database.open({ path: dir })
    t.teardown(() => db.close())
    t.same((await db.query(check)).rows, want, 'the same after a restart')
  })
}

t.test('an INSERT waits for the DDL, then lands in the changed table', async (t) => {
  const dir = tmpDir(t)
  const db = await make(dir)
  t.teardown(() => db.close())
  const held = holdSyncs()
  t.teardown(() => held.restore())
  let settled = false
  const running = db.query('ALTER TABLE t ADD COLUMN n LONG').finally(() => { settled = true })
  while (held.pending() === 0 && !settled) await turn()
  let inserted = false
  const insert = db.query("INSERT INTO t (x, ts, n) VALUES (1, '2024-01-11', 5)").finally(() => { inserted = true })
  for (let i = 0; i < 20; i++) await turn()
  t.notOk(inserted, 'the INSERT waits (its table is locked, and commits wait for the running store job)')
  held.release()
  await running
  await insert
  t.same((await db.query('SELECT count(), sum(n) FROM t')).rows, [[1001n, 5n]])
})

t.test('an INSERT into a table whose CREATE is still syncing finishes the CREATE first', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  const held = holdSyncs()
  t.teardown(() => held.restore())
  let settled = false
  const running = db.query('CREATE TABLE n (a LONG)').finally(() => { settled = true })
  while (held.pending() === 0 && !settled) await turn()
  t.notOk(settled)
  // engine-level append (no statement lock): the store makes the table's directory, once
  const insert = db.append('n', { a: [7] })
  held.release()
  await running
  await insert
  t.same((await db.query('SELECT a FROM n')).rows, [[7n]])
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same((await db.query('SELECT a FROM n')).rows, [[7n]], 'after a restart')
})
