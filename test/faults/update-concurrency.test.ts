/**
 * UPDATE under concurrent writers: four in-process writers INSERT (in and out of timestamp
 * order) while UPDATEs run on the same table, in a durable and an in-memory database. No
 * statement fails (formerly 55006 "table changed during UPDATE, retry"); every inserted row is
 * there and every update applied exactly once.
 */
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'

/** Enough rows that one UPDATE spans several batches and yields to the event loop between them. */
const PREFILL = 200_000
const WRITERS = 4
const INSERTS = 30
const ROWS_PER_INSERT = 4
const DAY = 86_400_000_000

async function run(t: Test, db: Database): Promise<void> {
  await db.query('create table t (ts timestamp, w int, i int, v int) timestamp(ts) partition by day')
  const ts = new Float64Array(PREFILL)
  for (let k = 0; k < PREFILL; k++) ts[k] = Date.UTC(2024, 0, 1) * 1000 + k * 1000
  await db.append('t', { ts, w: new Int32Array(PREFILL).fill(-1), i: Int32Array.from({ length: PREFILL }, (_, k) => k), v: new Int32Array(PREFILL) })

  const failures: string[] = []
  /** per writer: rows acknowledged, rows updated */
  const acked = new Array<number>(WRITERS).fill(0)
  const updatedTo = new Array<number>(WRITERS).fill(0)
  let writing = WRITERS
  let updates = 0

  const writer = async (w: number): Promise<void> => {
    for (let n = 0; n < INSERTS; n++) {
      const values = []
      for (let r = 0; r < ROWS_PER_INSERT; r++) {
        const i = n * ROWS_PER_INSERT + r
        // writers 0 and 1 append in order on day 2; 2 and 3 write into day 1 (out of order, a merge)
        const at = Date.UTC(2024, 0, 1) * 1000 + (w < 2 ? DAY + i * 1_000_000 + w : i * 997 + w)
        values.push(`(${at}::timestamp, ${w}, ${i}, 0)`)
      }
      try {
        await db.query(`insert into t values ${values.join(', ')}`)
        acked[w] = (n + 1) * ROWS_PER_INSERT
        // a client's next statement comes in a later turn of the event loop
        await new Promise((r) => setImmediate(r))
      } catch (e) {
        failures.push(`insert: ${(e as Error).message}`)
        return
      }
    }
  }
  const updateAcked = async (): Promise<void> => {
    for (let w = 0; w < WRITERS; w++) {
      const lo = updatedTo[w]!
      const hi = acked[w]!
      if (hi <= lo) continue
      try {
        await db.query(`update t set v = v + 1 where w = ${w} and i >= ${lo} and i < ${hi}`)
        updatedTo[w] = hi
        updates++
      } catch (e) {
        failures.push(`update: ${(e as Error).message}`)
        return
      }
    }
  }
  // writes to another table go on during the UPDATEs (their commits may start checkpoints)
  await db.query('create table o (ts timestamp, x long) timestamp(ts) partition by day')
  const other = async (): Promise<void> => {
    for (let n = 0; writing > 0; n++) {
      try { await db.query(`insert into o values (${Date.UTC(2024, 0, 1) * 1000 + n}::timestamp, ${n})`) } catch (e) { failures.push(`other: ${(e as Error).message}`); return }
      await new Promise((r) => setImmediate(r))
    }
  }
  const updater = async (): Promise<void> => {
    while (writing > 0 && failures.length === 0) {
      await updateAcked()
      await new Promise((r) => setImmediate(r))
    }
    await updateAcked()
  }
  await Promise.all([
    ...Array.from({ length: WRITERS }, (_, w) => writer(w).finally(() => { writing-- })),
    updater(),
    other(),
  ])
  t.same(failures, [], 'no INSERT or UPDATE failed')
  t.ok(updates >= WRITERS * 2, `${updates} UPDATEs ran while the writers wrote`)
  const total = WRITERS * INSERTS * ROWS_PER_INSERT
  t.same((await db.query('select count() from t')).rows, [[BigInt(PREFILL + total)]], 'every row is there')
  t.same((await db.query('select w, count(), min(v), max(v), count_distinct(i) from t where w >= 0 group by w order by w')).rows,
    Array.from({ length: WRITERS }, (_, w) => [w, BigInt(INSERTS * ROWS_PER_INSERT), 1, 1, BigInt(INSERTS * ROWS_PER_INSERT)]), 'every update applied once')
  t.same((await db.query('select count() from t where w = -1 and v <> 0')).rows, [[0n]], 'no other row touched')
}


t.test('in memory: 4 writers and concurrent UPDATEs, no failure', { timeout: 120_000 }, async (t) => {
  const db = await Database.open()
  await run(t, db)
  await db.close()
})

t.test('durable: 4 writers and concurrent UPDATEs, no failure, the same after reopen', { timeout: 180_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-upd-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  // a small checkpoint threshold: checkpoints run between the statements, and during the UPDATEs
  let db = await Database.open({ path: dir, checkpointBytes: 16 << 10 })
  await run(t, db)
  await db.close()
  db = await Database.open({ path: dir })
  t.same((await db.query('select count(), sum(v) from t')).rows, [[BigInt(PREFILL + WRITERS * INSERTS * ROWS_PER_INSERT), BigInt(WRITERS * INSERTS * ROWS_PER_INSERT)]])
  await db.close()
})

t.test('durable: a checkpoint started by another table\'s commit waits for a running UPDATE', { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-upd-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const db = await Database.open({ path: dir, checkpointBytes: 1 << 20 })
  await db.query('create table t (ts timestamp, v int) timestamp(ts) partition by day')
  const ts = new Float64Array(PREFILL * 2)
  for (let k = 0; k < ts.length; k++) ts[k] = Date.UTC(2024, 0, 1) * 1000 + k * 1000
  await db.append('t', { ts, v: new Int32Array(ts.length) })
  await new Promise((r) => setImmediate(r))
  // one row of t not checkpointed yet, then an UPDATE, and meanwhile 1 MiB into another table crosses the checkpoint threshold
  await db.query("insert into t values ('2024-02-01', 0)")
  await db.query('create table o (s string)')
  const update = db.query('update t set v = v + 1')
  await new Promise((r) => setImmediate(r))
  await db.query('insert into o values ($1)', ['x'.repeat(1 << 20)])
  t.same((await update).rowCount, ts.length + 1)
  t.same((await db.query('select count(), min(v), max(v) from t')).rows, [[BigInt(ts.length + 1), 1, 1]])
  await db.close()
})

t.test('DDL on a table waits for a running UPDATE of it (and an UPDATE for the DDL): neither fails', { timeout: 60_000 }, async (t) => {
  for (const path of [undefined, mkdtempSync(join(tmpdir(), 'epochdb-upd-'))]) {
    if (path !== undefined) t.teardown(() => rmSync(path, { recursive: true, force: true }))
    const db = await Database.open({ path })
    await db.query('create table t (ts timestamp, v int) timestamp(ts) partition by day')
    const ts = new Float64Array(PREFILL * 2)
    for (let k = 0; k < ts.length; k++) ts[k] = Date.UTC(2024, 0, 1) * 1000 + k * 1000
    await db.append('t', { ts, v: new Int32Array(ts.length) })
    const update = db.query('update t set v = v + 1')
    await new Promise((r) => setImmediate(r))
    const alter = db.query('alter table t add column z int')
    const update2 = db.query('update t set z = 5')
    await new Promise((r) => setImmediate(r))
    const insert = db.query("insert into t (ts, v) values ('2030-01-01', 7)")
    const results = await Promise.allSettled([update, alter, update2, insert])
    t.same(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'], `${path === undefined ? 'in memory' : 'durable'}: ${results.map((r) => r.status === 'rejected' ? (r.reason as Error).message : 'ok').join(', ')}`)
    t.same((await db.query('select count(), sum(v), min(z), max(z) from t')).rows, [[BigInt(ts.length + 1), ts.length + 7, 5, 5]])
    await db.close()
  }
})
