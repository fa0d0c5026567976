import t from 'tap'
import { Database } from '../../../lib/index.js'
import { tmpDir } from './helpers.js'
import { STORAGE_STATS, resetStorageStats } from '../../../lib/storage/durable/part-cache.js'
import type { DurableStore } from '../../../lib/storage/durable/store.js'

const tmp = (t: Parameters<typeof tmpDir>[0]): string => tmpDir(t, 'epochdb-parts-')

const DAY = 86_400_000_000
const BASE = Date.UTC(2024, 0, 1) * 1000
const storeOf = (db: Database) => (db as unknown as { store: DurableStore }).store

/** `days` DAY partitions of `perDay` rows each (ts, v double, s symbol), checkpointed. */
async function fill(dir: string, days: number, perDay: number): Promise<void> {
  const db = await Database.open({ path: dir })
  await db.query('create table t (ts timestamp, v double, s symbol) timestamp(ts) partition by day')
  for (let d = 0; d < days; d++) {
    const ts = new Float64Array(perDay)
    const v = new Float64Array(perDay)
    const s: string[] = []
    for (let i = 0; i < perDay; i++) { ts[i] = BASE + d * DAY + Math.floor(i * (DAY / perDay)); v[i] = d; s.push(`k${i % 3}`) }
    await db.append('t', { ts, v, s })
  }
  await db.close()
}

t.test('opening reads no data; a one-partition query loads only that partition, only the columns it reads', async (t) => {
  const dir = tmp(t)
  await fill(dir, 10, 1000)
  resetStorageStats()
  const db = await Database.open({ path: dir })
  t.equal(STORAGE_STATS.columnLoads, 0, 'open reads metadata only')
  const r = await db.query("select count(), sum(v) from t where ts in '2024-01-04'")
  t.same(r.rows, [[1000n, 3000]])
  t.equal(STORAGE_STATS.partitionLoads, 1, 'one partition loaded')
  t.equal(STORAGE_STATS.columnLoads, 2, 'its ts (to find the rows) and v columns only')
  t.equal(STORAGE_STATS.bytesLoaded, 1000 * 8 * 2)
  await db.query("select count() from t where ts in '2024-01-04'")
  t.equal(STORAGE_STATS.columnLoads, 2, 'loaded columns are kept')
  t.same((await db.query("select count() from t where ts between '2024-01-02T12:00' and '2024-01-03T12:00'")).rows, [[1001n]])
  t.equal(STORAGE_STATS.partitionLoads, 3, 'two more partitions for a range across two days')
  t.same((await db.query('select count(), sum(v) from t')).rows, [[10000n, 45000]])
  t.same((await db.query("select s, count() from t latest on ts partition by s order by s")).rows.map((x) => x[0]), ['k0', 'k1', 'k2'])
  await db.close()
})

t.test('a scan of a table twice the budget works and the budget is honoured', async (t) => {
  const dir = tmp(t)
  await fill(dir, 20, 5000) // 20 partitions x 5000 rows x (8 + 8 + 4) bytes = 2 MB
  const budget = 1_000_000
  resetStorageStats()
  const db = await Database.open({ path: dir, memoryBudget: budget })
  const cache = storeOf(db).cache
  let n = 0
  let sum = 0
  for await (const b of db.stream('select ts, v, s from t')) {
    n += b.length
    for (let i = 0; i < b.length; i++) sum += b.row(i)[1] as number
    t.ok(cache.bytes <= budget, 'under budget during the scan')
  }
  t.equal(n, 100_000)
  t.equal(sum, 5000 * (19 * 20 / 2))
  t.ok(STORAGE_STATS.bytesLoaded >= 2_000_000, `read the whole table (${STORAGE_STATS.bytesLoaded} bytes)`)
  t.ok(cache.peakBytes <= budget, `peak loaded ${cache.peakBytes} <= budget ${budget}`)
  t.same((await db.query('select count(), sum(v) from t')).rows, [[100000n, 5000 * 190]], 'and again')
  t.ok(cache.peakBytes <= budget)
  await db.close()
})

t.test('appends, out-of-order merges, dedup, UPDATE and DROP PARTITION on a table with cold partitions', async (t) => {
  const dir = tmp(t)
  await fill(dir, 5, 10)
  let db = await Database.open({ path: dir, memoryBudget: 200 })
  await db.query("insert into t values ('2024-01-05T23:00:00Z', 100, 'z')")
  await db.query("insert into t values ('2024-01-02T23:30:00Z', 200, 'y')")
  t.same((await db.query("select v from t where ts in '2024-01-02' and v >= 100")).rows, [[200]])
  t.same((await db.query('select count() from t')).rows, [[52n]])
  await db.query("alter table t drop partition list '2024-01-01'")
  await db.query("update t set v = -1 where s = 'z'")
  await db.close()
  db = await Database.open({ path: dir, memoryBudget: 200 })
  t.same((await db.query('select count(), min(v) from t')).rows, [[42n, -1]])
  t.same((await db.query("select name, numRows from table_partitions('t')")).rows,
    [['2024-01-02', 11n], ['2024-01-03', 10n], ['2024-01-04', 10n], ['2024-01-05', 11n]])
  await db.query('alter table t dedup enable upsert keys(ts, s)')
  const first = (await db.query("select ts, s from t where ts in '2024-01-03' limit 1")).rows[0]!
  await db.query('insert into t values ($1, 999, $2)', [first[0], first[1]])
  t.same((await db.query("select v from t where ts in '2024-01-03' and v = 999")).rows, [[999]])
  t.same((await db.query('select count() from t')).rows, [[42n]])
  await db.close()
})

t.test('a runtime-constant bound (today(), now() arithmetic, $1) loads only the partitions in its interval', async (t) => {
  const dir = tmp(t)
  await fill(dir, 10, 1000)
  let now = BASE + 3 * DAY + DAY / 2 // noon of 2024-01-04
  resetStorageStats()
  const db = await Database.open({ path: dir, clock: () => now })
  t.same((await db.query('select count(), sum(v) from t where ts in today()')).rows, [[1000n, 3000]])
  t.equal(STORAGE_STATS.partitionLoads, 1, 'today(): one partition loaded')
  t.equal(STORAGE_STATS.columnLoads, 2, 'its ts (to find the rows) and v columns only')
  now += DAY
  t.same((await db.query('select count(), sum(v) from t where ts in today()')).rows, [[1000n, 4000]], 'the same text the next day')
  t.equal(STORAGE_STATS.partitionLoads, 2, 'one more partition: the next day')
  t.same((await db.query("select count() from t where ts > dateadd('h', -12, now()) and ts < now()")).rows, [[499n]])
  t.equal(STORAGE_STATS.partitionLoads, 2, 'twelve hours back: no partition outside the day loaded')
  t.same((await db.query('select count() from t where ts >= $1 and ts < $2', ['2024-01-08', '2024-01-09'])).rows, [[1000n]])
  t.equal(STORAGE_STATS.partitionLoads, 3, 'parameters: the one partition of their day')
  await db.close()
})

t.test('subquery and clock bounds (computed once per execution) read only the rows of their interval', async (t) => {
  const dir = tmp(t)
  await fill(dir, 10, 1000)
  const now = BASE + 7 * DAY + DAY / 2 // noon of 2024-01-08
  const db = await Database.open({ path: dir, clock: () => now })
  await db.query('create table lim (at timestamp)')
  await db.query("insert into lim values ('2024-01-03T12:00:00Z')")
  t.same((await db.query('select at from lim')).rows, [[BASE + 2 * DAY + DAY / 2]])
  const bytes = async (sql: string, want: unknown[]): Promise<number> => {
    resetStorageStats()
    t.same((await db.query(sql)).rows, [want], sql)
    return STORAGE_STATS.bytesLoaded
  }
  const clock = 'ts > systimestamp() - 3600000000 and ts <= systimestamp()'
  t.equal(await bytes(`select count(), sum(v) from t where ${clock}`, [42n, 42 * 7]), 42 * 8, 'systimestamp(): read once for the bound, only the hour\'s 42 values of v read')
  // 1000 rows a day: the one at noon itself is excluded by '>'
  const sub = "ts > (select at from lim) and ts < (select dateadd('d', 1, at) from lim)"
  t.equal(await bytes(`select count(), sum(v) from t where ${sub}`, [999n, 499 * 2 + 500 * 3]), 2 * 1000 * 16, 'scalar subqueries: ts and v of the two partitions their day spans read, no other')
  t.ok(await bytes(`select count(), sum(v) from t where (${clock}) or v < 0`, [42n, 42 * 7]) >= 10 * 1000 * 8, 'the same rows as a full scan, which reads every row')
  await bytes(`select count(), sum(v) from t where (${sub}) or v < 0`, [999n, 499 * 2 + 500 * 3])
  await db.close()
})
