/**
 * An out-of-order commit after a checkpoint reads only the rows of the partition from its first
 * out-of-order timestamp on (FilePart.cut): the rows before stay in their files as a part of their
 * own, and the checkpoint writes the merged rows as the partition's next part (QuestDB's partition
 * split). Checked against the same rows in order: answers, SHOW PARTITIONS, a reopen; what was
 * read is counted (STORAGE_STATS), not timed.
 */
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { unpack } from 'msgpackr'
import { Database } from '../../lib/index.js'
import { STORAGE_STATS } from '../../lib/storage/durable/part-cache.js'
import { afterReopen, tmpDir } from '../unit/storage/helpers.js'
import { ColumnBuffer } from '../../lib/storage/column-buffer.js'

const DAY = 86_400_000_000
const T0 = Date.UTC(2024, 0, 1) * 1000
const N = 40_000

const DDL = (name: string): string => `create table ${name} (ts timestamp, v long, d double, s string, y symbol index) timestamp(ts) partition by day`

/** Rows with timestamps `ts`: values a function of the timestamp. */
function rows(ts: number[]): Record<string, unknown[]> {
  return { ts, v: ts.map((x) => (x - T0) / 1000), d: ts.map((x) => (x % 977) / 4), s: ts.map((x) => (x % 11 === 0 ? null : `s${x % 1009}`)), y: ts.map((x) => `k${x % 7}`) }
}

const QUERIES = (x: string): string[] => [
  `select count(), sum(v), sum(d), count(s), sum(length(s)), min(ts), max(ts) from ${x}`,
  `select count() from (select ts, lag(ts) over () prev from ${x}) where ts < prev`,
  `select y, count(), sum(v) from ${x} where y = 'k3' group by y`,
  `select ts, v, s, y from ${x} where ts in '2024-01-02T20' order by ts limit 5`,
  `select name, numRows from table_partitions('${x}')`,
]

/** The `_meta` partition entries of table `name` in data directory `dir`. */
function entries(dir: string, name: string): { name: string; dir: string; rows: number }[] {
  const d = readdirSync(dir).find((e) => e.startsWith(`${name}~`))!
  return (unpack(readFileSync(join(dir, d, '_meta'))) as { partitions: { name: string; dir: string; rows: number }[] }).partitions
}

t.test('a late batch into the last hours of a checkpointed day reads only those hours; the day becomes two parts; answers as in order', async (t) => {
  const dir = tmpDir(t, 'epochdb-o3-tail-')
  let db = await Database.open({ path: dir })
  await db.query(DDL('o'))
  await db.query(DDL('i'))
  // two days in order, every 4.32 s (the second day's even rows only, the odd ones come late)
  const step = Math.floor((2 * DAY) / N)
  const all = Array.from({ length: N }, (_, i) => T0 + i * step)
  const late = all.filter((x, i) => x >= T0 + DAY + 20 * 3_600_000_000 && i % 2 === 1)
  const first = all.filter((x) => !late.includes(x))
  await db.append('o', rows(first))
  await db.append('i', rows(all))
  await db.close()
  const dayDir = entries(dir, 'o')[1]!.dir
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())

  const loads = STORAGE_STATS.columnLoads
  const tailRows = STORAGE_STATS.tailRows
  await db.append('o', rows(late))
  t.equal(STORAGE_STATS.columnLoads - loads, 0, 'no whole column of the day was read')
  const dayRows = first.filter((x) => x >= T0 + DAY).length
  const read = STORAGE_STATS.tailRows - tailRows
  // 5 columns, the last 4 of 24 hours and a row before
  t.ok(read > 0 && read <= 5 * (dayRows / 5 + 10), `only the rows from the first late one on were read (${read} column rows of ${5 * dayRows})`)
  const [o, i] = [[] as unknown[], [] as unknown[]]
  for (const q of QUERIES('o')) o.push((await db.query(q)).rows)
  for (const q of QUERIES('i')) i.push((await db.query(q)).rows)
  t.same(o, i, 'before the checkpoint: the same answers as the rows in order')
  await db.close()
  const parts = entries(dir, 'o')
  t.same(parts.map((p) => p.name), ['2024-01-01', '2024-01-02', '2024-01-02'], 'the late day is in two parts')
  t.equal(parts[1]!.dir, dayDir, 'its first part kept its directory')
  t.ok(parts[2]!.dir !== dayDir, 'the rest is in a new one')
  t.same(await afterReopen(dir, ...QUERIES('o')), i, 'after the checkpoint and a reopen: the same answers')
  db = await Database.open({ path: dir })
})

t.test('the rows a late batch moves to memory are copied once, into the merged rows (not into a moved version first)', async (t) => {
  const dir = tmpDir(t, 'epochdb-o3-copies-')
  for (const dedup of [false, true]) {
    let db = await Database.open({ path: dir })
    const name = dedup ? 'd' : 'n'
    await db.query(`create table ${name} (ts timestamp, v long, d double) timestamp(ts) partition by day${dedup ? ' wal dedup upsert keys(ts)' : ''}`)
    const n = 20_000
    const tail = 2_000
    const step = 1_000_000
    const stamps = Array.from({ length: n }, (_, i) => T0 + i * step * 2)
    await db.append(name, { ts: stamps, v: stamps.map((_, i) => i), d: stamps.map((_, i) => i / 2) })
    await db.close()
    db = await Database.open({ path: dir })
    // 100 late rows among the last 2,000 (odd timestamps: no row is replaced)
    const late = Array.from({ length: 100 }, (_, i) => T0 + (n - tail + 20 * i) * step * 2 + step)
    // rows appended to column buffers meanwhile (a merge's gather counts once, not again for its runs)
    let copied = 0
    let depth = 0
    const proto = ColumnBuffer.prototype as unknown as Record<string, (...a: unknown[]) => unknown>
    const saved = new Map<string, (...a: unknown[]) => unknown>()
    const rowsOf: Record<string, (a: unknown[]) => number> = {
      appendRange: (a) => (a[2] as number) - (a[1] as number),
      appendGathered: (a) => a[3] as number,
      appendMerged: (a) => a[3] as number,
      permuted: (a) => a[1] as number,
    }
    for (const [k, count] of Object.entries(rowsOf)) {
      const f = proto[k]!
      saved.set(k, f)
      proto[k] = function (this: unknown, ...a: unknown[]) {
        if (depth === 0) copied += count(a)
        depth++
        try { return f.apply(this, a) } finally { depth-- }
      }
    }
    try {
      await db.append(name, { ts: late, v: late.map(() => -1), d: late.map(() => -1) })
    } finally {
      for (const [k, f] of saved) proto[k] = f
    }
    // the cut falls after the last row not after the oldest late one: the last tail - 1 rows move
    const moved = tail - 1 + late.length
    // a copy into the merged rows: 3 columns × (tail + late); DEDUP sorts a staged copy (× 2); the thaw's copy came on top
    const once = 3 * moved * (dedup ? 2 : 1)
    t.ok(copied >= 3 * moved && copied <= once + 3 * late.length, `${dedup ? 'DEDUP: ' : ''}${copied} column rows copied for ${moved} rows × 3 columns (at most ${once + 3 * late.length})`)
    const r = await db.query(`select count(), sum(v), min(ts), max(ts) from ${name}`)
    t.same(r.rows[0]!.slice(0, 2), [BigInt(n + late.length), BigInt((n * (n - 1)) / 2 - late.length)], 'every row once')
    await db.close()
  }
})

t.test('two interleaved streams through many checkpoints: parts per day stay bounded, the rows read back in order', async (t) => {
  const dir = tmpDir(t, 'epochdb-o3-tail-')
  let db = await Database.open({ path: dir, checkpointBytes: 1 })
  await db.query(DDL('o'))
  await db.query(DDL('i'))
  const per = 500
  for (let b = 0; b < 40; b++) {
    const a = Array.from({ length: per }, (_, i) => T0 + (2 * (b * per + i)) * 1_000_000)
    const c = a.map((x) => x + 1_000_000)
    // stream a's batch is committed (and checkpointed) before stream c's, which lands among its rows
    await db.append('o', rows(a))
    await db.append('o', rows(c))
    await db.append('i', rows(a.flatMap((x, i) => [x, c[i]!])))
  }
  await db.close()
  const parts = entries(dir, 'o')
  t.ok(parts.length > 1 && parts.length <= 16, `the day is in a bounded number of parts (${parts.length})`)
  const [o, i] = [await afterReopen(dir, ...QUERIES('o')), await afterReopen(dir, ...QUERIES('i'))]
  t.same(o, i, 'the same answers as the rows in order')
  t.same(o[1], [[0n]], 'in timestamp order')
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  // a late row before the first part of the day: every part from it moves, in order
  await db.append('o', rows([T0 + 1000]))
  await db.append('i', rows([T0 + 1000]))
  t.same((await db.query(QUERIES('o')[0]!)).rows, (await db.query(QUERIES('i')[0]!)).rows)
  t.same((await db.query(QUERIES('o')[1]!)).rows, [[0n]])
})

t.test('CONVERT PARTITION of a day in two parts writes it as one Parquet file, and back; answers unchanged', async (t) => {
  const dir = tmpDir(t, 'epochdb-o3-tail-')
  let db = await Database.open({ path: dir })
  await db.query(DDL('o'))
  await db.query(DDL('i'))
  const all = Array.from({ length: 6000 }, (_, i) => T0 + DAY + i * 10_000_000)
  const late = all.filter((_, i) => i >= 5000 && i % 3 === 0)
  await db.append('o', rows(all.filter((_, i) => !(i >= 5000 && i % 3 === 0))))
  await db.append('i', rows(all))
  await db.close()
  db = await Database.open({ path: dir })
  await db.append('o', rows(late))
  await db.close()
  t.same(entries(dir, 'o').map((p) => p.name), ['2024-01-02', '2024-01-02'], 'the day is in two parts')
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  const want: unknown[] = []
  for (const q of QUERIES('i')) want.push((await db.query(q)).rows)
  await db.query(`ALTER TABLE o CONVERT PARTITION TO PARQUET LIST '2024-01-02'`)
  const got: unknown[] = []
  for (const q of QUERIES('o')) got.push((await db.query(q)).rows)
  t.same(got, want, 'as Parquet: the same answers')
  await db.query(`ALTER TABLE o CONVERT PARTITION TO NATIVE LIST '2024-01-02'`)
  await db.close()
  const parts = entries(dir, 'o')
  t.same(parts.map((p) => [p.name, p.rows]), [['2024-01-02', 6000]], 'one part again')
  t.same(await afterReopen(dir, ...QUERIES('o')), want, 'after a reopen: the same answers')
  db = await Database.open({ path: dir })
})
