/**
 * An out-of-order commit after a checkpoint reads only the tail (FilePart.cut) also of partitions
 * with an array column (header records and elements read by position: array-rows.ts) and of
 * partitions whose columns changed since they were written (ADD COLUMN: no file, nulls; RENAME
 * COLUMN and UPDATE: files named otherwise in the `_meta` entry; DROP COLUMN: a dropped file left).
 * Checked against a table that got the same statements with every row in order: answers before
 * and after the checkpoint and a reopen; what was read is counted (STORAGE_STATS), not timed.
 */
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { unpack } from 'msgpackr'
import { Database } from '../../lib/index.js'
import { DoubleArray } from '../../lib/types/array.js'
import { STORAGE_STATS } from '../../lib/storage/durable/part-cache.js'
import { afterReopen, tmpDir } from '../unit/storage/helpers.js'

const DAY = 86_400_000_000
const HOUR = 3_600_000_000
const T0 = Date.UTC(2024, 0, 1) * 1000
const N = 20_000
const STEP = Math.floor((2 * DAY) / N)

/** The partition names and row counts in table `name`'s `_meta` (a name repeats for a partition in parts). */
function parts(dir: string, name: string): [string, number][] {
  const d = readdirSync(dir).find((e) => e.startsWith(`${name}~`))!
  return (unpack(readFileSync(join(dir, d, '_meta'))) as { partitions: { name: string; rows: number }[] }).partitions.map((p) => [p.name, p.rows])
}

/** A late stream: the odd rows from `from` on. */
function split(from: number): { all: number[]; first: number[]; late: number[] } {
  const all = Array.from({ length: N }, (_, i) => T0 + i * STEP)
  const late = all.filter((x, i) => x >= from && i % 2 === 1)
  const set = new Set(late)
  return { all, first: all.filter((x) => !set.has(x)), late }
}

/** Runs `queries` on tables o and i of `db`: both answers. */
async function both(db: Database, queries: (x: string) => string[]): Promise<[unknown[], unknown[]]> {
  const o: unknown[] = [], i: unknown[] = []
  for (const q of queries('o')) o.push((await db.query(q)).rows)
  for (const q of queries('i')) i.push((await db.query(q)).rows)
  return [o, i]
}

t.test('a partition with an array column: a late batch reads only the tail, arrays included; the first part reads the first rows of its files', async (t) => {
  const dir = tmpDir(t, 'epochdb-o3-tail-cols-')
  const ddl = (x: string): string => `create table ${x} (ts timestamp, v long, a double[], b double[][], s string) timestamp(ts) partition by day`
  const rows = (ts: number[]): Record<string, unknown[]> => ({
    ts,
    v: ts.map((x) => (x - T0) / 1000),
    a: ts.map((x) => { const k = Math.floor((x - T0) / STEP) % 5; return k === 0 ? null : new DoubleArray([k - 1], Float64Array.from({ length: k - 1 }, (_, j) => x / 1e12 + j)) }),
    b: ts.map((x) => (Math.floor((x - T0) / STEP) % 3 === 0 ? new DoubleArray([2, 1], Float64Array.of(1, (x - T0) / STEP)) : null)),
    s: ts.map((x) => `s${x % 101}`),
  })
  const queries = (x: string): string[] => [
    `select count(), sum(v), round(sum(array_sum(a)), 3), count(a), sum(array_sum(b)), count(b), sum(length(s)) from ${x}`,
    `select ts, v, a, b from ${x} where ts >= '2024-01-02T19:58' and ts < '2024-01-02T20:03' order by ts`,
    `select ts, a, b from ${x} order by ts desc limit 3`,
    `select count() from (select ts, lag(ts) over () prev from ${x}) where ts < prev`,
  ]
  const { all, first, late } = split(T0 + DAY + 20 * HOUR)
  let db = await Database.open({ path: dir })
  await db.query(ddl('o'))
  await db.query(ddl('i'))
  await db.append('o', rows(first))
  await db.append('i', rows(all))
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  const loads = STORAGE_STATS.columnLoads
  const tail = STORAGE_STATS.tailRows
  await db.append('o', rows(late))
  t.equal(STORAGE_STATS.columnLoads - loads, 0, 'no whole column of the day was read')
  const read = STORAGE_STATS.tailRows - tail
  t.ok(read > 0 && read <= 5 * (N / 2 / 6 + 10), `only the rows from the first late one on were read (${read} column rows)`)
  let [o, i] = await both(db, queries)
  t.same(o, i, 'before the checkpoint: the answers of the rows in order')
  await db.close()
  t.same(parts(dir, 'o').map((p) => p[0]), ['2024-01-01', '2024-01-02', '2024-01-02'], 'the late day is in two parts')
  t.same(await afterReopen(dir, ...queries('o')), i, 'after the checkpoint and a reopen (the first part reads the first rows of files holding more)')
  // a row late again, into the first part: that part is cut in turn (its files hold more rows than it)
  db = await Database.open({ path: dir })
  const again = [T0 + DAY + 10 * HOUR + STEP / 2]
  await db.append('o', rows(again))
  await db.append('i', rows(again));
  [o, i] = await both(db, queries)
  t.same(o, i, 'a late row into the first part: the same answers')
  await db.close()
  t.same(parts(dir, 'o').map((p) => p[0]), ['2024-01-01', '2024-01-02', '2024-01-02'], 'still two parts (the second moved whole with the first one\'s tail)')
  t.same(await afterReopen(dir, ...queries('o')), i, 'and after a reopen')
  db = await Database.open({ path: dir })
})

t.test('a partition whose columns changed since it was written (ADD, RENAME, DROP COLUMN, UPDATE): a late batch reads only the tail', async (t) => {
  const dir = tmpDir(t, 'epochdb-o3-tail-cols-')
  const ddl = (x: string): string => `create table ${x} (ts timestamp, v long, d double, s string, y symbol index) timestamp(ts) partition by day`
  const rows = (ts: number[]): Record<string, unknown[]> => ({
    ts, v: ts.map((x) => (x - T0) / 1000), d: ts.map((x) => (x % 977) / 4), s: ts.map((x) => (x % 11 === 0 ? null : `s${x % 1009}`)), y: ts.map((x) => `k${x % 7}`),
  })
  const { all, first, late } = split(T0 + DAY + 20 * HOUR)
  let db = await Database.open({ path: dir })
  await db.query(ddl('o'))
  await db.query(ddl('i'))
  await db.append('o', rows(first))
  await db.append('i', rows(all))
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  for (const x of ['o', 'i']) {
    await db.query(`alter table ${x} add column n int`)
    await db.query(`alter table ${x} rename column d to dd`)
    await db.query(`alter table ${x} drop column s`)
    // rows before the late ones: the day's v gets a file of another name
    await db.query(`update ${x} set v = -v where ts < '2024-01-02T12'`)
  }
  await db.close()
  db = await Database.open({ path: dir })
  const queries = (x: string): string[] => [
    `select count(), sum(v), sum(dd), count(n), min(ts), max(ts) from ${x}`,
    `select y, count(), sum(v) from ${x} where y = 'k3' group by y`,
    `select ts, v, dd, y, n from ${x} where ts >= '2024-01-02T19:50' and ts < '2024-01-02T20:10' order by ts`,
    `select count() from (select ts, lag(ts) over () prev from ${x}) where ts < prev`,
    `select name, numRows from table_partitions('${x}')`,
  ]
  const loads = STORAGE_STATS.columnLoads
  const tail = STORAGE_STATS.tailRows
  const r = rows(late)
  await db.append('o', { ts: r['ts']!, v: r['v']!, dd: r['d']!, y: r['y']!, n: late.map(() => null) })
  t.equal(STORAGE_STATS.columnLoads - loads, 0, 'no whole column of the day was read')
  const read = STORAGE_STATS.tailRows - tail
  t.ok(read > 0 && read <= 4 * (N / 2 / 6 + 10), `only the rows from the first late one on were read (${read} column rows)`)
  const [o, i] = await both(db, queries)
  t.same(o, i, 'before the checkpoint: the answers of the rows in order')
  await db.close()
  t.same(parts(dir, 'o').map((p) => p[0]), ['2024-01-01', '2024-01-02', '2024-01-02'], 'the late day is in two parts')
  t.same(await afterReopen(dir, ...queries('o')), i, 'after the checkpoint and a reopen: the same answers')
  // a column added after the cut, and a row late again
  db = await Database.open({ path: dir })
  for (const x of ['o', 'i']) {
    await db.query(`alter table ${x} add column m double`)
    await db.query(`insert into ${x} (ts, v, dd, y, n, m) values ('2024-01-02T21:00:00.000001Z', 7, 1.5, 'k3', 4, 2.5)`)
  }
  const [o2, i2] = await both(db, queries)
  t.same(o2, i2, 'ADD COLUMN over a day in parts, then a late row: the same answers')
  await db.close()
  t.same(await afterReopen(dir, ...queries('o')), i2, 'and after a reopen')
  db = await Database.open({ path: dir })
})

t.test('the first part of a cut partition loses the bytes after its rows when the directory is next opened (arrays too); answers unchanged', async (t) => {
  const dir = tmpDir(t, 'epochdb-o3-tail-cols-')
  const ddl = (x: string): string => `create table ${x} (ts timestamp, v long, s string, a double[]) timestamp(ts) partition by day`
  const rows = (ts: number[]): Record<string, unknown[]> => ({
    ts, v: ts.map((x) => (x - T0) / 1000), s: ts.map((x) => (x % 3 === 0 ? null : `s${x % 1009}`)), a: ts.map((x) => new DoubleArray([1], Float64Array.of(x / 1e9))),
  })
  const queries = (x: string): string[] => [
    `select count(), sum(v), sum(length(s)), round(sum(array_sum(a)), 3) from ${x}`,
    `select ts, v, s, a from ${x} where ts >= '2024-01-02T19:59' and ts < '2024-01-02T20:01' order by ts`,
  ]
  const { all, first, late } = split(T0 + DAY + 20 * HOUR)
  let db = await Database.open({ path: dir })
  await db.query(ddl('o'))
  await db.query(ddl('i'))
  await db.append('o', rows(first))
  await db.append('i', rows(all))
  await db.close()
  db = await Database.open({ path: dir })
  await db.append('o', rows(late))
  await db.close()
  const tdir = join(dir, readdirSync(dir).find((e) => e.startsWith('o~'))!)
  const recorded = (unpack(readFileSync(join(tdir, '_meta'))) as { partitions: { dir: string; rows: number; bytes: number }[] }).partitions
  const before = recorded[1]!
  const size = (f: string): number => statSync(join(tdir, before.dir, f)).size
  t.ok(size('v.d') > before.rows * 8, 'after the checkpoint the first part\'s files still hold the rows after it')
  const arrays = [size('a.d'), size('a.o')]
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.equal(size('v.d'), before.rows * 8, 'a fixed-width file is cut to the part\'s rows')
  t.equal(size('s.o'), before.rows * 8, 'a var-size column\'s offsets too')
  t.ok(size('s.d') < before.bytes, 'and its data')
  // layout 2: the 8-byte marker, then each row's 8-byte record and its one element
  t.same([size('a.d'), size('a.o')], [8 + before.rows * 16, before.rows * 8], 'array files too, after the last row\'s elements')
  t.ok(arrays[0]! > size('a.d') && arrays[1]! > size('a.o'), `they held more (${arrays.join(', ')} bytes)`)
  const shown = await db.query("select diskSize from table_partitions('o') where name = '2024-01-02'")
  const [o, i] = await both(db, queries)
  t.same(o, i, 'answers as the rows in order')
  await db.close()
  const was = before.bytes + recorded[2]!.bytes
  const now = Number(shown.rows[0]![0])
  t.ok(now > 0 && now < was, `SHOW PARTITIONS reports the day's size without them (${was} -> ${now} bytes)`)
  t.same(await afterReopen(dir, ...queries('o')), i, 'and after another reopen')
  db = await Database.open({ path: dir })
})
