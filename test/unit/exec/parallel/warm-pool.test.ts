/**
 * The worker pool starts loading before the first parallel query needs it (warm.ts): a fresh
 * process's first big aggregation can have a worker take part. Run in its own process (the pool is
 * process-wide), with the parallel threshold lowered so the tables stay small.
 */
import t from 'tap'

process.env['EPOCHDB_PARALLEL_MIN_ROWS'] = '200000'
process.env['EPOCHDB_WORKERS'] = '1'
const { Database } = await import('../../../../lib/index.js')
const { POOL_STATS, workerPool } = await import('../../../../lib/exec/parallel/pool.js')
const { PIECE_STATS } = await import('../../../../lib/exec/parallel/pieces.js')
const warm = await import('../../../../lib/exec/parallel/warm.js')
const { PHYSICAL_TUNING } = await import('../../../../lib/plan/physical/options.js')
const warmRows = (): number => warm.warmRows(PHYSICAL_TUNING.minRows)

const tick = () => new Promise((r) => setImmediate(r))

t.test('a database whose tables stay small starts no worker', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table small (ts timestamp, v long) timestamp(ts) partition by day')
  await db.query(`insert into small select x::timestamp, x from long_sequence(${warmRows() - 1})`)
  await db.query('select sum(v) from small')
  await tick()
  t.equal(POOL_STATS.pools, 0, 'no pool while every table is under the parallel threshold')
})

t.test('a table growing past the threshold starts the workers; the first big aggregation has a worker take pieces', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('create table big (ts timestamp, v long) timestamp(ts) partition by day')
  await db.query(`insert into big select (x * 1000000)::timestamp, x from long_sequence(${warmRows()})`)
  await tick()
  t.equal(POOL_STATS.pools, 1, 'the append that made the table large started the pool, before any parallel query')
  await workerPool()!.whenReady()
  t.equal(POOL_STATS.ready, 1, 'the worker said it is ready')
  await db.query('insert into big select (x * 1000000 + 500000)::timestamp, x from long_sequence(600000)')
  const before = { ...PIECE_STATS }
  const r = await db.query('select count(), sum(v) from big where v > 0')
  t.same(r.rows, [[warmRows() + 600000, warmRows() * (warmRows() + 1) / 2 + 600000 * 600001 / 2]])
  t.ok(PIECE_STATS.workers > before.workers, `the first parallel aggregation handed pieces to the worker (${PIECE_STATS.workers - before.workers} of ${PIECE_STATS.workers + PIECE_STATS.mine - before.workers - before.mine})`)
})

t.test('a durable database opened with a large table starts the workers at open', async (t) => {
  // the pool exists already in this process: what is checked is that open asks for it without an append
  const { mkdtempSync, rmSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const { TABLE_GROWTH } = await import('../../../../lib/storage/table-growth.js')
  const { warmWorkersFor } = await import('../../../../lib/exec/parallel/warm.js')
  const dir = mkdtempSync(join(tmpdir(), 'warm-pool-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  TABLE_GROWTH.reached = undefined
  warmWorkersFor(0, PHYSICAL_TUNING.minRows)
  t.ok(TABLE_GROWTH.reached !== undefined, 'a database without a large table waits for one to grow')
  TABLE_GROWTH.reached = undefined
  const db = await Database.open({ path: dir })
  await db.query('create table d (ts timestamp, v long) timestamp(ts) partition by day')
  await db.query(`insert into d select (x * 1000000)::timestamp, x from long_sequence(${warmRows()})`)
  await db.close()
  TABLE_GROWTH.reached = undefined
  const again = await Database.open({ path: dir })
  t.teardown(() => again.close())
  t.equal(TABLE_GROWTH.reached, undefined, 'opened with a large table: the pool is asked for at once, nothing is left waiting for growth')
})
