/**
 * A partition kept in parts by an out-of-order merge (FilePart.cut, o3-tail.test.ts) under the
 * column changes that rewrite no partition (ADD, RENAME, DROP COLUMN: `files` / `dropped` in a
 * partition's `_meta` entry) and an UPDATE that writes only the columns it changes: every step
 * answers as the same statements over the same rows kept in one part, and so does a reopen.
 */
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { unpack } from 'msgpackr'
import { Database } from '../../lib/index.js'
import { afterReopen, tmpDir } from '../unit/storage/helpers.js'

const DAY = 86_400_000_000
const T0 = Date.UTC(2024, 0, 1) * 1000
const N = 20_000
const STEP = Math.floor((2 * DAY) / N)

const DDL = (name: string): string => `create table ${name} (ts timestamp, v long, d double, s string, y symbol index) timestamp(ts) partition by day`

/** Rows with timestamps `ts`: values a function of the timestamp. */
function rows(ts: number[]): Record<string, unknown[]> {
  return { ts, v: ts.map((x) => (x - T0) / 1000), d: ts.map((x) => (x % 977) / 4), s: ts.map((x) => (x % 11 === 0 ? null : `s${x % 1009}`)), y: ts.map((x) => `k${x % 7}`) }
}

/** The partition names in table `name`'s `_meta` (a name repeats for a partition in parts). */
function partNames(dir: string, name: string): string[] {
  const d = readdirSync(dir).find((e) => e.startsWith(`${name}~`))!
  return (unpack(readFileSync(join(dir, d, '_meta'))) as { partitions: { name: string }[] }).partitions.map((p) => p.name)
}

t.test('ADD / RENAME / DROP COLUMN, UPDATE and more rows over a partition in parts answer as over one part', async (t) => {
  const dir = tmpDir(t, 'epochdb-o3-tail-alter-')
  let db = await Database.open({ path: dir })
  await db.query(DDL('o'))
  await db.query(DDL('i'))
  const all = Array.from({ length: N }, (_, i) => T0 + i * STEP)
  const late = all.filter((x, i) => x >= T0 + DAY + 18 * 3_600_000_000 && i % 2 === 1)
  const first = all.filter((x) => !late.includes(x))
  await db.append('o', rows(first))
  await db.append('i', rows(all))
  await db.close()
  db = await Database.open({ path: dir })
  await db.append('o', rows(late))
  await db.close()
  t.same(partNames(dir, 'o'), ['2024-01-01', '2024-01-02', '2024-01-02'], 'the late day is in two parts')
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())

  const queries = (x: string, cols: string): string[] => [
    `select ${cols} from ${x} order by ts`,
    `select count(), min(ts), max(ts) from ${x}`,
    `select name, numRows from table_partitions('${x}')`,
  ]
  const same = async (what: string, cols: string): Promise<void> => {
    const o: unknown[] = [], i: unknown[] = []
    for (const q of queries('o', cols)) o.push((await db.query(q)).rows)
    for (const q of queries('i', cols)) i.push((await db.query(q)).rows)
    t.same(o, i, what)
  }
  const both = async (sql: (x: string) => string): Promise<void> => {
    await db.query(sql('o'))
    await db.query(sql('i'))
  }

  await both((x) => `alter table ${x} add column z int`)
  await both((x) => `update ${x} set z = v % 13 where ts in '2024-01-02'`)
  await same('ADD COLUMN then UPDATE of the new column', 'ts, v, d, s, y, z')
  await both((x) => `alter table ${x} rename column d to dd`)
  await both((x) => `update ${x} set dd = dd * 2 where v % 3 = 0`)
  await same('RENAME COLUMN then UPDATE of it', 'ts, v, dd, s, y, z')
  await both((x) => `alter table ${x} drop column s`)
  await same('DROP COLUMN', 'ts, v, dd, y, z')
  // in order at the end of the day in parts, then late again into it, then the next day
  const end = T0 + 2 * DAY - 1
  await db.append('o', { ts: [end - 10, end], v: [1, 2], dd: [0.5, 1.5], y: ['k1', 'k2'], z: [7, null] })
  await db.append('i', { ts: [end - 10, end], v: [1, 2], dd: [0.5, 1.5], y: ['k1', 'k2'], z: [7, null] })
  await db.append('o', { ts: [T0 + DAY + 19 * 3_600_000_000 + 1], v: [3], dd: [2.5], y: ['k3'], z: [8] })
  await db.append('i', { ts: [T0 + DAY + 19 * 3_600_000_000 + 1], v: [3], dd: [2.5], y: ['k3'], z: [8] })
  await same('rows in order and late after the changes', 'ts, v, dd, y, z')
  await db.close()
  const want: unknown[] = []
  db = await Database.open({ path: dir })
  for (const q of queries('i', 'ts, v, dd, y, z')) want.push((await db.query(q)).rows)
  await db.close()
  t.same(await afterReopen(dir, ...queries('o', 'ts, v, dd, y, z')), want, 'after a checkpoint and a reopen')
  db = await Database.open({ path: dir })
  const next = { ts: [T0 + 2 * DAY + 5, T0 + DAY + 20 * 3_600_000_000 + 3], v: [4, 5], dd: [3.5, 4.5], y: ['k4', 'k5'], z: [9, 10] }
  await db.append('o', next)
  await db.append('i', next)
  await same('a new day and a late row after the reopen', 'ts, v, dd, y, z')
})
