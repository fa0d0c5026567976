/**
 * Statements that replace or drop a durable table's files (DROP PARTITION, UPDATE, TRUNCATE,
 * DROP TABLE) remove the old directories on the thread pool, not on the event loop: unlinking a
 * large partition's files that were written back to disk took ~290 ms per 512 MB on this
 * machine. Checked by counting the blocking removals of existing paths made by the statements:
 * none. The old directories leave the table directory at once (moved to the trash, so a reader
 * listing it, e.g. DuckDB globbing its Parquet files, never sees them) and are gone soon after —
 * once the retired partitions that held them for statements still reading are garbage collected
 * (retired-dirs.ts; the test collects garbage while it waits); a reopen reads the same rows.
 * Bounded: a few thousand rows.
 */
import t from 'tap'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { io } from '../../lib/storage/durable/io.js'
import { afterReopen, checkpointed, tmpDir } from '../unit/storage/helpers.js'

const HOUR = 3_600_000_000
const T0 = Date.UTC(2024, 0, 1) * 1000
const ROWS = 6_000

function rows(): Record<string, unknown[]> {
  const ts = Array.from({ length: ROWS }, (_, i) => T0 + Math.floor(i * (6 * HOUR) / ROWS))
  const v = Array.from({ length: ROWS }, (_, i) => i)
  return { ts, v, s: v.map((i) => `s${i % 9}`) }
}

/** Counts the blocking removals of paths that exist, until the returned function restores `io.rmSync`. */
function countBlockingRemovals(): () => number {
  const { rmSync } = io
  let n = 0
  // (a removal of a path that does not exist costs nothing: writing a partition clears its directory's name first)
  io.rmSync = (path) => { if (existsSync(path)) n++; rmSync(path) }
  return () => { io.rmSync = rmSync; return n }
}

// a directory a retired partition holds goes when the partition is collected: garbage is collected while waiting
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

/** Waits (bounded) until `gone()` holds, collecting garbage meanwhile. */
async function eventually(gone: () => boolean): Promise<boolean> {
  for (let i = 0; i < 200 && !gone(); i++) { gc(); await new Promise((r) => setTimeout(r, 25)) }
  return gone()
}

const tableDirOf = (dir: string, prefix: string): string => join(dir, readdirSync(dir).find((e) => e.startsWith(`${prefix}~`))!)
const partitionsOf = (tdir: string): string[] => readdirSync(tdir).filter((e) => /^\d{4}-/.test(e))

t.test('DROP PARTITION, UPDATE, TRUNCATE and DROP TABLE remove the old directories off the main thread', async (t) => {
  const dir = tmpDir(t, 'epochdb-remove-later-')
  // every commit checkpoints: the rows are in partition directories before the statements run
  const db = await Database.open({ path: dir, checkpointBytes: 1 })
  await db.query('create table t (ts timestamp, v long, s symbol index) timestamp(ts) partition by hour')
  await db.query('create table u (ts timestamp, v long) timestamp(ts) partition by hour')
  await db.append('t', rows())
  await checkpointed(dir)
  await db.append('u', { ts: rows().ts!, v: rows().v! })
  await checkpointed(dir)
  const tdir = tableDirOf(dir, 't')
  const udir = tableDirOf(dir, 'u')
  t.equal(partitionsOf(tdir).length, 6)
  const steps: [string, bigint, (before: string[]) => boolean][] = [
    ["alter table t drop partition list '2024-01-01T00'", BigInt(ROWS * 5 / 6), () => !partitionsOf(tdir).some((p) => p.startsWith('2024-01-01T00'))],
    // every partition keeps its directory and gets new files for v: the old ones left
    ['update t set v = v + 1', BigInt(ROWS * 5 / 6), (before) => partitionsOf(tdir).join() === before.join() && before.every((p) => !readdirSync(join(tdir, p)).includes('v.d'))],
    ['truncate table t', 0n, () => partitionsOf(tdir).length === 0],
  ]
  for (const [sql, count, gone] of steps) {
    const before = partitionsOf(tdir)
    const restore = countBlockingRemovals()
    try { await db.query(sql) } finally { t.equal(restore(), 0, `${sql}: no blocking removal`) }
    t.same((await db.query('select count() from t')).rows, [[count]], `${sql}: answers`)
    t.ok(gone(before), `${sql}: the old directories (or files) left the table directory at once`)
    t.ok(await eventually(() => readdirSync(join(dir, '_trash')).length === 0), `${sql}: and are removed soon after`)
  }
  const restore = countBlockingRemovals()
  try { await db.query('drop table u') } finally { t.equal(restore(), 0, 'drop table: no blocking removal') }
  t.notOk(existsSync(udir), 'the table directory left its place at once')
  t.ok(await eventually(() => readdirSync(join(dir, '_trash')).length === 0), 'and the trash is emptied soon after')
  await db.append('t', { ts: [T0], v: [7], s: ['a'] })
  await db.close()
  t.same(await afterReopen(dir, 'select count(), sum(v) from t', "select count() from tables() where table_name = 'u'"), [[[1n, 7n]], [[0n]]])
})
