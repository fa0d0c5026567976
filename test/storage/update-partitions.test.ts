/**
 * UPDATE of a durable table writes only the columns it changes of the partitions it changes (issue
 * #16): the rows in memory are checkpointed first, then each changed column of a changed partition
 * gets new files `<column>.u<txn>` in the partition's directory, which its `_meta` entry names; the
 * replaced files leave (a statement that started before still reads them). Not timed: what is
 * checked is which files exist, what `_meta` says and what is read, also after a restart.
 */
import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { packr } from '../../lib/storage/durable/wal-codec.js'
import { getScalar } from '../../lib/types/vector.js'
import { tmpDir } from '../unit/storage/helpers.js'

const tableDir = (root: string): string => join(root, readdirSync(root).find((e) => e.startsWith('t~'))!)
const partitionDirs = (root: string): string[] => readdirSync(tableDir(root)).filter((e) => /^\d{4}-/.test(e)).sort()
type Entry = { name: string; dir: string; files?: string[]; dropped?: string[] }
const metaOf = (root: string) => packr.unpack(readFileSync(join(tableDir(root), '_meta'))) as { txn: number; partitions: Entry[]; symbols: Record<string, string> }
const filesOf = (root: string, e: Entry): string[] => readdirSync(join(tableDir(root), e.dir)).sort()

/** 10 DAY partitions of 100 rows (s SYMBOL, x LONG, v VARCHAR), checkpointed and reopened, then 2 rows in memory. */
async function make(dir: string): Promise<Database> {
  let db = await Database.open({ path: dir })
  await db.query(`CREATE TABLE t AS (SELECT rnd_symbol('a','b','c') s, x, 'v' || x v,
    timestamp_sequence('2024-01-01', 864000000) ts FROM long_sequence(1000)) TIMESTAMP(ts) PARTITION BY DAY`)
  await db.close()
  db = await Database.open({ path: dir })
  await db.query(`INSERT INTO t (s, x, v, ts) VALUES ('a', 2000, 'm1', '2024-01-10T23:00:00Z'), ('b', 3000, 'm2', '2024-01-11T01:00:00Z')`)
  return db
}

t.test('UPDATE writes only the changed columns of the changed partitions; a statement already reading sees the old values; restart', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  const sums = async () => (await db.query('SELECT sum(x), count(v), count(s) FROM t')).rows
  const [[sum0]] = (await sums()) as [[bigint]]
  const ex = await db.execute(db.parse('SELECT x FROM t')[0]!, [])
  const it = ex.batches[Symbol.asyncIterator]()
  const first = await it.next()
  let seen = 0n
  const add = (b: { length: number; vectors: readonly unknown[] }) => { for (let i = 0; i < b.length; i++) seen += BigInt(getScalar(b.vectors[0] as never, i) as bigint) }
  add(first.value!)
  const before = partitionDirs(dir)
  let turns = 0
  let ticking = true
  const tick = (): void => { if (ticking) { turns++; setImmediate(tick) } }
  setImmediate(tick)
  const r = await db.query(`UPDATE t SET x = x + 1000 WHERE ts IN '2024-01-03'`)
  ticking = false
  t.equal(r.rowCount, 100, '100 rows updated')
  t.ok(turns >= 2, `the event loop turned while it wrote (${turns})`)
  // the two rows in memory were checkpointed (into partitions of their own days) before
  const m = metaOf(dir)
  const changed = m.partitions.find((p) => p.name === '2024-01-03')!
  t.same(changed.files, ['s', `x.u${m.txn}`, 'v', 'ts'], 'the changed partition names its new x')
  t.same(changed.dropped, ['x'])
  t.ok(m.partitions.filter((p) => p !== changed).every((p) => p.files === undefined && p.dropped === undefined), 'the others are as they were')
  // (the late row of 2024-01-10 lands in that day: an out-of-order merge writes it a part of its own, or anew)
  t.same(partitionDirs(dir).filter((d) => !d.startsWith('2024-01-1')), before.filter((d) => !d.startsWith('2024-01-1')), 'no partition before the last was written anew')
  t.same(filesOf(dir, changed), ['s.d', 'ts.d', 'v.d', 'v.o', `x.u${m.txn}.d`], 'only x was written; the old x.d left')
  for (let b = await it.next(); b.done !== true; b = await it.next()) add(b.value)
  t.equal(seen, sum0, 'the statement started before read the values of before')
  t.same(await sums(), [[sum0 + 100_000n, 1002n, 1002n]])
  // again: the file of the first UPDATE is replaced in turn
  await db.query(`UPDATE t SET x = x - 1000, v = 'w' WHERE ts IN '2024-01-03'`)
  const m2 = metaOf(dir)
  const again = m2.partitions.find((p) => p.name === '2024-01-03')!
  t.same(again.files, ['s', `x.u${m2.txn}`, `v.u${m2.txn}`, 'ts'])
  t.same(filesOf(dir, again), ['s.d', 'ts.d', `v.u${m2.txn}.d`, `v.u${m2.txn}.o`, `x.u${m2.txn}.d`])
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same(await sums(), [[sum0, 1002n, 1002n]], 'the same after a restart')
  t.same((await db.query(`SELECT count() FROM t WHERE v = 'w'`)).rows, [[100n]])
})

t.test('UPDATE of a SYMBOL column with a new value, of a column added later, then rows appended: restart', async (t) => {
  const dir = tmpDir(t)
  let db = await make(dir)
  await db.query(`UPDATE t SET s = 'zz' WHERE x = 5`)
  await db.query('ALTER TABLE t ADD COLUMN n INT, k VARCHAR')
  await db.query(`UPDATE t SET k = 'kk' WHERE ts IN '2024-01-05'`)
  const e = metaOf(dir).partitions.find((p) => p.name === '2024-01-05')!
  t.equal(e.files?.length, 6, 'n, added before k, has a file of nulls there too')
  await db.query(`INSERT INTO t (s, x, v, ts, n, k) VALUES ('zz', 9000, 'late', '2024-01-05T12:00:00Z', 1, 'k2'), ('c', 9001, 'end', '2024-01-11T02:00:00Z', 2, 'k3')`)
  await db.close()
  db = await Database.open({ path: dir })
  t.teardown(() => db.close())
  t.same((await db.query(`SELECT x FROM t WHERE s = 'zz' ORDER BY x`)).rows, [[5n], [9000n]], 'the new symbol value is in the dictionary after a restart')
  t.same((await db.query(`SELECT count(), count(n), count(k) FROM t`)).rows, [[1004n, 2n, 102n]])
  t.same((await db.query(`SELECT count() FROM t WHERE k = 'kk'`)).rows, [[100n]])
})

t.test('UPDATE that changes no row writes nothing', async (t) => {
  const dir = tmpDir(t)
  const db = await make(dir)
  t.teardown(() => db.close())
  const txn = metaOf(dir).txn
  t.equal((await db.query(`UPDATE t SET x = 1 WHERE x < 0`)).rowCount, 0)
  t.equal(metaOf(dir).txn, txn + 1, 'only the checkpoint of the rows in memory')
})
