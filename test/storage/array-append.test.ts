/**
 * In-order rows into the last partition of a table with a DOUBLE[] column are appended to its
 * files in place at each checkpoint (array layout 2, array-codec.ts), not rewritten with the
 * partition; a data directory whose array files are in layout 1 still opens and reads, and the
 * first checkpoint that adds rows to such a partition writes it anew in layout 2. Checked against
 * the same rows in an in-memory table; what was written is read from `_meta` and the files.
 */
import t from 'tap'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { unpack } from 'msgpackr'
import { Database } from '../../lib/index.js'
import { ARR_FILE_MAGIC, isArrFile2 } from '../../lib/storage/durable/array-codec.js'
import { afterReopen, tmpDir, toArrayLayout1 } from '../unit/storage/helpers.js'

const DDL = (name: string): string => `create table ${name} (ts timestamp, v long, a double[], m double[][]) timestamp(ts) partition by day`
const T0 = Date.UTC(2024, 0, 1) * 1000

/** Rows `from .. to - 1`, one a minute: arrays of varying length, some null, some empty. */
function batch(from: number, to: number): string {
  const rows: string[] = []
  for (let i = from; i < to; i++) {
    const a = i % 7 === 0 ? 'null' : i % 11 === 0 ? 'ARRAY[]::double[]' : `ARRAY[${Array.from({ length: 1 + (i % 5) }, (_, k) => i + k / 4).join(', ')}]`
    const m = i % 3 === 0 ? 'null' : `ARRAY[[${i}.5, 1.0], [2.0, ${-i}.0]]`
    rows.push(`(${T0 + i * 60_000_000}, ${i}, ${a}, ${m})`)
  }
  return rows.join(', ')
}

const QUERIES = (x: string): string[] => [
  `select count(), sum(v), sum(array_sum(a)), count(a), sum(array_count(a)), sum(array_sum(m)) from ${x}`,
  `select ts, v, a, m from ${x} order by ts desc limit 4`,
  `select ts, a from ${x} where ts in '2024-01-01T03'`,
]

/** The `_meta` partition entries of table `name`. */
function entries(dir: string, name: string): { name: string; dir: string; rows: number }[] {
  const d = readdirSync(dir).find((e) => e.startsWith(`${name}~`))!
  return (unpack(readFileSync(join(dir, d, '_meta'))) as { partitions: { name: string; dir: string; rows: number }[] }).partitions
}

function fileOf(dir: string, name: string, part: string, column: string): string {
  const d = readdirSync(dir).find((e) => e.startsWith(`${name}~`))!
  return join(dir, d, part, `${column}.d`)
}

t.test('array rows in order are appended to the last partition\'s files at each checkpoint; answers as in memory', async (t) => {
  const dir = tmpDir(t, 'epochdb-array-append-')
  const mem = await Database.open()
  t.teardown(() => mem.close())
  await mem.query(DDL('t'))
  let db = await Database.open({ path: dir })
  await db.query(DDL('t'))
  await db.query(`insert into t values ${batch(0, 100)}`)
  await mem.query(`insert into t values ${batch(0, 100)}`)
  await db.close()
  const first = entries(dir, 't')
  t.same(first.map((p) => p.rows), [100])
  const file = fileOf(dir, 't', first[0]!.dir, 'a')
  t.ok(isArrFile2(readFileSync(file)), 'written in layout 2')
  let size = statSync(file).size
  for (let round = 1; round <= 3; round++) {
    db = await Database.open({ path: dir })
    await db.query(`insert into t values ${batch(round * 100, round * 100 + 100)}`)
    await mem.query(`insert into t values ${batch(round * 100, round * 100 + 100)}`)
    await db.close()
    const now = entries(dir, 't')
    t.same(now.map((p) => [p.dir, p.rows]), [[first[0]!.dir, 100 * (round + 1)]], `round ${round}: the same directory, the rows appended`)
    const grown = statSync(file).size
    t.ok(grown > size, `round ${round}: the array file grew (${size} -> ${grown} bytes)`)
    const head = readFileSync(file).subarray(0, ARR_FILE_MAGIC.length)
    t.ok(isArrFile2(head), 'still layout 2')
    size = grown
  }
  const want: unknown[] = []
  for (const q of QUERIES('t')) want.push((await mem.query(q)).rows)
  t.same(await afterReopen(dir, ...QUERIES('t')), want, 'the same answers as in memory after a reopen')
  // an out-of-order batch into the appended partition cuts it (reads the rows after the cut by position)
  db = await Database.open({ path: dir })
  await db.query(`insert into t values (${T0 + 250 * 60_000_000 + 1}, -1, ARRAY[0.25], null)`)
  await mem.query(`insert into t values (${T0 + 250 * 60_000_000 + 1}, -1, ARRAY[0.25], null)`)
  const mid: unknown[] = []
  for (const q of QUERIES('t')) mid.push((await db.query(q)).rows)
  const memMid: unknown[] = []
  for (const q of QUERIES('t')) memMid.push((await mem.query(q)).rows)
  t.same(mid, memMid, 'after a late row: the same answers')
  await db.close()
  t.same(await afterReopen(dir, ...QUERIES('t')), memMid, 'and after its checkpoint and a reopen')
})

t.test('a data directory with array files in layout 1 opens and reads; the next checkpoint writes the partition in layout 2, then appends', async (t) => {
  const dir = tmpDir(t, 'epochdb-array-layout1-')
  const mem = await Database.open()
  t.teardown(() => mem.close())
  await mem.query(DDL('t'))
  let db = await Database.open({ path: dir })
  await db.query(DDL('t'))
  // two days: the first stays in layout 1 throughout
  await db.query(`insert into t values ${batch(0, 1500)}`)
  await mem.query(`insert into t values ${batch(0, 1500)}`)
  await db.close()
  t.equal(toArrayLayout1(dir, 't', 'a') + toArrayLayout1(dir, 't', 'm', 'DOUBLE[][]'), 4, 'both days\' array files in layout 1')
  const before = entries(dir, 't')
  t.notOk(isArrFile2(readFileSync(fileOf(dir, 't', before[1]!.dir, 'a'))), 'layout 1 on disk')
  const want: unknown[] = []
  for (const q of QUERIES('t')) want.push((await mem.query(q)).rows)
  t.same(await afterReopen(dir, ...QUERIES('t')), want, 'layout 1 read as before')
  db = await Database.open({ path: dir })
  await db.query(`insert into t values ${batch(1500, 1600)}`)
  await mem.query(`insert into t values ${batch(1500, 1600)}`)
  await db.close()
  const rewritten = entries(dir, 't')
  t.equal(rewritten[0]!.dir, before[0]!.dir, 'the first day untouched')
  t.not(rewritten[1]!.dir, before[1]!.dir, 'the last day written anew')
  t.ok(isArrFile2(readFileSync(fileOf(dir, 't', rewritten[1]!.dir, 'a'))), 'in layout 2')
  db = await Database.open({ path: dir })
  await db.query(`insert into t values ${batch(1600, 1700)}`)
  await mem.query(`insert into t values ${batch(1600, 1700)}`)
  await db.close()
  t.equal(entries(dir, 't')[1]!.dir, rewritten[1]!.dir, 'then appended to in place')
  const all: unknown[] = []
  for (const q of QUERIES('t')) all.push((await mem.query(q)).rows)
  t.same(await afterReopen(dir, ...QUERIES('t')), all, 'the same answers as in memory')
})
