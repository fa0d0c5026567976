/**
 * UPDATE of an in-memory table changes only the updated columns of the in-memory segments with
 * updated rows (`Table.updateInMemory`): other columns and segments stay the very buffers they
 * were, nothing is joined, and a statement already reading keeps what it read. Checked by buffer
 * identity and by rows, not by time.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import type { Table } from '../../../../lib/storage/table.js'
import { getScalar } from '../../../../lib/types/vector.js'

const tableOf = (db: Database, name: string): Table => (db as unknown as { catalog: { get(n: string): Table } }).catalog.get(name)

/** 1000 rows in order, then 3 late rows: the in-memory rows are then two segments (the first rows frozen). */
async function make(): Promise<Database> {
  const db = await Database.open({})
  await db.query(`CREATE TABLE t AS (SELECT cast('s' || (x % 3) AS SYMBOL) s, x, 'v' || x v, timestamp_sequence('2024-01-01', 864000000) ts FROM long_sequence(1000)) TIMESTAMP(ts) PARTITION BY DAY`)
  await db.query(`INSERT INTO t VALUES ('s9', -1, 'late1', '2024-01-10T20:00:00Z'), ('s9', -2, 'late2', '2024-01-10T21:00:00Z'), ('s9', -3, 'late3', '2024-01-10T22:00:00Z')`)
  return db
}

const ALL = 'SELECT s, x, v, ts FROM t ORDER BY ts, x'

t.test('only the updated columns of the segments with updated rows are new buffers', async (t) => {
  const db = await make()
  t.teardown(() => db.close())
  const table = tableOf(db, 't')
  const before = table.inMemory()
  t.equal(before.length, 2, 'two segments (the late rows left the first rows where they were)')
  const txn = table.txn
  // rows in the first segment only (days 1-2)
  const r = await db.query(`UPDATE t SET v = 'u' || x, s = 'new' WHERE ts < '2024-01-03'`)
  t.equal(r.rowCount, 200)
  const after = table.inMemory()
  t.equal(after.length, 2, 'the segments are not joined')
  t.not(after[0], before[0], 'the first segment is a new version')
  t.equal(after[1], before[1], 'the second is the same object')
  t.equal(after[0]!.columns[1], before[0]!.columns[1], 'x: the same buffer')
  t.equal(after[0]!.columns[3], before[0]!.columns[3], 'ts: the same buffer')
  t.not(after[0]!.columns[0], before[0]!.columns[0], 's: a new buffer')
  t.not(after[0]!.columns[2], before[0]!.columns[2], 'v: a new buffer')
  t.equal(table.txn, txn + 1)
  t.same((await db.query(`SELECT count(), min(x), max(x) FROM t WHERE s = 'new' AND v = 'u' || x`)).rows, [[200n, 1n, 200n]])
  t.same((await db.query(`SELECT count() FROM t WHERE v = 'v' || x OR x < 0`)).rows, [[803n]], 'the others as they were')
  t.equal((await db.query(`UPDATE t SET x = 0 WHERE x > 5000`)).rowCount, 0)
  t.equal(table.txn, txn + 1, 'no row updated: no change')
  t.equal(table.inMemory()[0], after[0])
})

t.test('the same rows as a table updated by a full rewrite; appends after it go on', async (t) => {
  const db = await make()
  const ref = await make()
  t.teardown(async () => { await db.close(); await ref.close() })
  const steps = [
    `UPDATE t SET x = x * 10 WHERE ts IN '2024-01-10'`,
    `UPDATE t SET v = NULL WHERE x % 7 = 0`,
    `UPDATE t SET s = 's' || (x % 5) WHERE s = 's9'`,
    `UPDATE t SET x = -x`,
  ]
  for (const q of steps) {
    const a = await db.query(q)
    // the reference: the same change through a copy of the table (CREATE AS SELECT of the result)
    await ref.query(q.replace(/^UPDATE t SET (.*?)( WHERE (.*))?$/, (_m, set: string, _w, where: string | undefined) => {
      const parts = set.split(/, (?=\w+ =)/).map((p) => p.split(' = ') as [string, string])
      const col = (c: string): string => {
        const p = parts.find(([n]) => n === c)
        return p === undefined ? c : where === undefined ? `${p[1]} ${c}` : `CASE WHEN ${where} THEN ${p[1]} ELSE ${c} END ${c}`
      }
      return `CREATE TABLE u AS (SELECT ${['s', 'x', 'v', 'ts'].map((c) => (c === 's' && parts.some(([n]) => n === 's') ? `cast(${col(c).replace(/ s$/, '')} AS SYMBOL) s` : col(c))).join(', ')} FROM t) TIMESTAMP(ts) PARTITION BY DAY; DROP TABLE t; RENAME TABLE u TO t`
    }))
    t.ok(a.rowCount! > 0, `${q}: ${a.rowCount} rows`)
    t.same((await db.query(ALL)).rows, (await ref.query(ALL)).rows, q)
  }
  for (const d of [db, ref]) await d.query(`INSERT INTO t VALUES ('s1', 1, 'end', '2024-01-12'), ('s1', 2, 'late', '2024-01-05')`)
  t.same((await db.query(ALL)).rows, (await ref.query(ALL)).rows, 'after appends in and out of order')
})

t.test('a statement already reading keeps the values it started with', async (t) => {
  const db = await make()
  t.teardown(() => db.close())
  const [[sum0]] = (await db.query('SELECT sum(x) FROM t')).rows as [[bigint]]
  const ex = await db.execute(db.parse('SELECT x FROM t')[0]!, [])
  const it = ex.batches[Symbol.asyncIterator]()
  let seen = 0n
  const add = (b: { length: number; vectors: readonly unknown[] }): void => { for (let i = 0; i < b.length; i++) seen += BigInt(getScalar(b.vectors[0] as never, i) as bigint) }
  add((await it.next()).value!)
  t.equal((await db.query('UPDATE t SET x = x + 1')).rowCount, 1003)
  for (let b = await it.next(); b.done !== true; b = await it.next()) add(b.value)
  t.equal(seen, sum0)
  t.same((await db.query('SELECT sum(x) FROM t')).rows, [[sum0 + 1003n]])
})

t.test('UPDATE ... FROM of an in-memory table', async (t) => {
  const db = await make()
  t.teardown(() => db.close())
  await db.query(`CREATE TABLE p (id LONG, w VARCHAR)`)
  await db.query(`INSERT INTO p VALUES (5, 'five'), (-2, 'minus two'), (5, 'again')`)
  const table = tableOf(db, 't')
  const before = table.inMemory()
  t.equal((await db.query(`UPDATE t SET v = p.w FROM p WHERE t.x = p.id`)).rowCount, 2)
  t.same((await db.query(`SELECT x, v FROM t WHERE v NOT LIKE 'v%' AND v NOT LIKE 'late%' ORDER BY x`)).rows.map((r) => r[0]), [-2n, 5n])
  const after = table.inMemory()
  t.equal(after.length, 2, 'not joined')
  t.equal(after[0]!.columns[1], before[0]!.columns[1], 'x: the same buffer')
})
