/**
 * QuestDB's query registry: `query_activity()` lists the statements running now (id, worker, user,
 * start, state change, state, text), `CANCEL QUERY id` and `cancel_query(id)` ask one to stop (it
 * fails with 57014 at its next check). With access control on, as in QuestDB Enterprise, SQL
 * ENGINE ADMIN lists and cancels every user's statements, and a user without it sees and cancels
 * only their own; `flush_query_cache()` needs SYSTEM ADMIN.
 */
import t from 'tap'
import { Database, SqlError, type Principal, type Session } from '../../../../lib/index.js'

/** A statement that runs until cancelled (it yields to the event loop between batches). */
const LONG = 'select sum(x) from long_sequence(5000000000)'

function startLong(db: Database, session?: Session): Promise<string> {
  return db.query(LONG, [], session === undefined ? {} : { session }).then(() => 'finished', (e: unknown) => `${(e as SqlError).code} ${(e as SqlError).message}`)
}

/** Waits (turns of the event loop, no clock) until `n` statements with LONG's text run. */
async function running(db: Database, n: number, session?: Session): Promise<unknown[][]> {
  for (let i = 0; i < 10_000; i++) {
    const rows = (await db.query("select query_id, username, state, query from query_activity() where query like 'select sum(x)%' order by query_id", [], session === undefined ? {} : { session })).rows
    if (rows.length >= n) return rows
    await new Promise((r) => setImmediate(r))
  }
  throw new Error('the statements did not start')
}

t.test('query_activity() lists running statements; CANCEL QUERY and cancel_query() stop them', async (t) => {
  const db = await Database.open({ clock: () => Date.UTC(2024, 0, 1) * 1000 })
  t.teardown(() => db.close())
  const columns = (await db.query('select * from query_activity()')).columns
  t.same(columns.map((c) => `${c.name} ${c.type}`), ['query_id LONG', 'worker_id LONG', 'worker_pool STRING', 'username STRING', 'query_start TIMESTAMP', 'state_change TIMESTAMP', 'state STRING', 'is_wal BOOLEAN', 'query STRING', 'memory_used LONG', 'memory_limit LONG'], 'QuestDB 9\'s columns and types (it has no pid)')
  const self = (await db.query('select username, state, query, query_start from query_activity()')).rows
  t.same(self, [['admin', 'active', 'select username, state, query, query_start from query_activity()', Date.UTC(2024, 0, 1) * 1000]], 'the statement itself, with its text and start')
  const a = startLong(db)
  const [row] = await running(db, 1)
  t.match(row, [BigInt, 'admin', 'active', LONG])
  const cancelled = await db.query(`CANCEL QUERY ${row![0]}`)
  t.equal(cancelled.command, 'cancel_query')
  t.equal(await a, '57014 canceling statement due to user request', 'the statement stopped with 57014')
  const b = startLong(db)
  const [second] = await running(db, 1)
  t.ok(Number(second![0]) > Number(row![0]), 'ids grow')
  t.same((await db.query(`select cancel_query(${second![0]})`)).rows, [[true]])
  t.equal(await b, '57014 canceling statement due to user request')
  t.same((await db.query('select cancel_query(999999)')).rows, [[false]], 'cancel_query of no running statement: false')
  t.same((await db.query("select count() from query_activity() where query like 'select sum(x)%'")).rows, [[0n]], 'ended statements leave the registry')
})

t.test("CANCEL QUERY's errors, with QuestDB's texts and positions", async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  const fails = async (sql: string, code: string, message: string, position: number) => {
    const e = await db.query(sql).then(() => undefined, (x: unknown) => x)
    t.type(e, SqlError, sql)
    t.same([(e as SqlError).code, (e as SqlError).message, (e as SqlError).position], [code, message, position], sql)
  }
  await fails('CANCEL QUERY 123456', '42704', 'query to cancel not found in registry [id=123456]', 13)
  await fails('CANCEL QUERY -1', '22023', 'non-negative integer literal expected as query id', 13)
  // an id past 2^53 (or not an integer) is refused, not printed as `1e+23` in a 'not found'
  await fails('CANCEL QUERY 99999999999999999999999', '22023', 'non-negative integer literal expected as query id', 13)
  await fails('select cancel_query(-5)', '22023', 'non-negative integer literal expected as query id', 20)
  t.same((await db.query('select 1 query, 2 cancel')).columns.map((c) => c.name), ['query', 'cancel'], 'QUERY and CANCEL stay usable as names')
})

t.test('access control: SQL ENGINE ADMIN for other users\' statements, SYSTEM ADMIN for flush_query_cache()', async (t) => {
  const db = await Database.open({ acl: { enabled: true } })
  t.teardown(() => db.close())
  for (const u of ['bob', 'eve', 'ops']) await db.query(`create user ${u}`)
  await db.query('grant sql engine admin to ops')
  const session = (name: string) => db.session({ name, groups: [], admin: false, kind: 'user' } satisfies Principal)
  const bob = session('bob'), eve = session('eve'), ops = session('ops')
  const a = startLong(db, bob)
  await running(db, 1)
  t.same((await running(db, 1, bob)).map((r) => r[1]), ['bob'], 'bob sees his own statement')
  t.same((await db.query("select count() from query_activity() where query like 'select sum(x)%'", [], { session: eve })).rows, [[0n]], 'eve, without SQL ENGINE ADMIN, does not see it')
  const id = (await running(db, 1, ops))[0]![0]
  await t.rejects(db.query(`CANCEL QUERY ${id}`, [], { session: eve }), { code: '42501', message: /Access denied for eve \[SQL ENGINE ADMIN\]/ }, 'eve may not cancel it')
  await t.rejects(db.query(`select cancel_query(${id})`, [], { session: eve }), { code: '42501' })
  t.same((await running(db, 1, ops)).map((r) => r[2]), ['active'], 'still running')
  await db.query(`CANCEL QUERY ${id}`, [], { session: ops })
  t.match(await a, /^57014/, 'ops (SQL ENGINE ADMIN) cancelled it')
  const own = startLong(db, eve)
  const mine = (await running(db, 1, eve))[0]![0]
  await db.query(`CANCEL QUERY ${mine}`, [], { session: eve })
  t.match(await own, /^57014/, 'eve cancels her own without the permission')
  await t.rejects(db.query('select flush_query_cache()', [], { session: bob }), { code: '42501', message: /SYSTEM ADMIN/ }, 'flush_query_cache() needs SYSTEM ADMIN')
  await db.query('grant system admin to bob')
  t.same((await db.query('select flush_query_cache()', [], { session: bob })).rows, [[true]])
  t.same((await db.query('select flush_query_cache()')).rows, [[true]], 'the admin may')
})

t.test('memory_used is what a statement holds now, memory_limit its limit (NULL without one)', async (t) => {
  const limited = await Database.open({ queryMemoryLimit: 64 * 1024 * 1024 })
  t.teardown(() => limited.close())
  const [[used, limit]] = (await limited.query('select memory_used, memory_limit from query_activity()')).rows as [[bigint, bigint]]
  t.equal(limit, 64n * 1024n * 1024n, 'the per-statement limit')
  t.ok(used >= 0n && used < limit, `used ${used}`)
  // a statement holding a sort buffer: its bytes show while it runs
  await limited.query('create table s (v long)')
  await limited.query('insert into s select x from long_sequence(200000)')
  const ex = await limited.execute(limited.parse('select v from s order by v desc')[0]!, [])
  const it = ex.batches[Symbol.asyncIterator]()
  await it.next()
  const rows = (await limited.query("select memory_used from query_activity() where query like 'select v from s%'")).rows as [bigint][]
  t.equal(rows.length, 1)
  t.ok(rows[0]![0] > 1_000_000n, `the sort holds its rows: ${rows[0]![0]} bytes`)
  await it.return?.(undefined)
  const open = await Database.open({ queryMemoryLimit: 0, totalQueryMemoryLimit: 0 })
  t.teardown(() => open.close())
  t.same((await open.query('select memory_limit from query_activity()')).rows, [[null]], 'no limit: NULL, as QuestDB')
})
