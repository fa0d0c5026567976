/**
 * A large durable append does not hold the event loop for its whole commit: its WAL records are
 * written a few MiB per turn of the loop and its rows applied a slice per turn (store.ts
 * `commit`). Meanwhile another client's queries are answered, and never see part of the append;
 * DDL arriving mid-commit finishes it first; a write failure mid-group leaves nothing of it in the
 * WAL. Bounded: 1M rows of three columns (about 20 MB of WAL).
 */
import t from 'tap'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { injectFault } from '../../lib/storage/durable/io.js'
import { afterReopen, tmpDir } from '../unit/storage/helpers.js'

const ROWS = 1_000_000
const T0 = Date.UTC(2024, 0, 1) * 1000

async function opened(t: Parameters<typeof tmpDir>[0]): Promise<{ db: Database; dir: string }> {
  const dir = tmpDir(t, 'epochdb-commit-loop-')
  // no checkpoint during the test: what is measured is the commit
  const db = await Database.open({ path: dir, checkpointBytes: 1 << 30 })
  await db.query('create table t (ts timestamp, v double, s symbol) timestamp(ts) partition by day')
  await db.append('t', { ts: [T0], v: [0], s: ['a'] })
  return { db, dir }
}

function batch(from: number): Record<string, ArrayLike<unknown>> {
  const ts = new Float64Array(ROWS)
  const v = new Float64Array(ROWS)
  for (let i = 0; i < ROWS; i++) { ts[i] = T0 + (from + i) * 1000; v[i] = 1 }
  return { ts, v, s: Array.from({ length: ROWS }, (_, i) => `s${i % 50}`) }
}

const walBytes = (dir: string): number => statSync(join(dir, 'wal.log')).size

t.test('while a large append commits, the loop turns, queries are answered, and none sees part of it', async (t) => {
  const { db, dir } = await opened(t)
  const data = batch(1)
  const sizes = new Set<number>()
  const counts: bigint[] = []
  let committing = true
  let gap = 0
  let last = performance.now()
  // every turn of the loop: the WAL's size, and a query now and then
  let turns = 0
  const poll = (): void => {
    if (!committing) return
    const now = performance.now()
    gap = Math.max(gap, now - last)
    last = now
    turns++
    sizes.add(walBytes(dir))
    if (turns % 2 === 0) void db.query('select count() from t').then((r) => { if (committing) counts.push(r.rows[0]![0] as bigint) })
    setImmediate(poll)
  }
  const before = walBytes(dir)
  setImmediate(poll)
  await db.append('t', data)
  committing = false
  const after = walBytes(dir)
  const between = [...sizes].filter((s) => s > before && s < after)
  t.ok(between.length >= 3, `the WAL grew over several turns of the loop (sizes seen between ${before} and ${after}: ${between.length})`)
  t.ok(counts.length > 0, `queries were answered while the append committed (${counts.length})`)
  t.same([...new Set(counts)].filter((c) => c !== 1n && c !== BigInt(ROWS + 1)), [], 'every answer saw all of the append or none of it')
  t.ok(gap < 20_000, `the loop never froze (longest turn ${gap.toFixed(0)} ms)`)
  t.same((await db.query('select count(), sum(v), count_distinct(s) from t')).rows, [[BigInt(ROWS + 1), ROWS, 51n]])
  await db.close()
  t.same(await afterReopen(dir, 'select count(), sum(v) from t'), [[[BigInt(ROWS + 1), ROWS]]])
})

t.test('DDL arriving mid-commit finishes the commit first; nothing is lost', async (t) => {
  const { db, dir } = await opened(t)
  const append = db.append('t', batch(1))
  // a turn later the commit is writing its WAL records (or applying them)
  await new Promise((r) => setImmediate(r))
  await db.query('alter table t add column w long')
  await append
  t.same((await db.query('select count(), sum(v), count(w) from t')).rows, [[BigInt(ROWS + 1), ROWS, 0n]])
  await db.append('t', { ts: [T0 + (ROWS + 1) * 1000], v: [5], w: [7] })
  await db.close()
  t.same(await afterReopen(dir, 'select count(), sum(v), sum(w) from t'), [[[BigInt(ROWS + 2), ROWS + 5, 7n]]])
})

t.test('a write failure in the middle of a large append: it is refused, the WAL cut back, later appends work', async (t) => {
  const { db, dir } = await opened(t)
  const before = walBytes(dir)
  // the first WAL writes go through, a later one fails (the disk filled up mid-append)
  let writes = 0
  const restore = injectFault(['writeSync'], 'ENOSPC', () => ++writes > 2)
  let err: unknown
  try {
    err = await db.append('t', batch(1)).catch((e: unknown) => e)
  } finally {
    restore()
  }
  t.match(err, { code: '53100' }, 'the append is refused: the disk is full')
  t.ok(writes > 2, 'it failed after some of its records were written')
  t.equal(walBytes(dir), before, 'none of its records stay in the WAL')
  t.same((await db.query('select count() from t')).rows, [[1n]], 'none of its rows are visible')
  await db.append('t', { ts: [T0 + 5000], v: [2], s: ['b'] })
  await db.close()
  t.same(await afterReopen(dir, 'select count(), sum(v) from t'), [[[2n, 2]]])
})
