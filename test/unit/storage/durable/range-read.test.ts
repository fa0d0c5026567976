import t from 'tap'
import { mkdtempSync, readdirSync, rmSync, truncateSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../../../lib/index.js'
import { STORAGE_STATS, resetStorageStats } from '../../../../lib/storage/durable/part-cache.js'

const MINUTE = 60_000_000
const BASE = Date.UTC(2024, 0, 1) * 1000
const DAYS = 3
const PER_DAY = 24 * 60

/** Three DAY partitions with one row a minute: v = minute index, s = one of 4 symbols. */
async function fill(t: { teardown(f: () => void): void }): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-range-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const db = await Database.open({ path: dir })
  await db.query('create table t (ts timestamp, v double, s symbol, note string) timestamp(ts) partition by day')
  const n = DAYS * PER_DAY
  const ts = new Float64Array(n)
  const v = new Float64Array(n)
  const s: string[] = []
  const note: string[] = []
  for (let i = 0; i < n; i++) { ts[i] = BASE + i * MINUTE; v[i] = i; s.push(`k${i % 4}`); note.push(`n${i}`) }
  await db.append('t', { ts, v, s, note })
  await db.close()
  return dir
}

t.test('a one-hour query on a cold partition reads only that hour of its files', async (t) => {
  const dir = await fill(t)
  const db = await Database.open({ path: dir })
  resetStorageStats()
  // day 2, 10:00-10:59: minutes 1440 + 600 .. 1440 + 659
  const r = await db.query("select count(), sum(v), min(v), max(v) from t where ts in '2024-01-02T10'")
  const lo = PER_DAY + 600
  t.same(r.rows, [[60n, (lo + lo + 59) * 30, lo, lo + 59]])
  t.equal(STORAGE_STATS.partitionLoads, 0, 'no partition loaded whole')
  t.equal(STORAGE_STATS.bytesLoaded, 60 * 8, 'only the hour of v was read')
  const keyed = await db.query("select s, count() from t where ts in '2024-01-03T23' order by s")
  t.same(keyed.rows, [['k0', 15n], ['k1', 15n], ['k2', 15n], ['k3', 15n]], 'symbols decode through the table dictionary')
  // a whole day is more than the range share: the partition loads as usual
  resetStorageStats()
  t.same((await db.query("select count(), sum(v) from t where ts in '2024-01-01'")).rows, [[1440n, (1439 * 1440) / 2]])
  t.equal(STORAGE_STATS.partitionLoads, 1)
  // once loaded, the partition is read from memory
  resetStorageStats()
  t.same((await db.query("select count(), min(v) from t where ts in '2024-01-01T05'")).rows, [[60n, 300]])
  t.equal(STORAGE_STATS.bytesLoaded, 0, 'served from the loaded partition')
  // a var-size column takes the whole-column path
  t.same((await db.query("select note from t where ts = '2024-01-02T00:01:00Z'")).rows, [['n1441']])
  await db.close()
})

t.test('a column file of the wrong size still gives the corruption error', async (t) => {
  const dir = await fill(t)
  const tableDir = join(dir, readdirSync(dir).find((d) => d.startsWith('t~'))!)
  const part = readdirSync(tableDir).find((d) => d.startsWith('2024-01-02'))!
  truncateSync(join(tableDir, part, 'v.d'), 100)
  const db = await Database.open({ path: dir })
  await t.rejects(db.query("select sum(v) from t where ts in '2024-01-02T10'"), { code: 'XX001', message: /partition=2024-01-02/ })
  t.same((await db.query("select count() from t where ts in '2024-01-01T10'")).rows, [[60n]], 'other partitions still read')
  await db.close()
})
