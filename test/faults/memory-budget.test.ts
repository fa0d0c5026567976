/**
 * Memory budget attacks against an in-process Database with small budgets: each query that would
 * accumulate more than its budget fails with 53200, and the Database answers the next query
 * normally with all memory given back.
 */
import t from 'tap'
import { Database, SqlError } from '../../lib/index.js'

const MiB = 1 << 20

async function count(rows: AsyncIterable<{ length: number }>): Promise<number> {
  let n = 0
  for await (const b of rows) n += b.length
  return n
}

const ATTACKS: Array<[string, string]> = [
  ['ORDER BY', 'select x from long_sequence(10000000) order by x desc'],
  ['GROUP BY', 'select x, count() from long_sequence(3000000) group by x'],
  ['DISTINCT', 'select distinct x from long_sequence(3000000)'],
  ['count_distinct', 'select count_distinct(x) from long_sequence(3000000)'],
  ['hash join', 'select count() from long_sequence(10) a join long_sequence(2000000) b on a.x = b.x'],
  ['cross join', 'select count() from long_sequence(10) a cross join long_sequence(5000000) b'],
  ['window', 'select x, row_number() over (order by x desc) from long_sequence(5000000)'],
  ['UNION', 'select count() from (select x from long_sequence(3000000) union select x + 3000000 from long_sequence(3000000))'],
  ['EXCEPT', 'select count() from (select x from long_sequence(10) except select x from long_sequence(3000000))'],
  ['IN (SELECT)', 'select count() from long_sequence(10) where x in (select x from long_sequence(5000000))'],
  ['materialised result', 'select x from long_sequence(3000000)'],
]

t.test('each attack fails with 53200 and the Database keeps serving', async (t) => {
  const db = await Database.open({ queryMemoryLimit: 32 * MiB, totalQueryMemoryLimit: 64 * MiB })
  for (const [name, sql] of ATTACKS) {
    const err = await db.query(sql).then(() => undefined, (e: unknown) => e)
    t.ok(err instanceof SqlError, `${name}: SqlError`)
    t.equal((err as SqlError).code, '53200', `${name}: 53200`)
    t.match((err as SqlError).message, /query memory limit exceeded: .* 32\.0 MiB .*cairo\.query\.memory\.limit\.bytes/, `${name}: names the budget and how to raise it`)
    t.equal(db.queryMemory.used, 0, `${name}: memory released`)
    t.same((await db.query('select sum(x) from long_sequence(100)')).rows, [[5050n]], `${name}: next query answers`)
  }
})

t.test('a cancelled or abandoned stream gives its memory back', async (t) => {
  const db = await Database.open({ queryMemoryLimit: 32 * MiB, totalQueryMemoryLimit: 64 * MiB })
  for await (const b of db.stream('select x from long_sequence(500000) order by x desc')) {
    t.equal(b.length > 0, true)
    t.ok(db.queryMemory.used > 0, 'the sort holds memory while it streams')
    break
  }
  t.equal(db.queryMemory.used, 0, 'released when the consumer stops early')
  const signal = { cancelled: false }
  const p = db.query('select x from long_sequence(3000000) order by x', [], { signal })
  signal.cancelled = true
  await t.rejects(p, { code: '57014' })
  t.equal(db.queryMemory.used, 0, 'released when cancelled')
})

t.test('the server-wide budget is shared by concurrent queries', async (t) => {
  // each sort needs ~28 MiB: one fits the 40 MiB pool, two together do not
  const db = await Database.open({ queryMemoryLimit: 32 * MiB, totalQueryMemoryLimit: 40 * MiB })
  const sql = 'select x from long_sequence(800000) order by x desc'
  const a = db.stream(sql)[Symbol.asyncIterator]()
  t.equal((await a.next()).done, false, 'the first query holds its sort while it streams')
  const err = await count(db.stream(sql)).then(() => undefined, (e: unknown) => e)
  t.equal((err as SqlError).code, '53200', 'the second one fails')
  t.match((err as SqlError).message, /server memory limit exceeded: .*ram\.usage\.limit\.bytes/)
  await a.return(undefined)
  t.equal(db.queryMemory.used, 0)
  t.equal(await count(db.stream(sql)), 800000, 'alone it fits')
  t.equal(db.queryMemory.used, 0)
})

t.test('defaults keep a budget below the V8 heap', async (t) => {
  const db = await Database.open()
  const { perQuery, total } = db.queryMemory
  t.ok(total > 0 && total < Infinity, 'a finite shared budget by default')
  t.ok(perQuery <= total / 2, 'one query takes at most half')
  const unlimited = await Database.open({ queryMemoryLimit: 0, totalQueryMemoryLimit: 0 })
  t.equal(unlimited.queryMemory.total, Infinity)
})
