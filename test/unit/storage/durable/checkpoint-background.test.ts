/**
 * The checkpoint after a commit runs in the background, a column file per turn of the event loop:
 * queries are answered while it writes; writes, DDL and close arriving meanwhile see it finished
 * first; what a reopen reads is every acknowledged row.
 */
import t from 'tap'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../../../lib/index.js'
import { afterReopen, checkpointed, tmpDir } from '../helpers.js'

const HOUR = 3_600_000_000
const T0 = Date.UTC(2024, 0, 1) * 1000

/** 48 HOUR partitions of 8 columns (some 400 steps); every commit starts a checkpoint (`checkpointBytes: 1`). */
async function loaded(t: Parameters<typeof tmpDir>[0]): Promise<{ db: Database; dir: string; rows: number }> {
  const dir = tmpDir(t, 'epochdb-ckpt-bg-')
  const db = await Database.open({ path: dir, checkpointBytes: 1 })
  await db.query('create table t (ts timestamp, v long, a double, b double, c double, d double, e double, s symbol) timestamp(ts) partition by hour')
  const rows = 48 * 500
  const ts = Array.from({ length: rows }, (_, i) => T0 + Math.floor(i * (48 * HOUR) / rows))
  const v = Array.from({ length: rows }, (_, i) => i)
  const x = Array.from({ length: rows }, (_, i) => i / 2)
  await db.append('t', { ts, v, a: x, b: x, c: x, d: x, e: x, s: v.map((i) => `s${i % 7}`) })
  return { db, dir, rows }
}

const walBytes = (dir: string): number => statSync(join(dir, 'wal.log')).size

t.test('a query is answered while a large checkpoint runs, and the checkpoint then ends with every row on disk', async (t) => {
  const { db, dir, rows } = await loaded(t)
  t.ok(walBytes(dir) > 0, 'the commit is in the WAL')
  const answer = (await db.query('select count(), sum(v) from t')).rows
  t.same(answer, [[BigInt(rows), BigInt(rows * (rows - 1) / 2)]])
  t.ok(walBytes(dir) > 0, 'the query was answered before the checkpoint ended (the WAL is emptied at its end)')
  await checkpointed(dir)
  t.same((await db.query('select count(), sum(v) from t')).rows, answer)
  await db.close()
  t.same(await afterReopen(dir, 'select count(), sum(v), count_distinct(s) from t', 'select count() from table_partitions(\'t\')'), [[[BigInt(rows), BigInt(rows * (rows - 1) / 2), 7n]], [[48n]]])
})

t.test('an insert, DDL and an UPDATE arriving mid-checkpoint: each after it, nothing lost on reopen', async (t) => {
  const { db, dir, rows } = await loaded(t)
  // a write waits for the checkpoint, then goes to the WAL the checkpoint's end emptied
  const insert = db.query(`insert into t (ts, v) values (${T0 + 47 * HOUR + 1}, -1)`)
  // DDL finishes the checkpoint at once (it rewrites the table's files itself)
  await db.query('alter table t add column w double')
  await insert
  await db.query('update t set w = 1.5 where v between 0 and 9')
  t.same((await db.query('select count(), sum(w) from t')).rows, [[BigInt(rows + 1), 15]])
  await db.close()
  t.same(await afterReopen(dir, 'select count(), sum(w), min(v) from t'), [[[BigInt(rows + 1), 15, -1n]]])
})

t.test('close while a checkpoint runs finishes it; a reopen reads every row', async (t) => {
  const { db, dir, rows } = await loaded(t)
  t.ok(walBytes(dir) > 0)
  await db.close()
  t.equal(walBytes(dir), 0, 'closed with the checkpoint done')
  t.same(await afterReopen(dir, 'select count() from t'), [[[BigInt(rows)]]])
})
