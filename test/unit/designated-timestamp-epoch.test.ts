/**
 * A designated timestamp before 1970-01-01 is refused on every write path, as QuestDB's writer
 * does ("designated timestamp before 1970-01-01 is not allowed"): SQL INSERT and `db.append` with
 * SqlError 22008, ILP with QuestDB's line error (`table: t, timestamp: -1; ...`), for TIMESTAMP
 * and TIMESTAMP_NS tables alike — including nanosecond values above -1 µs, which are 0 µs but
 * still before the epoch in a TIMESTAMP_NS column. Nothing of a refused write is kept.
 */
import t from 'tap'
import { Database, SqlError } from '../../lib/index.js'

async function open(): Promise<Database> {
  const db = await Database.open()
  await db.query('create table us (ts timestamp, v double) timestamp(ts) partition by day')
  await db.query('create table ns (ts timestamp_ns, v double) timestamp(ts) partition by day')
  return db
}

async function count(db: Database, table: string): Promise<bigint> {
  return (await db.query(`select count() from ${table}`)).rows[0]![0] as bigint
}

t.test('db.append refuses a designated timestamp before 1970 with 22008, as INSERT does', async (t) => {
  const db = await open()
  const cases: [string, ArrayLike<unknown>][] = [
    ['us', Float64Array.of(5, -1)],
    ['us', BigInt64Array.of(5n, -1n)],
    ['us', [5, -1_000_000]],
    ['ns', BigInt64Array.of(5n, -1n)],
    ['ns', [5, -1]],
  ]
  for (const [table, ts] of cases) {
    const err = await db.append(table, { ts, v: Float64Array.of(1, 2) }).then(() => undefined, (e: unknown) => e)
    t.ok(err instanceof SqlError && err.code === '22008' && /designated timestamp before 1970-01-01 is not allowed/.test(err.message), `${table} ${String(ts)}: ${String(err)}`)
    t.equal(await count(db, table), 0n, `nothing of ${table} ${String(ts)} was written`)
  }
  // the SQL path says the same
  await t.rejects(db.query('insert into ns values (-1::timestamp_ns, 1)'), { code: '22008' })
  // the epoch itself is allowed
  t.equal(await db.append('us', { ts: Float64Array.of(0), v: Float64Array.of(1) }), 1)
  t.equal(await db.append('ns', { ts: BigInt64Array.of(0n), v: Float64Array.of(1) }), 1)
  await db.close()
})

t.test('ILP refuses a designated timestamp before 1970 with QuestDB\'s line error, in the column\'s unit', async (t) => {
  const db = await open()
  const cases: [string, RegExp][] = [
    ['us v=1 -1000\n', /table: us, timestamp: -1; designated timestamp before 1970-01-01 is not allowed/],
    ['us v=1 -1t\n', /table: us, timestamp: -1; designated timestamp before 1970-01-01 is not allowed/],
    // nanoseconds above -1 µs: 0 µs, but before the epoch in a TIMESTAMP_NS column
    ['ns v=1 -5\n', /table: ns, timestamp: -5; designated timestamp before 1970-01-01 is not allowed/],
    ['ns v=1 -1n\n', /table: ns, timestamp: -1; designated timestamp before 1970-01-01 is not allowed/],
    ['ns v=1 -1500\n', /table: ns, timestamp: -1500; designated timestamp before 1970-01-01 is not allowed/],
    // a table the line creates with a nanosecond designated timestamp
    ['fresh v=1 -7n\n', /table: fresh, timestamp: -7; designated timestamp before 1970-01-01 is not allowed/],
    // the same shape twice: the second line takes the line template's fast path
    ['ns v=1 10\nns v=2 -3\n', /error in line 2: table: ns, timestamp: -3; designated timestamp before 1970-01-01 is not allowed/],
  ]
  for (const [body, message] of cases) {
    const w = db.lineWriter({})
    await t.rejects((async () => { w.write(Buffer.from(body)); await w.end() })(), message, JSON.stringify(body))
  }
  t.equal(await count(db, 'us'), 0n)
  t.equal(await count(db, 'ns'), 0n)
  // a µs table takes -5 ns as 0 µs (QuestDB's integer division), so that line is the epoch
  const w = db.lineWriter({})
  w.write(Buffer.from('us v=1 -5\nns v=1 0\n'))
  t.equal(await w.end(), 2)
  t.same((await db.query('select ts::string from us')).rows, [['1970-01-01T00:00:00.000000Z']])
  await db.close()
})
