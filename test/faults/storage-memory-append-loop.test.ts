/**
 * A large `db.append` into an in-memory table does not hold the event loop for the whole copy:
 * its rows are applied a slice per turn of the loop (`Table.appendInTurns`). Meanwhile queries
 * are answered and never see part of the append; any other write arriving mid-append (INSERT in
 * order or out of order, another append, UPDATE, DDL) finds it finished first, and nothing is lost
 * or reordered. Bounded: 2M rows of two DOUBLE-sized columns (32 MB).
 */
import t from 'tap'
import { Database } from '../../lib/index.js'

const ROWS = 2_000_000
const T0 = Date.UTC(2024, 0, 1) * 1000

async function opened(): Promise<Database> {
  const db = await Database.open()
  await db.query('create table t (ts timestamp, v double) timestamp(ts) partition by day')
  await db.append('t', { ts: [T0], v: [0] })
  return db
}

/** `ROWS` rows after the first, one a millisecond from `from` on, each v = 1 (typed arrays: nothing to convert but the check of ts). */
function batch(from: number, rows = ROWS): Record<string, ArrayLike<unknown>> {
  const ts = new Float64Array(rows)
  const v = new Float64Array(rows).fill(1)
  for (let i = 0; i < rows; i++) ts[i] = T0 + (from + i) * 1000
  return { ts, v }
}

const turn = (): Promise<void> => new Promise((r) => setImmediate(r))

t.test('while a large in-memory append runs, the loop turns, queries are answered, and none sees part of it', async (t) => {
  const db = await opened()
  const counts: bigint[] = []
  let appending = true
  let gap = 0
  let last = performance.now()
  let turns = 0
  const poll = (): void => {
    if (!appending) return
    const now = performance.now()
    gap = Math.max(gap, now - last)
    last = now
    turns++
    void db.query('select count() from t').then((r) => { if (appending) counts.push(r.rows[0]![0] as bigint) })
    setImmediate(poll)
  }
  setImmediate(poll)
  await db.append('t', batch(1))
  appending = false
  // 32 MB of rows at 4 MiB a turn, after room is made a column a turn: a dozen turns or so (before: two, both while converting)
  t.ok(turns >= 8, `the loop turned while the rows were applied (${turns} turns)`)
  t.ok(counts.length >= 4, `queries were answered during the append (${counts.length})`)
  t.same([...new Set(counts)].filter((c) => c !== 1n && c !== BigInt(ROWS + 1)), [], 'every answer saw all of the append or none of it')
  t.ok(gap < 20_000, `the loop never froze (longest turn ${gap.toFixed(0)} ms)`)
  t.same((await db.query('select count(), sum(v), min(ts) = $1, max(ts) = $2 from t', [T0, T0 + ROWS * 1000])).rows, [[BigInt(ROWS + 1), ROWS, true, true]])
  await db.close()
})

t.test('an INSERT arriving mid-append goes after it: in order, or merged when older', async (t) => {
  const db = await opened()
  const append = db.append('t', batch(1))
  await turn()
  await turn()
  // newer than every appended row, then one in the middle of them, then one before all of them
  await db.query('insert into t values ($1, 10)', [T0 + (ROWS + 5) * 1000])
  await db.query('insert into t values ($1, 20)', [T0 + 1500])
  await db.query('insert into t values ($1, 30)', [T0 - 1000])
  await append
  const r = await db.query('select count(), sum(v) from t')
  t.same(r.rows, [[BigInt(ROWS + 4), ROWS + 60]])
  t.same((await db.query('select v from t limit 4')).rows, [[30], [0], [1], [20]], 'older rows merged into place')
  t.same((await db.query('select v from t limit -1')).rows, [[10]], 'the newer row last')
  const ordered = await db.query('select count() from (select ts, lag(ts) over () p from t) where ts < p')
  t.same(ordered.rows, [[0n]], 'every row in timestamp order')
  await db.close()
})

t.test('two large appends at once: both land whole, in order', async (t) => {
  const db = await opened()
  const first = db.append('t', batch(1))
  await turn()
  const second = db.append('t', batch(ROWS + 1))
  await Promise.all([first, second])
  t.same((await db.query('select count(), sum(v), max(ts) = $1 from t', [T0 + 2 * ROWS * 1000])).rows, [[BigInt(2 * ROWS + 1), 2 * ROWS, true]])
  const ordered = await db.query('select count() from (select ts, lag(ts) over () p from t) where ts <= p')
  t.same(ordered.rows, [[0n]], 'timestamps strictly increasing: no row twice, none out of place')
  await db.close()
})

t.test('UPDATE and DDL arriving mid-append wait for it and see every row', async (t) => {
  const db = await opened()
  const append = db.append('t', batch(1))
  await turn()
  await turn()
  const update = db.query('update t set v = 2')
  const alter = db.query('alter table t add column w long')
  await Promise.all([append, update, alter])
  t.same((await db.query('select count(), sum(v), count(w) from t')).rows, [[BigInt(ROWS + 1), 2 * (ROWS + 1), 0n]])
  await db.close()
})

t.test('a TTL table drops old partitions after a large append, as after a small one', async (t) => {
  const db = await Database.open()
  await db.query('create table t (ts timestamp, v double) timestamp(ts) partition by hour ttl 1 hour')
  await db.append('t', { ts: [T0], v: [0] })
  // 2M ms: rows over 33 minutes past T0 + 2 h
  await db.append('t', batch(2 * 3600 * 1000))
  t.same((await db.query('select count(), min(ts) >= $1 from t', [T0 + 3600 * 1000])).rows, [[BigInt(ROWS), true]])
  await db.close()
})

t.test('INSERT ... SELECT and CREATE TABLE AS of a large result go the same way: whole, in order, all or nothing to readers', async (t) => {
  const db = await opened()
  await db.append('t', batch(1))
  await db.query('create table u (ts timestamp, v double) timestamp(ts) partition by day')
  const counts = new Set<bigint>()
  let running = true
  const poll = (): void => {
    if (!running) return
    void db.query('select count() from u').then((r) => { counts.add(r.rows[0]![0] as bigint) })
    setImmediate(poll)
  }
  setImmediate(poll)
  const insert = db.query('insert into u select ts, v from t')
  await turn()
  await db.query('insert into u values ($1, 5)', [T0 + (ROWS + 1) * 1000])
  await insert
  running = false
  t.same([...counts].filter((c) => c !== 0n && c !== 1n && c !== BigInt(ROWS + 1) && c !== BigInt(ROWS + 2)), [], 'no reader saw part of the INSERT')
  t.same((await db.query('select count(), sum(v) from u')).rows, [[BigInt(ROWS + 2), ROWS + 5]])
  await db.query('create table w as (select * from t) timestamp(ts) partition by day')
  t.same((await db.query('select count(), sum(v) from w')).rows, [[BigInt(ROWS + 1), ROWS]])
  const ordered = await db.query('select count() from (select ts, lag(ts) over () p from u) where ts <= p')
  t.same(ordered.rows, [[0n]])
  await db.close()
})

t.test('DDL queued for the lock before a large append (behind an UPDATE) changes the columns first: the append lands in the new shape', async (t) => {
  const db = await opened()
  await db.append('t', batch(1))
  // the UPDATE holds the table alone; the ALTER queues for it while the append converts its columns, so goes first
  const update = db.query('update t set v = 2')
  const append = db.append('t', batch(ROWS + 1))
  const alter = db.query('alter table t add column w long')
  await Promise.all([update, alter, append])
  t.same((await db.query('select count(), sum(v), count(w) from t')).rows, [[BigInt(2 * ROWS + 1), 2 * (ROWS + 1) + ROWS, 0n]])
  t.same((await db.query('select v, w from t limit -1')).rows, [[1, null]], 'the appended rows, with the new column null')
  await db.close()
})
