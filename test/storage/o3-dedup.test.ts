/**
 * An out-of-order commit into a DEDUP table after a checkpoint reads only the tail of the partition
 * it lands in (FilePart.cut with `equal`): the cut falls before the first row at the oldest new
 * timestamp, so every row a new row may replace (same timestamp, same keys) is in the merged tail,
 * and the part kept on disk shares no timestamp with the rest (as QuestDB's O3 merge takes rows
 * equal to the O3 minimum into the merge when dedup is on). Answers are checked against the same
 * statements on an in-memory database (no cold partition, no cut); what was read is counted
 * (STORAGE_STATS), not timed.
 */
import '../unit/parquet/resolve-hook.js'
import t from 'tap'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { unpack } from 'msgpackr'
import { Database } from '../../lib/index.js'
import { STORAGE_STATS } from '../../lib/storage/durable/part-cache.js'
import { afterReopen, tmpDir } from '../unit/storage/helpers.js'

const DAY = 86_400_000_000
const HOUR = 3_600_000_000
const T0 = Date.UTC(2024, 0, 1) * 1000
const STEP = 10_000_000

const DDL = 'create table o (ts timestamp, k symbol, v long, s string) timestamp(ts) partition by day wal dedup upsert keys(ts, k)'

type Rows = { ts: number[]; k: string[]; v: number[]; s: (string | null)[] }

/** Rows for the (timestamp, key, value) triples given. */
function rows(list: [number, string, number][]): Rows {
  return { ts: list.map((r) => r[0]), k: list.map((r) => r[1]), v: list.map((r) => r[2]), s: list.map((r) => (r[2] % 5 === 0 ? null : `s${r[2] % 101}`)) }
}

/** Two days, a row per 10 s for keys a and b each (the same timestamp twice). */
function twoDays(): [number, string, number][] {
  const out: [number, string, number][] = []
  for (let ts = T0; ts < T0 + 2 * DAY; ts += STEP) out.push([ts, 'a', (ts - T0) / STEP], [ts, 'b', -(ts - T0) / STEP])
  return out
}

const QUERIES = [
  'select count(), sum(v), count(s), sum(length(s)), min(ts), max(ts) from o',
  'select k, count(), sum(v) from o group by k order by k',
  'select count() from (select ts, lag(ts) over () prev from o) where ts < prev',
  'select count() from (select ts, k, count() n from o group by ts, k) where n > 1',
  `select ts, k, v, s from o where ts >= '2024-01-02T19:59:30' and ts <= '2024-01-02T20:00:30' order by ts, k`,
  "select name, numRows from table_partitions('o')",
]

interface Entry { name: string; dir: string; rows: number; minTs: number; maxTs: number }

/** The `_meta` partition entries of table `o` in data directory `dir`. */
function entries(dir: string): Entry[] {
  const d = readdirSync(dir).find((e) => e.startsWith('o~'))!
  return (unpack(readFileSync(join(dir, d, '_meta'))) as { partitions: Entry[] }).partitions
}

/** Runs the statements on an in-memory database: each append, then every query. */
async function inMemory(ddl: string, ...appends: (Rows | string)[]): Promise<unknown[]> {
  const db = await Database.open()
  try {
    await db.query(ddl)
    for (const a of appends) if (typeof a === 'string') await db.query(a); else await db.append('o', a)
    const out: unknown[] = []
    for (const q of QUERIES) out.push((await db.query(q)).rows)
    return out
  } finally {
    await db.close()
  }
}

async function answers(db: Database): Promise<unknown[]> {
  const out: unknown[] = []
  for (const q of QUERIES) out.push((await db.query(q)).rows)
  return out
}

t.test('late rows into the last hours of a checkpointed DEDUP day: only the tail from the oldest late timestamp is read, rows at it included; answers as in memory', async (t) => {
  const dir = tmpDir(t, 'epochdb-o3-dedup-')
  const base = twoDays()
  // from 20:00 of the second day: key a replaced every 3rd step, key c inserted, new timestamps between, one key twice (last wins)
  const from = T0 + DAY + 20 * HOUR
  const late: [number, string, number][] = []
  for (let ts = from; ts < T0 + 2 * DAY; ts += 3 * STEP) late.push([ts, 'a', 1_000_000 + (ts - T0) / STEP], [ts, 'c', 7], [ts + STEP / 2, 'a', 3])
  late.push([from, 'b', 11], [from, 'b', 12])
  let db = await Database.open({ path: dir })
  await db.query(DDL)
  await db.append('o', rows(base))
  await db.close()
  const dayDir = entries(dir)[1]!.dir
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  const loads = STORAGE_STATS.columnLoads
  const tailRows = STORAGE_STATS.tailRows
  await db.append('o', rows(late))
  t.equal(STORAGE_STATS.columnLoads - loads, 0, 'no whole column of the day was read')
  const read = STORAGE_STATS.tailRows - tailRows
  const dayRows = base.filter((r) => r[0] >= T0 + DAY).length
  // 4 columns, the last 4 of 24 hours (and the coarse search's row before)
  t.ok(read > 0 && read <= 4 * (dayRows / 6 + 10), `only the rows from the first late timestamp on were read (${read} column rows of ${4 * dayRows})`)
  const want = await inMemory(DDL, rows(base), rows(late))
  t.same(await answers(db), want, 'before the checkpoint: the answers of the same appends in memory')
  t.same((want[3] as unknown[][])[0], [0n], 'no (timestamp, key) twice')
  await db.close()
  const parts = entries(dir)
  t.same(parts.map((p) => p.name), ['2024-01-01', '2024-01-02', '2024-01-02'], 'the late day is in two parts')
  t.equal(parts[1]!.dir, dayDir, 'its first part kept its directory')
  t.ok(parts[1]!.maxTs < from && parts[2]!.minTs === from, 'the first part ends before the oldest late timestamp: the parts share no timestamp')
  t.same(await afterReopen(dir, ...QUERIES), want, 'after the checkpoint and a reopen: the same answers')
  db = await Database.open({ path: dir })
})

t.test('a row re-sent at the newest timestamp of a checkpointed day moves only the rows at that timestamp', async (t) => {
  const dir = tmpDir(t, 'epochdb-o3-dedup-')
  const base = twoDays()
  const last = base[base.length - 1]![0]
  let db = await Database.open({ path: dir })
  await db.query(DDL)
  await db.append('o', rows(base))
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  const tailRows = STORAGE_STATS.tailRows
  // an ILP client re-sending its last row, with a new value, and a row after it
  const resent = rows([[last, 'b', 99], [last + STEP / 2, 'a', 5]])
  await db.append('o', resent)
  const read = STORAGE_STATS.tailRows - tailRows
  t.ok(read > 0 && read <= 4 * 2 + 4 * 4096, `a few rows were read (${read} column rows)`)
  const want = await inMemory(DDL, rows(base), resent)
  t.same(await answers(db), want, 'the answers of the same appends in memory')
  t.same((await db.query(`select k, v from o where ts = ${last} order by k`)).rows, [['a', 17279n], ['b', 99n]], 'b replaced, a kept')
  await db.close()
  const parts = entries(dir)
  t.same(parts.map((p) => [p.name, p.rows]), [['2024-01-01', 17280], ['2024-01-02', 17278], ['2024-01-02', 3]], 'the two rows at the newest timestamp and the new one are the second part')
  t.same(await afterReopen(dir, ...QUERIES), want, 'after the checkpoint and a reopen: the same answers')
  db = await Database.open({ path: dir })
})

t.test('rows duplicated before DEDUP was enabled, across the cut: each takes the new row', async (t) => {
  const dir = tmpDir(t, 'epochdb-o3-dedup-')
  const plain = 'create table o (ts timestamp, k symbol, v long, s string) timestamp(ts) partition by day wal'
  const base = twoDays()
  const at = T0 + DAY + 22 * HOUR
  // key a at `at` three times before dedup
  const dup = rows([[at, 'a', 1], [at, 'a', 2]])
  const enable = 'alter table o dedup enable upsert keys(ts, k)'
  let db = await Database.open({ path: dir })
  await db.query(plain)
  await db.append('o', rows(base))
  await db.append('o', dup)
  await db.query(enable)
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  const late = rows([[at, 'a', 42], [at + 1, 'c', 8], [T0 + DAY + 23 * HOUR, 'b', 43]])
  await db.append('o', late)
  const want = await inMemory(plain, rows(base), dup, enable, late)
  t.same(await answers(db), want, 'the answers of the same statements in memory')
  t.same((await db.query(`select v from o where ts = ${at} and k = 'a'`)).rows, [[42n], [42n], [42n]], 'every copy of the key took the new value')
  await db.close()
  t.same(await afterReopen(dir, ...QUERIES), want, 'after the checkpoint and a reopen: the same answers')
  db = await Database.open({ path: dir })
})
