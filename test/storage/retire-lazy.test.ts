/**
 * TRUNCATE and DROP PARTITION on a durable table read none of the partitions they remove (issue
 * #16: they used to read every column of them into memory first, for statements still reading):
 * a statement that started before still reads them whole, from the directories the retired
 * partitions hold (moved to the trash, removed once nothing holds them; retired-dirs.ts), and the
 * next open empties the trash. Not timed: what is checked is what was read and where files are.
 */
import t from 'tap'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { STORAGE_STATS } from '../../lib/storage/durable/part-cache.js'
import { BATCH_SIZE, getScalar } from '../../lib/types/vector.js'
import { packr } from '../../lib/storage/durable/wal-codec.js'
import { checkpointed, tmpDir } from '../unit/storage/helpers.js'

const PER_DAY = BATCH_SIZE * 2
const DAYS = 4
const tableDir = (root: string): string => join(root, readdirSync(root).find((e) => e.startsWith('t~'))!)
const partitionDirs = (root: string): string[] => readdirSync(tableDir(root)).filter((e) => /^\d{4}-/.test(e))

async function make(dir: string): Promise<Database> {
  let db = await Database.open({ path: dir })
  await db.query(`CREATE TABLE t AS (SELECT x v, 'v' || x s, timestamp_sequence('2024-01-01', ${Math.floor(86_400_000_000 / PER_DAY)}) ts
    FROM long_sequence(${PER_DAY * DAYS})) TIMESTAMP(ts) PARTITION BY DAY`)
  await db.close()
  // reopened: every partition is cold, nothing loaded
  db = await Database.open({ path: dir })
  return db
}

/** Drains a statement that already returned its first batch; returns its row count and sum(v). */
async function drain(it: AsyncIterator<{ length: number; vectors: readonly import('../../lib/types/vector.js').Vector[] }>, first: { length: number; vectors: readonly import('../../lib/types/vector.js').Vector[] }): Promise<[number, number]> {
  let rows = 0
  let sum = 0
  const add = (b: typeof first) => { rows += b.length; for (let i = 0; i < b.length; i++) sum += Number(getScalar(b.vectors[0]!, i)) }
  add(first)
  for (let r = await it.next(); r.done !== true; r = await it.next()) add(r.value)
  return [rows, sum]
}

for (const [name, sql, keep, keptDays] of [
  ['TRUNCATE', 'TRUNCATE TABLE t', `ts < '2000-01-01'`, 0],
  ['DROP PARTITION', `ALTER TABLE t DROP PARTITION WHERE ts < '2024-01-03'`, `ts >= '2024-01-03'`, 2],
] as const) {
  t.test(`${name} reads no partition; a statement started before reads every row, from the trash`, async (t) => {
    const dir = tmpDir(t)
    let db = await make(dir)
    const n = PER_DAY * DAYS
    const left = (await db.query(`select count(), sum(v) from t where ${keep}`)).rows
    const ex = await db.execute(db.parse('select v, s from t')[0]!, [])
    const it = ex.batches[Symbol.asyncIterator]()
    const first = await it.next()
    t.notOk(first.done)
    const loads = STORAGE_STATS.columnLoads
    await db.query(sql)
    t.equal(STORAGE_STATS.columnLoads, loads, `${name} read no column file`)
    t.equal(partitionDirs(dir).length, keptDays, 'the removed partitions left the table directory')
    const trash = join(dir, '_trash')
    t.ok(existsSync(trash) && readdirSync(trash).some((e) => e.startsWith('held-')), 'moved to the trash while held')
    t.same(await drain(it, first.value!), [n, n * (n + 1) / 2], 'the statement started before reads every row')
    t.same((await db.query('select count(), sum(v) from t')).rows, left, 'the rows kept')
    await db.close()
    db = await Database.open({ path: dir })
    t.teardown(() => db.close())
    t.notOk(existsSync(trash) && readdirSync(trash).length > 0, 'the next open empties the trash')
    t.same((await db.query('select count(), sum(v) from t')).rows, left, 'the rows kept, after a restart')
  })
}

t.test('TTL drops partitions as a commit applies rows, and leaves writing the files to the background checkpoint', async (t) => {
  const dir = tmpDir(t)
  let db = await Database.open({ path: dir })
  await db.query('CREATE TABLE q (ts TIMESTAMP, v INT) TIMESTAMP(ts) PARTITION BY DAY TTL 2 DAYS')
  await db.query(`INSERT INTO q SELECT timestamp_sequence('2024-01-01', 3600000000), x::int FROM long_sequence(48)`)
  await db.close()
  db = await Database.open({ path: dir })
  const listed = (): string[] => (packr.unpack(readFileSync(join(dir, readdirSync(dir).find((e) => e.startsWith('q~'))!, '_meta'))) as { partitions: { name: string }[] }).partitions.map((p) => p.name)
  t.same(listed(), ['2024-01-01', '2024-01-02'])
  const loads = STORAGE_STATS.columnLoads
  await db.query(`INSERT INTO q VALUES ('2024-01-05T12:00:00Z', 100)`)
  t.same((await db.query('SELECT count(), sum(v) FROM q')).rows, [[1n, 100n]], 'the expired partitions are gone at once')
  t.equal(STORAGE_STATS.columnLoads, loads, 'nothing of them was read')
  t.same(listed(), ['2024-01-01', '2024-01-02'], '_meta is not written inside the commit')
  await checkpointed(dir)
  t.same(listed(), ['2024-01-05'], 'the background checkpoint wrote it')
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same((await db.query('SELECT count(), sum(v) FROM q')).rows, [[1n, 100n]], 'the same after a restart')
})
